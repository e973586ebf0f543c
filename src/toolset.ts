import type { ChosenBrowser } from './browser/find.js';
import { resolveConfig, type BrowserToolsetConfig, type ResolvedConfig } from './config.js';
import { BrowserToolError } from './errors.js';
import { RefManager } from './refs.js';
import { BrowserSession } from './session.js';
import { checkTool } from './tools/check.js';
import { clickTool } from './tools/click.js';
import type { ToolContext } from './tools/defineTool.js';
import { dialogTool } from './tools/dialog.js';
import { dragTool } from './tools/drag.js';
import { evaluateTool } from './tools/evaluate.js';
import { historyTool } from './tools/history.js';
import { hoverTool } from './tools/hover.js';
import { navigateTool } from './tools/navigate.js';
import { pressTool } from './tools/press.js';
import { readTool } from './tools/read.js';
import { screenshotTool } from './tools/screenshot.js';
import { scrollTool } from './tools/scroll.js';
import { selectTool } from './tools/select.js';
import { snapshotTool } from './tools/snapshot.js';
import { tabsTool } from './tools/tabs.js';
import { typeTool } from './tools/type.js';
import { uploadTool } from './tools/upload.js';
import { waitTool } from './tools/wait.js';

/** Every tool, in the order the model sees them: the common ones first. */
const FACTORIES = {
  browser_navigate: navigateTool,
  browser_snapshot: snapshotTool,
  browser_click: clickTool,
  browser_type: typeTool,
  browser_select: selectTool,
  browser_check: checkTool,
  browser_press: pressTool,
  browser_scroll: scrollTool,
  browser_hover: hoverTool,
  browser_drag: dragTool,
  browser_history: historyTool,
  browser_tabs: tabsTool,
  browser_wait: waitTool,
  browser_dialog: dialogTool,
  browser_read: readTool,
  browser_screenshot: screenshotTool,
  browser_upload: uploadTool,
  browser_evaluate: evaluateTool,
};

export type BrowserToolId = keyof typeof FACTORIES;
export const BROWSER_TOOL_IDS = Object.keys(FACTORIES) as BrowserToolId[];
export type BrowserTools = { [K in BrowserToolId]: ReturnType<(typeof FACTORIES)[K]> };

function chooseTools(config: ResolvedConfig): BrowserToolId[] {
  const { include, exclude } = config.tools;
  for (const id of [...(include ?? []), ...(exclude ?? [])]) {
    if (!(id in FACTORIES)) {
      throw new BrowserToolError('invalid_input', `BrowserToolset config: unknown tool "${id}". Known tools: ${BROWSER_TOOL_IDS.join(', ')}.`);
    }
  }
  return BROWSER_TOOL_IDS.filter(
    (id) =>
      (include ? include.includes(id) : true) &&
      !exclude?.includes(id) &&
      // Arbitrary JavaScript is opt-in, and uploads need a directory to read from.
      (id !== 'browser_evaluate' || config.allowEvaluate) &&
      (id !== 'browser_upload' || config.uploadDir !== undefined),
  );
}

/**
 * A browser for one agent (or one conversation): hand `tools` to a Mastra Agent and call `close()`
 * when done. The browser starts on the first tool call.
 */
export class BrowserToolset {
  readonly config: ResolvedConfig;
  /** The tools this config offers, keyed by id. Tools left out by the config are absent. */
  readonly tools: BrowserTools;
  private readonly session: BrowserSession;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(config: BrowserToolsetConfig = {}) {
    this.config = resolveConfig(config);
    this.session = new BrowserSession(this.config);
    const refs = new RefManager(() => ({ scope: 'viewport', maxTokens: this.config.snapshotMaxTokens }), {
      secretSelector: this.config.secretSelector,
    });
    const context: ToolContext = { session: this.session, refs, config: this.config, exclusive: (work) => this.exclusive(work) };
    this.tools = Object.fromEntries(chooseTools(this.config).map((id) => [id, FACTORIES[id](context)])) as BrowserTools;
  }

  /** The Playwright page the tools act on, for custom steps in workflows and tests. Launches the browser if needed. */
  async page() {
    return (await this.session.activePage()).page;
  }

  /**
   * Which browser the toolset launched or connected to (`source`: cdpUrl, wsEndpoint, executablePath, CHROME_PATH,
   * system or bundled), or undefined before the first tool call. For logs and operators; the model never sees it.
   */
  get browserInfo(): (ChosenBrowser & { version?: string }) | undefined {
    return this.session.browserInfo();
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
