import { Agent } from '@mastra/core/agent';
import { LibSQLStore } from '@mastra/libsql';
import { Memory } from '@mastra/memory';
import { browser } from './browser.js';

export const webAgent = new Agent({
  id: 'web-agent',
  name: 'Web agent',
  instructions:
    'You complete tasks on websites with the browser tools. Start with browser_navigate, read the snapshot it returns, ' +
    'and act on elements by their ref (e12). When a result is an error, follow its hint.',
  model: process.env.PLAYGROUND_MODEL ?? 'openai/gpt-4o-mini',
  // TODO(ToolsetBrowser): once src/provider/ ships, give the agent `browser: new ToolsetBrowser(...)` instead of `tools`.
  tools: browser.tools,
  // Threads keep the conversation, and each thread gets its own browser session. An Agent with a `browser`
  // needs memory: generate() without it throws "computeStateSignal requires Mastra memory".
  memory: new Memory({ storage: new LibSQLStore({ id: 'web-agent-memory', url: ':memory:' }) }),
});
