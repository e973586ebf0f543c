/**
 * @mastra/agent-browser 0.5.0, called the way a Mastra Agent calls it: `tool.execute(args)`, and the model
 * reads the result as JSON (none of the tools used here defines toModelOutput). Its snapshot lists
 * interactive elements by default; `interactiveOnly: false` gives the whole tree with text. Actions return
 * no snapshot, so the agent asks for one when it needs to see the page.
 */
import { AgentBrowser } from '@mastra/agent-browser';
import { BrowserManager } from 'agent-browser';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { CHROMIUM, CHROMIUM_ARGS, VIEWPORT } from '../../systems.js';
import type { View } from '../policy/view.js';
import { parseAriaYaml } from './ariaYaml.js';
import { ACTION_TIMEOUT, EXTRA_ARGS, NAVIGATION_TIMEOUT } from './settings.js';
import type { Adapter, Need, Observation, TypeOptions, ViewRequest } from './types.js';

type Result = Record<string, any>;

/**
 * AgentBrowser has no option for Chromium flags; its launches go through agent-browser's BrowserManager,
 * so the flags every system gets are added there (as bench/systems.ts does), to launches that set none.
 */
let launchPatched = false;
function addLaunchArgs(): void {
  if (launchPatched) return;
  launchPatched = true;
  const launch = BrowserManager.prototype.launch;
  BrowserManager.prototype.launch = function (this: BrowserManager, options) {
    return launch.call(this, options.args === undefined && !options.cdpUrl ? { ...options, args: [...CHROMIUM_ARGS, ...EXTRA_ARGS] } : options);
  };
}

export class MastraAgentBrowserAdapter implements Adapter {
  readonly id = 'mastra-agent-browser';
  readonly description = '@mastra/agent-browser 0.5.0, default options; text = JSON of each result';
  readonly pressTargetsRef = false;
  readonly dialogStyle = 'trigger' as const;
  /** Each snapshot numbers its refs from e1 again: only the last snapshot's refs are valid. */
  readonly refsFromLastSnapshotOnly = true;
  private browser: AgentBrowser | undefined;
  private tools: Record<string, any> | undefined;

  async start(): Promise<void> {
    addLaunchArgs();
    this.browser = new AgentBrowser({ headless: true, executablePath: CHROMIUM, viewport: VIEWPORT, timeout: ACTION_TIMEOUT });
    this.tools = this.browser.getTools() as Record<string, any>;
    await this.reset();
  }

  async close(): Promise<void> {
    await this.browser?.close();
    this.browser = undefined;
    this.tools = undefined;
  }

  async reset(): Promise<void> {
    await this.tool('browser_goto').execute({ url: 'about:blank' }, {});
  }

  private tool(name: string) {
    const tool = this.tools?.[name];
    if (!tool) throw new Error(`mastra-agent-browser has no ${name} (or is not started)`);
    return tool;
  }

  private async call(name: string, args: Record<string, unknown>): Promise<Observation> {
    const tool = this.tool(name);
    const result = (await tool.execute(args, {})) as Result | string;
    // Mastra hands a string result to the model as is and an object as JSON.
    const sent = typeof result === 'string' ? result : tool.toModelOutput ? JSON.stringify(tool.toModelOutput(result)) : JSON.stringify(result);
    const object = typeof result === 'string' ? {} : result;
    const ok = object.success !== false && object.error === undefined;
    const observation: Observation = { call: `${name} ${JSON.stringify(args)}`, sent, tokens: countTokens(sent), ok };
    if (!ok) {
      observation.error = { code: String(object.code ?? (object.error === true ? 'invalid_input' : 'error')), message: String(object.message ?? '') };
      return observation;
    }
    if (typeof object.snapshot === 'string') {
      observation.view = parseAriaYaml(object.snapshot, args.interactiveOnly === false ? 'full snapshot' : 'snapshot');
    }
    if (typeof object.scroll === 'string') observation.atBottom = /BOTTOM/.test(object.scroll);
    return observation;
  }

  navigate(url: string) {
    return this.call('browser_goto', { url, timeout: NAVIGATION_TIMEOUT });
  }

  /** Its default lists controls only: for reading, a careful model asks for the whole tree straight away. */
  snapshot(need?: Need) {
    return this.call('browser_snapshot', need?.kind === 'text' ? { interactiveOnly: false } : {});
  }

  /** The default snapshot has controls only; a model that needs text or a plain element asks for the whole tree. */
  moreViews(_need: Need, current: View | undefined): ViewRequest[] {
    return current?.source === 'full snapshot' ? [] : [{ kind: 'full' }];
  }

  view(request: ViewRequest) {
    if (request.kind !== 'full') throw new Error(`mastra-agent-browser has no ${request.kind} view`);
    return this.call('browser_snapshot', { interactiveOnly: false });
  }

  scroll(ref?: string) {
    return this.call('browser_scroll', ref ? { direction: 'down', ref } : { direction: 'down', amount: 600 });
  }

  click(ref: string) {
    return this.call('browser_click', { ref });
  }

  type(ref: string, text: string, options: TypeOptions = {}) {
    return this.call('browser_type', { ref, text, clear: true, ...(options.slowly ? { delay: 20 } : {}) });
  }

  select(ref: string, label: string) {
    return this.call('browser_select', { ref, label });
  }

  /** No check tool: a click toggles it. */
  check(ref: string) {
    return this.call('browser_click', { ref });
  }

  press(key: string) {
    return this.call('browser_press', { key });
  }

  drag(from: string, to: string) {
    return this.call('browser_drag', { sourceRef: from, targetRef: to });
  }

  answerDialog(): Promise<Observation> {
    throw new Error('mastra-agent-browser answers dialogs with the triggering click (dialogStyle "trigger")');
  }

  clickWithDialog(ref: string, accept: boolean, text?: string) {
    return this.call('browser_dialog', { triggerRef: ref, action: accept ? 'accept' : 'dismiss', ...(text === undefined ? {} : { text }) });
  }
}
