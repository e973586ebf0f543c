import { BrowserToolset, ToolsetBrowser } from 'mastra-browser-toolset';

/**
 * One browser for the whole server: each agent thread gets its own isolated session in it, created on its
 * first tool call. PLAYGROUND_BROWSER_ARGS passes extra Chromium flags (the test uses it to stay offline).
 */
export const browser = new BrowserToolset({
  headless: process.env.PLAYGROUND_HEADED !== '1',
  args: process.env.PLAYGROUND_BROWSER_ARGS ? JSON.parse(process.env.PLAYGROUND_BROWSER_ARGS) : [],
});

/** The same toolset as the agent's browser provider: Studio's live view and takeover for each thread. */
export const agentBrowser = new ToolsetBrowser(browser);
