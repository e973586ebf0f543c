/**
 * The README's usage example: an agent with the browser tools signs up on a local example site. With
 * OPENAI_API_KEY it uses OpenAI's model through Mastra's model router; without, a scripted model (examples/model.ts).
 *
 *   npx tsx examples/agent.ts
 */
import { Agent } from '@mastra/core/agent';
import { BrowserToolset } from '../src/index.js';
import { exampleModel, TASK } from './model.js';
import { startSite } from './site.js';

const site = await startSite();
const browser = new BrowserToolset({ headless: true });
const agent = new Agent({
  id: 'web',
  name: 'web',
  instructions: 'You complete tasks on websites. Read the snapshot, act by ref.',
  model: exampleModel(site.url('/signup')),
  tools: browser.tools,
});

try {
  // A browser task takes more steps than Mastra's default of 5.
  const result = await agent.generate(TASK(site.url('/signup')), { maxSteps: 20 });
  console.log(result.text);
  console.log(`The site received: ${JSON.stringify(site.submissions.at(-1) ?? null)}`);
} finally {
  await browser.close();
  await site.close();
}
