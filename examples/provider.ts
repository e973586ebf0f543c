/**
 * The README's `Agent({ browser })` example: the toolset as Mastra's browser provider, which is what Mastra Studio
 * needs for its live browser view and human takeover. No memory is needed; with `memory` the agent also gets
 * Mastra's browser-state messages between turns. Needs a model provider key to run; `npm test` typechecks it.
 *
 *   OPENAI_API_KEY=... npx tsx examples/provider.ts http://localhost:3000
 */
import { Agent } from '@mastra/core/agent';
import { ToolsetBrowser } from '../src/index.js';

const browser = new ToolsetBrowser({ headless: true });
const agent = new Agent({ id: 'web', name: 'web', instructions: 'You complete tasks on websites.', model: 'openai/gpt-4o-mini', browser });

try {
  const site = process.argv[2] ?? 'http://localhost:3000';
  const result = await agent.generate(`Sign up on ${site} as Ada Lovelace, ada@example.com`);
  console.log(result.text);
} finally {
  await browser.close();
}
