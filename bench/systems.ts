/**
 * The systems under test, each behind the same small interface so the runner can treat them alike:
 * start a browser, open a URL, take one snapshot the way a model would receive it.
 *
 * Every system runs the same Chromium with the same flags, so differences come from the snapshot code,
 * not from the browser.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AgentBrowser } from '@mastra/agent-browser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BrowserManager } from 'agent-browser';
import type { Page } from 'playwright-core';
import { BrowserToolset, DEFAULT_CHROMIUM_ARGS, findBrowser } from '../src/index.js';
import { OFFLINE_ARGS } from '../test/helpers/server.js';

/** One Chromium for every system: CHROME_PATH, a system browser, or the npm-shipped one. */
export const CHROMIUM = (await findBrowser({})).executablePath!;
export const VIEWPORT = { width: 1280, height: 720 };
/** Our defaults plus the offline rule: the flags every system gets. */
export const CHROMIUM_ARGS = [...DEFAULT_CHROMIUM_ARGS, ...OFFLINE_ARGS];
/** Navigation waits for `load` everywhere, so every system snapshots the same settled page as the ground truth. */
export const NAVIGATION_TIMEOUT = 20_000;

export interface SnapshotOutput {
  /** Exactly what the model would receive, the text whose tokens are counted. */
  text: string;
  /** The snapshot as a person would read it (JSON envelopes unwrapped), for recall matching and samples. */
  readable: string;
  /** For our tool: the whole result as Mastra serialises it (JSON), to compare with peers that return JSON. */
  sent?: string;
}

export interface SnapshotSystem {
  readonly id: string;
  readonly description: string;
  start(): Promise<void>;
  /** Opens the URL without taking a snapshot, so the measured call is the first capture of the document. */
  open(url: string): Promise<void>;
  snapshot(): Promise<SnapshotOutput>;
  /**
   * A model's navigate call with the system's own defaults (bench/scale.ts). Returns the snapshot when the
   * navigate answer carries one; otherwise the model takes `snapshot()` next.
   */
  navigate?(url: string): Promise<SnapshotOutput | undefined>;
  close(): Promise<void>;
  /** Anything about this run that the report should say, e.g. extra steps a page needed. */
  notes?(): string[];
}

/** Waits for `load`, but a page that never finishes loading is still snapshotted as it stands. */
async function gotoLoaded(page: Page, url: string): Promise<void> {
  try {
    await page.goto(url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT });
  } catch (error) {
    if (!/Timeout/.test(String(error))) throw error;
  }
}

class OurToolset implements SnapshotSystem {
  private toolset: BrowserToolset | undefined;

  constructor(
    readonly id: string,
    readonly description: string,
    private readonly input: { scope?: 'viewport' | 'page'; maxTokens?: number },
  ) {}

  async start(): Promise<void> {
    this.toolset = new BrowserToolset({ executablePath: CHROMIUM, args: OFFLINE_ARGS, viewport: VIEWPORT, navigationTimeout: NAVIGATION_TIMEOUT });
    await this.toolset.page();
  }

  async open(url: string): Promise<void> {
    // browser_navigate would attach a snapshot of its own and warm the page up; navigate the tab directly instead.
    await gotoLoaded(await this.require().page(), url);
  }

  async navigate(url: string): Promise<SnapshotOutput> {
    const result = (await this.require().tools.browser_navigate.execute!({ url } as never, {} as never)) as Record<string, unknown>;
    if (result.ok !== true) throw new Error(`browser_navigate failed: ${JSON.stringify(result.error)}`);
    const text = String(result.snapshot);
    return { text, readable: text, sent: JSON.stringify(result) };
  }

  async snapshot(): Promise<SnapshotOutput> {
    const result = (await this.require().tools.browser_snapshot.execute!(this.input as never, {} as never)) as Record<string, unknown>;
    if (result.ok !== true) throw new Error(`browser_snapshot failed: ${JSON.stringify(result.error)}`);
    const text = String(result.snapshot);
    return { text, readable: text, sent: JSON.stringify(result) };
  }

  async close(): Promise<void> {
    await this.toolset?.close();
    this.toolset = undefined;
  }

  private require(): BrowserToolset {
    if (!this.toolset) throw new Error(`${this.id} is not started`);
    return this.toolset;
  }
}

/**
 * AgentBrowser has no option for Chromium flags, and without the offline rule its pages would try the
 * network. Its launches go through agent-browser's BrowserManager (the same module instance as ours,
 * deduplicated by npm), so flags are added there, and only to launches that set none.
 */
let launchPatched = false;
function addDefaultLaunchArgs(): void {
  if (launchPatched) return;
  launchPatched = true;
  const launch = BrowserManager.prototype.launch;
  BrowserManager.prototype.launch = function (this: BrowserManager, options) {
    return launch.call(this, options.args === undefined && !options.cdpUrl ? { ...options, args: CHROMIUM_ARGS } : options);
  };
}

/** A JSON result as text: its `snapshot` field as written, then the other fields, so it can be read and matched like the others. */
function unwrapJson(text: string): string {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const snapshot = typeof value.snapshot === 'string' ? value.snapshot : '';
    const rest = Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'snapshot'));
    return `${snapshot}\n${JSON.stringify(rest)}`;
  } catch {
    return text;
  }
}

class MastraAgentBrowser implements SnapshotSystem {
  readonly id = 'mastra-agent-browser';
  readonly description = '@mastra/agent-browser `browser_snapshot` with default arguments; text = the tool result as JSON (what Mastra sends)';
  private browser: AgentBrowser | undefined;
  private tools: ReturnType<AgentBrowser['getTools']> | undefined;

  async start(): Promise<void> {
    addDefaultLaunchArgs();
    this.browser = new AgentBrowser({ headless: true, executablePath: CHROMIUM, viewport: VIEWPORT, timeout: NAVIGATION_TIMEOUT });
    this.tools = this.browser.getTools();
    await this.open('about:blank');
  }

  async open(url: string): Promise<void> {
    const result = (await this.requireTool('browser_goto').execute!({ url, waitUntil: 'load', timeout: NAVIGATION_TIMEOUT } as never, {} as never)) as Record<string, unknown>;
    // A load timeout still leaves a page to snapshot, as with the other systems.
    if (result.success !== true && !/timeout/i.test(JSON.stringify(result))) throw new Error(`browser_goto failed: ${JSON.stringify(result)}`);
  }

  async navigate(url: string): Promise<undefined> {
    const result = (await this.requireTool('browser_goto').execute!({ url } as never, {} as never)) as Record<string, unknown>;
    if (result.success !== true) throw new Error(`browser_goto failed: ${JSON.stringify(result).slice(0, 300)}`);
    return undefined;
  }

  async snapshot(): Promise<SnapshotOutput> {
    const result = await this.requireTool('browser_snapshot').execute!({} as never, {} as never);
    // Mastra hands a string result to the model as is and an object as JSON (tool-result `json` part).
    const text = typeof result === 'string' ? result : JSON.stringify(result);
    if ((result as { success?: boolean }).success !== true) throw new Error(`browser_snapshot failed: ${text.slice(0, 300)}`);
    return { text, readable: unwrapJson(text) };
  }

  async close(): Promise<void> {
    await this.browser?.close();
    this.browser = undefined;
    this.tools = undefined;
  }

  private requireTool(name: 'browser_goto' | 'browser_snapshot') {
    const tool = this.tools?.[name];
    if (!tool) throw new Error(`${this.id} is not started`);
    return tool;
  }
}

interface McpContent {
  type: string;
  text?: string;
}

class PlaywrightMcp implements SnapshotSystem {
  readonly id = 'playwright-mcp';
  readonly description = '@playwright/mcp over stdio, `browser_snapshot`; text = the tool result text content';
  /** Pages that raised a dialog on load, which Playwright MCP makes the model dismiss before any snapshot. */
  readonly dialogPages: string[] = [];
  private client: Client | undefined;
  private dir: string | undefined;
  private stderr = '';

  constructor(private readonly timeoutMs: number) {}

  async start(): Promise<void> {
    // There is no CLI flag for arbitrary Chromium flags: they go through a config file.
    const dir = mkdtempSync(join(tmpdir(), 'bench-mcp-'));
    this.dir = dir;
    const configPath = join(dir, 'config.json');
    writeFileSync(configPath, JSON.stringify({ browser: { launchOptions: { args: CHROMIUM_ARGS } } }));
    // cli.js is not in the package's exports map; find it next to package.json, which is.
    const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')), 'cli.js');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        cli,
        '--headless',
        '--isolated',
        '--no-sandbox',
        '--executable-path', CHROMIUM,
        '--viewport-size', `${VIEWPORT.width}x${VIEWPORT.height}`,
        '--config', configPath,
        // Navigation answers would otherwise carry a snapshot too, warming the page before the measured call.
        '--snapshot-mode', 'none',
        '--output-dir', dir,
        '--timeout-navigation', String(NAVIGATION_TIMEOUT),
      ],
      stderr: 'pipe',
      cwd: dir,
    });
    transport.stderr?.on('data', (chunk) => {
      this.stderr = (this.stderr + String(chunk)).slice(-2_000);
    });
    this.client = new Client({ name: 'snapshot-bench', version: '0.0.0' });
    await this.client.connect(transport);
    await this.open('about:blank');
  }

  async open(url: string): Promise<void> {
    let result = await this.call('browser_navigate', { url });
    if (result.isError && !/Timeout/i.test(result.text)) throw new Error(`browser_navigate failed: ${result.text.slice(0, 300)}`);
    // Other systems answer load-time alerts by themselves; here it takes a tool call, made as a model would, untimed.
    for (let i = 0; i < 5 && /### Modal state[\s\S]*browser_handle_dialog/.test(result.text); i++) {
      if (i === 0) this.dialogPages.push(url);
      result = await this.call('browser_handle_dialog', { accept: true });
    }
  }

  /** Its navigate answer links to a snapshot file (or, with `--snapshot-mode none`, none): the model snapshots next. */
  async navigate(url: string): Promise<undefined> {
    const result = await this.call('browser_navigate', { url });
    if (result.isError) throw new Error(`browser_navigate failed: ${result.text.slice(0, 300)}`);
    return undefined;
  }

  async snapshot(): Promise<SnapshotOutput> {
    const result = await this.call('browser_snapshot', {});
    if (result.isError) throw new Error(`browser_snapshot failed: ${result.text.slice(0, 300)}`);
    return { text: result.text, readable: result.text };
  }

  notes(): string[] {
    if (!this.dialogPages.length) return [];
    const pages = this.dialogPages.map((url) => url.replace(/^.*\//, '')).join(', ');
    return [`${this.id}: answered a load-time dialog with browser_handle_dialog before snapshotting (untimed) on ${pages}.`];
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => {});
    this.client = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  private async call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
    if (!this.client) throw new Error(`${this.id} is not started`);
    try {
      const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: this.timeoutMs });
      const content = (result.content ?? []) as McpContent[];
      const text = content
        .filter((part) => part.type === 'text')
        .map((part) => part.text ?? '')
        .join('\n');
      return { text, isError: result.isError === true };
    } catch (error) {
      throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}${this.stderr ? ` (stderr: ${this.stderr.slice(-300)})` : ''}`);
    }
  }
}

class RawAgentBrowser implements SnapshotSystem {
  readonly id = 'agent-browser-raw';
  readonly description = "agent-browser's `BrowserManager.getSnapshot({ interactive: true })`; text = `tree`";
  private manager: BrowserManager | undefined;

  async start(): Promise<void> {
    const manager = new BrowserManager();
    await manager.launch({ headless: true, executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: VIEWPORT });
    this.manager = manager;
  }

  async open(url: string): Promise<void> {
    await gotoLoaded(this.require().getPage(), url);
  }

  async snapshot(): Promise<SnapshotOutput> {
    const { tree } = await this.require().getSnapshot({ interactive: true });
    return { text: tree, readable: tree };
  }

  async close(): Promise<void> {
    await this.manager?.close();
    this.manager = undefined;
  }

  private require(): BrowserManager {
    if (!this.manager) throw new Error(`${this.id} is not started`);
    return this.manager;
  }
}

export const OURS_DEFAULT = 'ours-default';
export const OURS_PAGE = 'ours-page';

export function createSystems(timeoutMs: number): SnapshotSystem[] {
  return [
    new OurToolset(OURS_DEFAULT, 'this package, `browser_snapshot {}` (viewport plus margin, 2,000-token budget); text = `snapshot`', {}),
    new OurToolset(OURS_PAGE, "this package, `browser_snapshot { scope: 'page', maxTokens: 100000 }`; text = `snapshot`", { scope: 'page', maxTokens: 100_000 }),
    new MastraAgentBrowser(),
    new PlaywrightMcp(timeoutMs),
    new RawAgentBrowser(),
  ];
}
