/**
 * The model of the agent examples: OpenAI's through Mastra's model router when OPENAI_API_KEY is set, else a
 * scripted stand-in that signs up on the example site's form the way a model would, so the examples run anywhere.
 */
import type { MastraModelConfig } from '@mastra/core/llm';
import { scriptedModel } from './scripted-model.js';

export const TASK = (signupUrl: string) => `Sign up on ${signupUrl} as Ada Lovelace, ada@example.com, password "correct horse battery".`;

export function exampleModel(signupUrl: string): MastraModelConfig {
  if (process.env.OPENAI_API_KEY) return 'openai/gpt-4o-mini';
  console.log('(No OPENAI_API_KEY: a scripted model stands in for the LLM. Set the key to run a real one.)');
  return scriptedModel(
    [
      { tool: 'browser_navigate', input: { url: signupUrl } },
      { tool: 'browser_type', input: { text: 'Ada Lovelace' }, target: { role: 'textbox', name: 'Full name *' } },
      { tool: 'browser_type', input: { text: 'ada@example.com' }, target: { role: 'textbox', name: 'Email *' } },
      { tool: 'browser_type', input: { text: 'correct horse battery' }, target: { role: 'textbox', name: 'Password *' } },
      { tool: 'browser_click', input: {}, target: { role: 'checkbox', name: 'I accept the terms' } },
      { tool: 'browser_click', input: {}, target: { role: 'button', name: 'Create account' } },
    ],
    (last) => `Signed up. The page says: ${/^# (.+)$/m.exec(last)?.[1] ?? '(no heading)'}`,
  );
}
