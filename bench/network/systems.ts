/**
 * The three systems as a model meets them when it opens a page: one call (two for @mastra/agent-browser,
 * whose goto returns no snapshot) from "open this URL" to a snapshot it can act on. Each keeps its own
 * defaults for how long to wait for the page to load: that is what is measured.
 *
 * All run the same Chromium with the same flags: our defaults plus the stand-in's resolver rule and
 * certificate flag (which take the place of the offline rule the snapshot benchmark uses).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AgentBrowser } from '@mastra/agent-browser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BrowserManager } from 'agent-browser';
import { BrowserToolset, DEFAULT_CHROMIUM_ARGS } from '../../src/index.js';
import { recordStages, stopRecordingStages } from '../../src/stages.js';
import { CHROMIUM, VIEWPORT } from '../systems.js';

/** What one navigate-to-snapshot gave the model. */
export interface NavigateOutcome {
  /** The system said it succeeded and a snapshot came with it. */
  ok: boolean;
  /** Characters of snapshot the model received, also with an error (ours sends what loaded so far). */
  snapshotChars: number;
  /** Distinct refs in that snapshot: elements the model could act on. */
  refs: number;
  /** Two-call systems: how long the first call (goto, navigate) took, the part spent waiting for the page. */
  firstCallMs?: number;
  /** The system's error code (ours, @mastra/agent-browser), or the name of the error (@playwright/mcp). */
  code?: string;
  /** Ours only: milliseconds by stage of the call (src/stages.ts). */
  stages?: Record<string, number>;
  /** The error as the system wrote it, shortened. */
  error?: string;
}

export interface NetworkSystem {
  readonly id: string;
  readonly description: string;
  /** Launches the browser; `extraArgs` route it to its stand-in. */
  start(extraArgs: string[]): Promise<void>;
  navigate(url: string): Promise<NavigateOutcome>;
  close(): Promise<void>;
}

export function short(text: string): string {
  return text.replace(/\s*\n\s*/g, ' / ').slice(0, 240);
}

/** Refs as each system writes them: `e12` at the start of our lines, `@e12` in agent-browser's, `[ref=e12]` in Playwright's. */
export function countRefs(snapshot: string): number {
  return new Set(Array.from(snapshot.matchAll(/(?:^|[\s@=[])((?:f\d+)?e\d+)\b/gm), (m) => m[1])).size;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, Math.round(performance.now() - start)];
}

class Ours implements NetworkSystem {
  readonly id = 'ours';
  readonly description = 'this package, `browser_navigate { url }` (it returns the snapshot); defaults: returns once the document is parsed and `load` fired or its scripts, style sheets and data requests settled (all answered and none new for 50 ms, or none started or ended for 0.5 s; at most 3 s), navigationTimeout 30 s';
  private toolset: BrowserToolset | undefined;

  async start(extraArgs: string[]): Promise<void> {
    // Our defaults (DEFAULT_CHROMIUM_ARGS) are added by the toolset itself.
    this.toolset = new BrowserToolset({ executablePath: CHROMIUM, args: extraArgs, viewport: VIEWPORT, headless: true });
    await this.toolset.page();
  }

  async navigate(url: string): Promise<NavigateOutcome> {
    const recorded = recordStages();
    const result = (await this.require()
      .tools.browser_navigate.execute!({ url } as never, {} as never)
      .finally(stopRecordingStages)) as {
      ok: boolean;
      snapshot?: string;
      error?: { code: string; message: string; snapshot?: string };
    };
    const stages = Object.fromEntries([...recorded].map(([name, ms]) => [name, Math.round(ms)]));
    const snapshot = (result.ok ? result.snapshot : result.error?.snapshot) ?? '';
    if (result.ok) return { ok: true, snapshotChars: snapshot.length, refs: countRefs(snapshot), stages };
    return { ok: false, snapshotChars: snapshot.length, refs: countRefs(snapshot), stages, code: result.error?.code, error: short(result.error?.message ?? JSON.stringify(result)) };
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
 * AgentBrowser has no option for Chromium flags. Its launches go through agent-browser's BrowserManager
 * (the module instance ours uses too), so the flags are added there, to launches that set none: ours
 * always sets its own, so only AgentBrowser's are changed.
 */
let agentBrowserArgs: string[] = [];
let launchPatched = false;
function patchAgentBrowserLaunch(): void {
  if (launchPatched) return;
  launchPatched = true;
  const launch = BrowserManager.prototype.launch;
  BrowserManager.prototype.launch = function (this: BrowserManager, options) {
    return launch.call(this, options.args === undefined && !options.cdpUrl ? { ...options, args: agentBrowserArgs } : options);
  };
}

class MastraAgentBrowser implements NetworkSystem {
  readonly id = 'mastra-agent-browser';
  readonly description = '@mastra/agent-browser `browser_goto { url }` then `browser_snapshot {}`; defaults: goto waits for `domcontentloaded`, timeout 30 s';
  private browser: AgentBrowser | undefined;
  private tools: ReturnType<AgentBrowser['getTools']> | undefined;

  async start(extraArgs: string[]): Promise<void> {
    agentBrowserArgs = [...DEFAULT_CHROMIUM_ARGS, ...extraArgs];
    patchAgentBrowserLaunch();
    this.browser = new AgentBrowser({ headless: true, executablePath: CHROMIUM, viewport: VIEWPORT });
    this.tools = this.browser.getTools();
    await this.call('browser_goto', { url: 'about:blank' });
  }

  async navigate(url: string): Promise<NavigateOutcome> {
    const [goto, firstCallMs] = await timed(() => this.call('browser_goto', { url }));
    // A model whose goto failed still asks what is on the screen; the snapshot is part of the cost either way.
    const snapshot = await this.call('browser_snapshot', {});
    const text = typeof snapshot.snapshot === 'string' ? snapshot.snapshot : '';
    const seen = { snapshotChars: text.length, refs: countRefs(text), firstCallMs };
    const failed = goto.success !== true ? goto : snapshot.success !== true ? snapshot : undefined;
    if (!failed) return { ok: true, ...seen };
    return { ok: false, ...seen, code: String(failed.code ?? 'error'), error: short(`${failed === goto ? 'goto' : 'snapshot'}: ${String(failed.message ?? JSON.stringify(failed))}`) };
  }

  async close(): Promise<void> {
    await this.browser?.close();
    this.browser = undefined;
    this.tools = undefined;
  }

  private async call(name: 'browser_goto' | 'browser_snapshot', input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const tool = this.tools?.[name];
    if (!tool) throw new Error(`${this.id} is not started`);
    return (await tool.execute!(input as never, {} as never)) as Record<string, unknown>;
  }
}

interface McpContent {
  type: string;
  text?: string;
}

class PlaywrightMcp implements NetworkSystem {
  readonly id = 'playwright-mcp';
  readonly description =
    '@playwright/mcp over stdio, `browser_navigate { url }` then `browser_snapshot {}` (navigate saves its snapshot to a file and returns a link); defaults: navigate waits for `domcontentloaded` (navigation timeout 60 s), then for `load` up to 5 s';
  private client: Client | undefined;
  private dir: string | undefined;
  private stderr = '';

  constructor(private readonly callTimeoutMs: number) {}

  async start(extraArgs: string[]): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-network-mcp-'));
    this.dir = dir;
    // There is no CLI flag for arbitrary Chromium flags: they go through a config file.
    const configPath = join(dir, 'config.json');
    writeFileSync(configPath, JSON.stringify({ browser: { launchOptions: { args: [...DEFAULT_CHROMIUM_ARGS, ...extraArgs] } } }));
    // cli.js is not in the package's exports map; find it next to package.json, which is.
    const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')), 'cli.js');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, '--headless', '--isolated', '--no-sandbox', '--executable-path', CHROMIUM, '--viewport-size', `${VIEWPORT.width}x${VIEWPORT.height}`, '--config', configPath, '--output-dir', dir],
      stderr: 'pipe',
      cwd: dir,
    });
    transport.stderr?.on('data', (chunk) => {
      this.stderr = (this.stderr + String(chunk)).slice(-2_000);
    });
    this.client = new Client({ name: 'network-bench', version: '0.0.0' });
    await this.client.connect(transport);
    await this.call('browser_navigate', { url: 'about:blank' });
  }

  async navigate(url: string): Promise<NavigateOutcome> {
    const [navigation, firstCallMs] = await timed(() => this.call('browser_navigate', { url }));
    // A load-time alert() or confirm() blocks every other tool until the model answers it.
    let blocked = navigation;
    for (let i = 0; i < 5 && /### Modal state[\s\S]*browser_handle_dialog/.test(blocked.text); i++) {
      blocked = await this.call('browser_handle_dialog', { accept: true });
    }
    // browser_navigate writes its snapshot to a file and answers with a link to it (0.0.83, default mode);
    // only browser_snapshot puts the snapshot in the result, so that is the call that gives the model refs.
    // As with @mastra/agent-browser, it is made after a failed navigation too.
    const snapshot = await this.call('browser_snapshot', {});
    const text = /### Snapshot\s*\n```[\s\S]*/.exec(snapshot.text)?.[0] ?? '';
    const seen = { snapshotChars: text.length, refs: countRefs(text), firstCallMs };
    const failed = navigation.isError ? navigation : snapshot.isError ? snapshot : !text ? { text: `no snapshot in the result: ${snapshot.text}` } : undefined;
    if (!failed) return { ok: true, ...seen };
    // No error codes here; the name of the Playwright error (TimeoutError...) stands in for one.
    const code = failed === navigation || failed === snapshot ? (/\b(\w+Error)\b/.exec(failed.text)?.[1] ?? 'error') : 'no_snapshot';
    return { ok: false, ...seen, code, error: short(`${failed === snapshot ? 'snapshot: ' : failed === navigation ? 'navigate: ' : ''}${failed.text}`) };
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
      // The SDK's own request timeout would otherwise cut in at 60 s; the runner's cap decides.
      const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: this.callTimeoutMs + 10_000 });
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

export function createNetworkSystems(callTimeoutMs: number): NetworkSystem[] {
  return [new Ours(), new MastraAgentBrowser(), new PlaywrightMcp(callTimeoutMs)];
}
