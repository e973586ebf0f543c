/**
 * The README's usage example. It needs a model provider key to run (here OpenAI's, through Mastra's model
 * router); `npm test` typechecks it so the documented API stays true.
 *
 *   OPENAI_API_KEY=... npx tsx examples/agent.ts http://localhost:3000
 */
import { Agent } from '@mastra/core/agent';
import { BrowserToolset } from '../src/index.js';

const browser = new BrowserToolset({ headless: true });
const agent = new Agent({
  id: 'web',
  name: 'web',
  instructions: 'You complete tasks on websites. Read the snapshot, act by ref.',
  model: 'openai/gpt-4o-mini',
  tools: browser.tools,
});

try {
  const site = process.argv[2] ?? 'http://localhost:3000';
  const result = await agent.generate(`Sign up on ${site} as Ada Lovelace, ada@example.com`);
  console.log(result.text);
} finally {
  await browser.close();
}
