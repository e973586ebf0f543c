/**
 * The README's `Agent({ browser })` example: the toolset as Mastra's browser provider, which is what Mastra Studio
 * needs for its live browser view and human takeover. No memory is needed; with `memory` the agent also gets
 * Mastra's browser-state messages between turns. Signs up on a local example site, with OpenAI's model when
 * OPENAI_API_KEY is set, else a scripted model (examples/model.ts).
 *
 *   npx tsx examples/provider.ts
 */
import { Agent } from '@mastra/core/agent';
import { ToolsetBrowser } from '../src/index.js';
import { exampleModel, TASK } from './model.js';
import { startSite } from './site.js';

const site = await startSite();
const browser = new ToolsetBrowser({ headless: true });
const agent = new Agent({ id: 'web', name: 'web', instructions: 'You complete tasks on websites.', model: exampleModel(site.url('/signup')), browser });

try {
  // A browser task takes more steps than Mastra's default of 5.
  const result = await agent.generate(TASK(site.url('/signup')), { maxSteps: 20 });
  console.log(result.text);
  console.log(`The site received: ${JSON.stringify(site.submissions.at(-1) ?? null)}`);
} finally {
  await browser.close();
  await site.close();
}
