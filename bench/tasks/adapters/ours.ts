/**
 * This package's toolset, called the way a Mastra Agent calls it: `tool.execute(args)`. What the model reads
 * is `toModelOutput(result)` when the tool defines one, else the result as JSON (what Mastra sends).
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { BrowserToolset } from '../../../src/index.js';
import { OFFLINE_ARGS } from '../../../test/helpers/server.js';
import { CHROMIUM, VIEWPORT } from '../../systems.js';
import { textView, type View } from '../policy/view.js';
import { ACTION_TIMEOUT, EXTRA_ARGS, NAVIGATION_TIMEOUT } from './settings.js';
import type { Adapter, Need, Observation, TypeOptions, ViewRequest } from './types.js';
import { parseOurs } from './oursFormat.js';

type Result = Record<string, any>;

/** The text of a toModelOutput value: text parts as they are, JSON parts serialised. */
function modelOutputText(output: unknown): string {
  if (typeof output === 'string') return output;
  const value = output as { type?: string; value?: unknown };
  if (value?.type === 'text' && typeof value.value === 'string') return value.value;
  if (value?.type === 'json') return JSON.stringify(value.value);
  if (value?.type === 'content' && Array.isArray(value.value)) {
    return value.value.map((part: { type: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : '')).join('\n');
  }
  return JSON.stringify(output);
}

export class OursAdapter implements Adapter {
  readonly id = 'ours';
  readonly description = 'this package (mastra-browser-toolset), default options; text = JSON of each result (or toModelOutput)';
  readonly pressTargetsRef = true;
  readonly dialogStyle = 'after' as const;
  readonly findScrolls = true;
  private toolset: BrowserToolset | undefined;

  async start(): Promise<void> {
    this.toolset = new BrowserToolset({
      executablePath: CHROMIUM,
      args: [...OFFLINE_ARGS, ...EXTRA_ARGS],
      viewport: VIEWPORT,
      timeout: ACTION_TIMEOUT,
      navigationTimeout: NAVIGATION_TIMEOUT,
    });
    await this.toolset.page();
  }

  async close(): Promise<void> {
    await this.toolset?.close();
    this.toolset = undefined;
  }

  async reset(): Promise<void> {
    const toolset = this.require();
    // A confirm() left open by the last episode is answered first, or the blank page would wait behind it.
    await (toolset.tools.browser_dialog.execute!({ accept: false } as never, {} as never) as Promise<unknown>).catch(() => {});
    await (await toolset.page()).goto('about:blank');
  }

  private require(): BrowserToolset {
    if (!this.toolset) throw new Error('ours is not started');
    return this.toolset;
  }

  private async call(name: string, args: Record<string, unknown>): Promise<Observation> {
    const tool = (this.require().tools as Record<string, any>)[name];
    if (!tool) throw new Error(`no tool ${name}`);
    const result = (await tool.execute(args, {})) as Result;
    const sent = tool.toModelOutput ? modelOutputText(tool.toModelOutput(result)) : JSON.stringify(result);
    const observation: Observation = { call: `${name} ${JSON.stringify(args)}`, sent, tokens: countTokens(sent), ok: result.ok === true };
    if (result.ok !== true) {
      observation.error = { code: String(result.error?.code ?? 'error'), message: String(result.error?.message ?? '') };
      if (typeof result.error?.snapshot === 'string') observation.view = parseOurs(result.error.snapshot, 'error snapshot');
      return observation;
    }
    if (typeof result.cameIntoView === 'string') {
      // A scroll's text shows the lines that came into view, not the whole view: the policy reads what the model reads.
      observation.view = parseOurs(result.cameIntoView, name, true, false);
    } else if (typeof result.snapshot === 'string' && result.snapshot) {
      // A subtree, a search or a whole-page listing is seen, but the page as the default snapshot shows it stays the reference.
      const part = args.ref !== undefined || args.find !== undefined || args.scope === 'page';
      observation.view = parseOurs(result.snapshot, name === 'browser_snapshot' ? (part ? 'part' : 'snapshot') : name, part);
    } else if (typeof result.changes === 'string') {
      observation.view = parseOurs(result.changes, 'changes', true);
    } else if (typeof result.markdown === 'string') {
      observation.view = textView(result.markdown, 'read');
    }
    if (Array.isArray(result.downloads)) observation.downloads = result.downloads.map((d: { file: string }) => d.file);
    if (typeof result.file === 'string') observation.fileText = result.file;
    if (args.file !== undefined && typeof result.markdown === 'string') observation.fileText = result.markdown;
    const next = /browser_read (\{.*\})/.exec(String(result.next ?? result.file ?? ''))?.[1];
    if (next) observation.next = JSON.parse(next);
    const pending = (result.dialogs as Array<{ type: string; message: string; handled: string }> | undefined)?.find((d) => d.handled === 'pending');
    if (pending) observation.pendingDialog = { type: pending.type, message: pending.message };
    if (typeof result.atBottom === 'boolean') observation.atBottom = result.atBottom;
    return observation;
  }

  navigate(url: string) {
    return this.call('browser_navigate', { url });
  }

  snapshot() {
    return this.call('browser_snapshot', {});
  }

  /**
   * What a careful model asks for when the default snapshot lacks something: the lists the snapshot says it
   * shortened, a search for a known word, then the whole page (for controls) or the text as Markdown (for
   * text, which whole-page snapshots leave out).
   */
  moreViews(need: Need, current: View | undefined): ViewRequest[] {
    const requests: ViewRequest[] = need.ref ? [{ kind: 'subtree', ref: need.ref }, { kind: 'read', ref: need.ref }] : [];
    for (const item of current?.items ?? []) {
      const hint = /browser_snapshot ref ((?:f\d+)?e\d+) lists them/.exec(item.text);
      if (hint) requests.push({ kind: 'subtree', ref: hint[1]! });
    }
    if (need.keyword) requests.push({ kind: 'find', text: need.keyword });
    if (need.kind === 'control') requests.push({ kind: 'page', maxTokens: 10_000 });
    else requests.push({ kind: 'read' });
    return requests;
  }

  view(request: ViewRequest) {
    switch (request.kind) {
      case 'page':
        return this.call('browser_snapshot', { scope: 'page', ...(request.maxTokens ? { maxTokens: request.maxTokens } : {}) });
      case 'subtree':
        return this.call('browser_snapshot', { ref: request.ref });
      case 'find':
        return this.call('browser_snapshot', request.ref ? { ref: request.ref, find: request.text } : { find: request.text });
      case 'read':
        return this.call('browser_read', request.ref ? { ref: request.ref } : {});
      case 'full':
        return this.call('browser_snapshot', { scope: 'page' });
    }
  }

  scroll(ref?: string) {
    return this.call('browser_scroll', ref ? { ref } : {});
  }

  click(ref: string) {
    return this.call('browser_click', { ref });
  }

  type(ref: string, text: string, options: TypeOptions = {}) {
    return this.call('browser_type', { ref, text, ...(options.slowly ? { slowly: true } : {}) });
  }

  select(ref: string, label: string) {
    return this.call('browser_select', { ref, labels: [label] });
  }

  check(ref: string, checked: boolean) {
    return this.call('browser_check', { ref, checked });
  }

  press(key: string, ref?: string) {
    return this.call('browser_press', ref ? { key, ref } : { key });
  }

  drag(from: string, to: string) {
    return this.call('browser_drag', { from, to });
  }

  answerDialog(accept: boolean, text?: string) {
    return this.call('browser_dialog', text === undefined ? { accept } : { accept, text });
  }

  readFile(name: string, page?: number) {
    return this.call('browser_read', { file: name, ...(page ? { page } : {}) });
  }

  uploadDownload(ref: string, name: string) {
    return this.call('browser_upload', { ref, paths: [name] });
  }

  clickWithDialog(): Promise<Observation> {
    throw new Error('ours answers dialogs after the action (dialogStyle "after")');
  }
}
