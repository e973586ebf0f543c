import { Agent } from '@mastra/core/agent';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { agentBrowser } from './browser.js';
import { demoModel } from './demo/model.js';
import { demoSiteUrl } from './demo/site.js';

/** A real model when one is configured (PLAYGROUND_MODEL, or OpenAI's with OPENAI_API_KEY); else the demo model. */
const realModel = process.env.PLAYGROUND_MODEL ?? (process.env.OPENAI_API_KEY ? 'openai/gpt-4o-mini' : undefined);

const instructions =
  'You complete tasks on websites with the browser tools. Start with browser_navigate, read the snapshot it returns, ' +
  `and act on elements by their ref (e12). When a result is an error, follow its hint. The playground serves a demo site at ${demoSiteUrl}.`;

export const webAgent = new Agent({
  id: 'web-agent',
  name: 'Web agent',
  description: realModel
    ? `Browses websites with mastra-browser-toolset, using ${realModel}.`
    : `DEMO MODE (no OPENAI_API_KEY or PLAYGROUND_MODEL set): a scripted model that, whatever you write, opens the demo site ` +
      `${demoSiteUrl}, follows "Contact us", fills in the form and sends it. Watch it in the browser panel.`,
  instructions: realModel
    ? instructions
    : `DEMO MODE: no API key is set, so a scripted demo model answers instead of an LLM and these instructions are not read. ` +
      `Set OPENAI_API_KEY (or PLAYGROUND_MODEL and its provider's key) and restart for a real model.`,
  model: realModel ?? demoModel,
  // A browser task takes more steps than Mastra's default of 5: a page, a click, two fields and a button is already 5.
  defaultOptions: { maxSteps: 25 },
  // The provider brings the browser tools and Studio's live view; the workflow shares its toolset.
  browser: agentBrowser,
  // Threads keep the conversation, and each thread gets its own browser session. Memory is optional for the
  // browser (ToolsetBrowser works without it); with it the model also reads Mastra's browser-state notes.
  memory: new Memory({ storage: new LibSQLStore({ id: 'web-agent-memory', url: ':memory:' }) }),
});
