import { resolveConfig, type BrowserToolsetConfig, type ResolvedConfig } from './config.js';
import { RefManager } from './refs.js';
import { BrowserSession } from './session.js';
import { clickTool } from './tools/click.js';
import type { ToolContext } from './tools/defineTool.js';
import { navigateTool } from './tools/navigate.js';
import { scrollTool } from './tools/scroll.js';
import { snapshotTool } from './tools/snapshot.js';
import { typeTool } from './tools/type.js';

function createTools(context: ToolContext) {
  return {
    browser_navigate: navigateTool(context),
    browser_snapshot: snapshotTool(context),
    browser_click: clickTool(context),
    browser_type: typeTool(context),
    browser_scroll: scrollTool(context),
  };
}

export type BrowserTools = ReturnType<typeof createTools>;

/**
 * A browser for one agent (or one conversation): hand `tools` to a Mastra Agent and call `close()`
 * when done. The browser starts on the first tool call.
 */
export class BrowserToolset {
  readonly config: ResolvedConfig;
  readonly tools: BrowserTools;
  private readonly session: BrowserSession;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(config: BrowserToolsetConfig = {}) {
    this.config = resolveConfig(config);
    this.session = new BrowserSession(this.config);
    const refs = new RefManager(() => ({ scope: 'viewport', maxTokens: this.config.snapshotMaxTokens }));
    this.tools = createTools({ session: this.session, refs, config: this.config, exclusive: (work) => this.exclusive(work) });
  }

  /** The Playwright page the tools act on, for custom steps in workflows and tests. Launches the browser if needed. */
  async page() {
    return (await this.session.activePage()).page;
  }

  /** Closes the browser. Safe to call more than once; the next tool call starts a new browser. */
  async close(): Promise<void> {
    await this.session.close();
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
