import { SharedBrowser, type BrowserInfo } from './browser/shared.js';
import { resolveConfig, STORE_KEY_ENV, type BrowserToolsetConfig, type ResolvedConfig } from './config.js';
import { BrowserToolError } from './errors.js';
import { SessionRegistry } from './session/registry.js';
import type { StorageState } from './config.js';
import type { ToolContext } from './tools/defineTool.js';
import { TOOLS } from './tools/index.js';

export type BrowserToolId = keyof typeof TOOLS;
export const BROWSER_TOOL_IDS = Object.keys(TOOLS) as BrowserToolId[];
export type BrowserTools = { [K in BrowserToolId]: ReturnType<(typeof TOOLS)[K]> };

function chooseTools(config: ResolvedConfig): BrowserToolId[] {
  const { include, exclude } = config.tools;
  for (const id of [...(include ?? []), ...(exclude ?? [])]) {
    if (!(id in TOOLS)) {
      throw new BrowserToolError('invalid_input', `BrowserToolset config: unknown tool "${id}". Known tools: ${BROWSER_TOOL_IDS.join(', ')}.`);
    }
  }
  return BROWSER_TOOL_IDS.filter(
    (id) =>
      (include ? include.includes(id) : true) &&
      !exclude?.includes(id) &&
      // Arbitrary JavaScript is opt-in. Uploads take the session's downloads, and files of uploadDir when set.
      (id !== 'browser_evaluate' || config.allowEvaluate),
  );
}

/**
 * A browser for Mastra agents: hand `tools` to an Agent (or use them as workflow steps, or serve them over
 * MCP) and call `close()` when done. One browser is launched on the first call and shared; each conversation
 * (Mastra thread) gets its own isolated session in it, created on its first call.
 */
export class BrowserToolset {
  readonly config: ResolvedConfig;
  /** The tools this config offers, keyed by id. Tools left out by the config are absent. */
  readonly tools: BrowserTools;
  readonly sessions: SessionRegistry;
  private readonly browser: SharedBrowser;

  constructor(config: BrowserToolsetConfig = {}) {
    this.config = resolveConfig(config);
    this.browser = new SharedBrowser(this.config);
    this.sessions = new SessionRegistry(this.browser, this.config);
    const context: ToolContext = { registry: this.sessions, config: this.config };
    this.tools = Object.fromEntries(chooseTools(this.config).map((id) => [id, TOOLS[id](context)])) as BrowserTools;
    if (this.config.sessionStore && !this.config.sessionStoreKey && !this.config.allowPlaintext) warnNoStoreKey();
  }

  /**
   * The Playwright page the tools act on in a session (default: the session of calls without a thread), for
   * custom steps in workflows and tests. Opens the browser and session if needed.
   */
  async page(sessionKey = 'default') {
    const { session } = await this.sessions.get(sessionKey);
    try {
      return (await session.activeTab()).tab.page;
    } finally {
      this.sessions.done(sessionKey);
    }
  }

  /**
   * The element a ref of the latest result names (`e12`, `f5e3`), as a Playwright locator in the session's active
   * tab, for custom steps in workflows and tests. Refs are numbered for the model, so `page.getByRef` does not take
   * them. Undefined for a ref no element of the page shown can have (one of a page the tab has left).
   */
  async locator(ref: string, sessionKey = 'default') {
    const { session } = await this.sessions.get(sessionKey);
    try {
      return (await session.activeTab()).tab.refs.locator(ref);
    } finally {
      this.sessions.done(sessionKey);
    }
  }

  /**
   * Which browser the toolset launched or connected to (`source`: cdpUrl, wsEndpoint, executablePath, CHROME_PATH,
   * system or bundled), or undefined before the first tool call. For logs and operators; the model never sees it.
   */
  get browserInfo(): BrowserInfo | undefined {
    return this.browser.info();
  }

  /** Launches (or connects to) the browser now rather than at the first tool call; opens no session. */
  async launch(): Promise<BrowserInfo> {
    return this.browser.launch();
  }

  /** Cookies and local storage of a thread's session, to save and pass back as `storageState` later. */
  async exportStorageState(threadId?: string): Promise<StorageState> {
    const key = threadId === undefined ? 'default' : `thread:${threadId}`;
    const session = this.sessions.peek(key);
    if (!session) throw new BrowserToolError('invalid_input', `There is no open browser session for ${key}.`, { hint: 'Export the storage state while the session is open (before it is closed or evicted).' });
    return session.storageState();
  }

  /**
   * Closes one thread's session (its context, tabs and cookies); its next call starts a fresh one. With a
   * `sessionStore`, the session is saved first and its next call resumes it, unless `forget` deletes it from the store.
   */
  async closeSession(threadId?: string, options: { forget?: boolean } = {}): Promise<void> {
    await this.sessions.closeSession(threadId === undefined ? 'default' : `thread:${threadId}`, options);
  }

  /** Closes every session and the browser. Safe to call more than once; the next tool call starts again. */
  async close(): Promise<void> {
    await this.sessions.closeAll();
    await this.browser.close();
  }
}

let warnedNoStoreKey = false;

/** Said once per process: a store without a key keeps tabs but no logins, which surprises whoever expected them. */
function warnNoStoreKey(): void {
  if (warnedNoStoreKey) return;
  warnedNoStoreKey = true;
  console.warn(
    `mastra-browser-toolset: sessionStore has no encryption key (sessionStoreKey, or the ${STORE_KEY_ENV} environment variable): ` +
      'cookies and site storage will not be saved, only the open tabs, so logins do not survive a move to another process. ' +
      'Set a key, or allowPlaintext: true to save them unencrypted.',
  );
}
