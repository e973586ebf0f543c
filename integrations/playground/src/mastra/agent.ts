import { Agent } from '@mastra/core/agent';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { agentBrowser } from './browser.js';

export const webAgent = new Agent({
  id: 'web-agent',
  name: 'Web agent',
  instructions:
    'You complete tasks on websites with the browser tools. Start with browser_navigate, read the snapshot it returns, ' +
    'and act on elements by their ref (e12). When a result is an error, follow its hint.',
  model: process.env.PLAYGROUND_MODEL ?? 'openai/gpt-4o-mini',
  // The provider brings the browser tools and Studio's live view; the workflow shares its toolset.
  browser: agentBrowser,
  // Threads keep the conversation, and each thread gets its own browser session. Memory is optional for the
  // browser (ToolsetBrowser works without it); with it the model also reads Mastra's browser-state notes.
  memory: new Memory({ storage: new LibSQLStore({ id: 'web-agent-memory', url: ':memory:' }) }),
});
