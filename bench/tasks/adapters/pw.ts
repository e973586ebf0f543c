/**
 * @playwright/mcp 0.0.83 over stdio with its default options (besides the browser, its flags and an output
 * directory). The model reads the text content of each result. With the default snapshot mode, actions
 * save their snapshot to a file and return only a link; `browser_snapshot` returns the whole page inline.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { CHROMIUM, CHROMIUM_ARGS, VIEWPORT } from '../../systems.js';
import { parseAriaYaml } from './ariaYaml.js';
import { ACTION_TIMEOUT, EXTRA_ARGS, NAVIGATION_TIMEOUT } from './settings.js';
import type { Adapter, Need, Observation, TypeOptions, ViewRequest } from './types.js';

/** Playwright MCP errors carry no code; name them from the message so failures can be grouped. */
function errorCode(text: string): string {
  if (/Ref \S+ not found|stale|does not match/i.test(text)) return 'stale_ref';
  if (/Timeout \d+ms exceeded|timed out/i.test(text)) return 'timeout';
  if (/not visible|outside of the viewport/i.test(text)) return 'element_not_visible';
  if (/intercepts pointer events/i.test(text)) return 'element_blocked';
  if (/not an <input>|not editable|Element is not/i.test(text)) return 'not_editable';
  if (/modal state|dialog/i.test(text)) return 'dialog_open';
  return 'error';
}

export class PlaywrightMcpAdapter implements Adapter {
  readonly id = 'playwright-mcp';
  readonly description = '@playwright/mcp 0.0.83 over stdio, default options; text = the text content of each result';
  readonly pressTargetsRef = false;
  readonly dialogStyle = 'after' as const;
  private client: Client | undefined;
  private dir: string | undefined;
  private stderr = '';

  async start(): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tasks-mcp-'));
    this.dir = dir;
    const config = join(dir, 'config.json');
    // Chromium flags can only be given through a config file.
    writeFileSync(config, JSON.stringify({ browser: { launchOptions: { args: [...CHROMIUM_ARGS, ...EXTRA_ARGS] } } }));
    const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')), 'cli.js');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        cli, '--headless', '--isolated', '--no-sandbox',
        '--executable-path', CHROMIUM,
        '--viewport-size', `${VIEWPORT.width}x${VIEWPORT.height}`,
        '--config', config,
        '--output-dir', dir,
        '--timeout-action', String(ACTION_TIMEOUT),
        '--timeout-navigation', String(NAVIGATION_TIMEOUT),
      ],
      stderr: 'pipe',
      cwd: dir,
    });
    transport.stderr?.on('data', (chunk) => (this.stderr = (this.stderr + String(chunk)).slice(-2_000)));
    this.client = new Client({ name: 'task-bench', version: '0.0.0' });
    await this.client.connect(transport);
    await this.reset();
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => {});
    this.client = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  async reset(): Promise<void> {
    let result = await this.call('browser_navigate', { url: 'about:blank' });
    for (let i = 0; i < 3 && result.pendingDialog; i++) result = await this.call('browser_handle_dialog', { accept: false });
  }

  private async call(name: string, args: Record<string, unknown>): Promise<Observation> {
    if (!this.client) throw new Error('playwright-mcp is not started');
    let text: string;
    let isError: boolean;
    try {
      const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
      const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
      text = content.filter((part) => part.type === 'text').map((part) => part.text ?? '').join('\n');
      isError = result.isError === true;
    } catch (error) {
      throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)} ${this.stderr.slice(-300)}`);
    }
    const observation: Observation = { call: `${name} ${JSON.stringify(args)}`, sent: text, tokens: countTokens(text), ok: !isError };
    if (isError) {
      const message = /### Error\n([\s\S]*?)(\n###|$)/.exec(text)?.[1] ?? text;
      observation.error = { code: errorCode(message), message: message.slice(0, 300) };
    }
    const yaml = /### Snapshot\n```yaml\n([\s\S]*?)\n```/.exec(text);
    if (yaml) observation.view = parseAriaYaml(yaml[1]!, 'snapshot');
    const modal = /### Modal state\n[\s\S]*?\[("?)(\w+)\1 dialog with message "([\s\S]*?)"\]/.exec(text);
    if (modal) observation.pendingDialog = { type: modal[2]!, message: modal[3]! };
    return observation;
  }

  navigate(url: string) {
    return this.call('browser_navigate', { url });
  }

  snapshot() {
    return this.call('browser_snapshot', {});
  }

  /** The snapshot is the whole page already; there is nothing richer to ask for. */
  moreViews(_need: Need): ViewRequest[] {
    return [];
  }

  view(request: ViewRequest): Promise<Observation> {
    throw new Error(`playwright-mcp has no ${request.kind} view`);
  }

  /** No scroll tool: PageDown on the page. */
  scroll() {
    return this.call('browser_press_key', { key: 'PageDown' });
  }

  click(ref: string) {
    return this.call('browser_click', { target: ref });
  }

  type(ref: string, text: string, options: TypeOptions = {}) {
    return this.call('browser_type', { target: ref, text, ...(options.slowly ? { slowly: true } : {}) });
  }

  select(ref: string, label: string) {
    return this.call('browser_select_option', { target: ref, values: [label] });
  }

  /** No check tool: a click toggles it. */
  check(ref: string) {
    return this.call('browser_click', { target: ref });
  }

  press(key: string) {
    return this.call('browser_press_key', { key });
  }

  drag(from: string, to: string) {
    return this.call('browser_drag', { startTarget: from, endTarget: to });
  }

  answerDialog(accept: boolean, text?: string) {
    return this.call('browser_handle_dialog', text === undefined ? { accept } : { accept, promptText: text });
  }

  clickWithDialog(): Promise<Observation> {
    throw new Error('playwright-mcp answers dialogs after the action (dialogStyle "after")');
  }
}
