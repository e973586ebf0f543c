/**
 * The agent a policy drives: it calls tools through an adapter, counts calls and tokens against a budget,
 * keeps what the tools last showed, and looks for things the way a careful model would: first in what it
 * already has, then in a fresh snapshot, then in the richer views the system offers (a whole-page or
 * subtree snapshot, a search, a read of the text), then by scrolling. It never touches the page itself.
 */
import type { Adapter, Need, Observation, TypeOptions, ViewRequest } from '../adapters/types.js';
import { breakdownOf, EpisodeMemory, type CallTokens } from '../breakdown.js';
import type { Cause } from '../types.js';
import { sameName, View, type Item } from './view.js';

/** The policy gives up, for a reason a model would also run into. */
export class PolicyFailure extends Error {
  constructor(
    readonly reason: Cause,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/** The page has reported its verdict: nothing the agent does now counts. */
export class EpisodeOver extends Error {}

export interface Matcher {
  /** Accepted roles; any role when left out. */
  roles?: string[];
  /** The name (or, for items without one, the text) the control must have. */
  name?: string | RegExp;
  /** Extra condition, e.g. a state or a place in a row. */
  where?: (item: Item, view: View) => boolean;
}

export const TEXT_FIELDS = ['textbox', 'searchbox', 'combobox', 'spinbutton'];

function matches(item: Item, view: View, matcher: Matcher): boolean {
  if (matcher.roles && !matcher.roles.includes(item.role)) return false;
  if (matcher.name !== undefined) {
    const label = View.label(item);
    if (typeof matcher.name === 'string' ? !sameName(label, matcher.name) : !matcher.name.test(label)) return false;
  }
  return matcher.where ? matcher.where(item, view) : true;
}

export class Agent {
  calls = 0;
  tokens = 0;
  readonly trace: string[] = [];
  /** Where each call's tokens went (breakdown.ts). */
  readonly breakdown: CallTokens[] = [];
  private readonly memory = new EpisodeMemory();
  /** The last whole snapshot, and the call count when it was taken. */
  private current: View | undefined;
  private currentAt = -1;
  /** The call count of the last action that may have changed the page. */
  private actedAt = -1;
  /** Everything shown since the last action (changes, snapshots, reads), newest first: a model remembers what it read. */
  private seen: View[] = [];
  /** Richer views asked for since the last action, so that none is asked for twice. */
  private asked = new Set<string>();
  /** The last call acted on the page: pause before the next one, as a model would. */
  private pauseNext = false;

  constructor(
    readonly adapter: Adapter,
    private readonly budget: number,
    private readonly over: () => boolean,
  ) {}

  /**
   * One tool call: budget, counting, and what it showed. `effect` says what the call may have changed:
   * the page (earlier views become outdated), something local that leaves the views usable (a field's
   * value, a checkbox, the scroll position), or nothing.
   */
  private async call(work: () => Promise<Observation>, effect: 'page' | 'local' | 'none'): Promise<Observation> {
    if (this.over()) throw new EpisodeOver();
    if (this.calls >= this.budget) throw new PolicyFailure('step_budget', `${this.budget} tool calls used`);
    // A model takes seconds per turn; without a pause, page work that an action starts (scroll listeners,
    // timers) would race the next call, a race no real agent runs. The same pause for every system.
    if (this.pauseNext) await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    this.pauseNext = effect !== 'none';
    const changesPage = effect === 'page';
    const observation = await work();
    this.calls++;
    this.tokens += observation.tokens;
    this.breakdown.push(breakdownOf(this.adapter.id, observation.call, observation.sent, observation.tokens, this.memory));
    this.trace.push(`${observation.call}${observation.ok ? '' : ` -> ${observation.error?.code}`}`);
    // BENCH_TRACE=full: also what the call returned, as the model reads it.
    if (process.env.BENCH_TRACE === 'full') this.trace.push(`  ${observation.sent.replace(/\n/g, '\n      ')}`);
    if (changesPage) {
      this.actedAt = this.calls;
      this.seen = [];
      this.asked.clear();
    }
    const view = observation.view;
    if (view && this.adapter.refsFromLastSnapshotOnly) this.seen = [view];
    else if (view) this.seen.unshift(view);
    if (view && !view.partial) {
      this.current = view;
      this.currentAt = this.calls;
    }
    if (this.over()) throw new EpisodeOver();
    return observation;
  }

  /** An action; its failure ends the episode as a tool error with the system's code. */
  private async act(work: () => Promise<Observation>, changesPage = true): Promise<Observation> {
    const observation = await this.call(work, changesPage ? 'page' : 'local');
    if (!observation.ok) throw new PolicyFailure('tool_error', `${observation.call.split(' ')[0]}: ${observation.error?.code ?? 'error'}`);
    return observation;
  }

  async open(url: string): Promise<void> {
    await this.act(() => this.adapter.navigate(url));
  }

  /** A fresh snapshot of the page. */
  async snapshot(need?: Need): Promise<View> {
    const observation = await this.call(() => this.adapter.snapshot(need), 'none');
    if (!observation.ok || !observation.view) throw new PolicyFailure('tool_error', `snapshot: ${observation.error?.code ?? 'no snapshot'}`);
    return observation.view;
  }

  private get upToDate(): boolean {
    return this.current !== undefined && this.currentAt >= this.actedAt;
  }

  /**
   * Looks for something: in what the tools showed since the last action (its changes, snapshots, reads),
   * for controls in the last snapshot even if it predates the action (refs of untouched elements stay
   * valid), in a fresh snapshot, in the richer views the system offers, and by scrolling down. Throws
   * `cause` when it is nowhere.
   */
  async seek<T>(need: Need & { fresh?: boolean }, probe: (view: View) => T | undefined, cause: Cause, detail: string): Promise<T> {
    for (const view of this.seen) {
      const found = probe(view);
      if (found !== undefined) return found;
    }
    if (this.current && !this.upToDate && need.kind === 'control' && !need.fresh) {
      const found = probe(this.current);
      if (found !== undefined) return found;
    }
    if (!this.upToDate) {
      const found = probe(await this.snapshot(need));
      if (found !== undefined) return found;
    }
    // A grid or list in view that may not have drawn the thing yet: a system whose find scrolls one searches it there first.
    const container = this.adapter.findScrolls && need.keyword ? this.current?.find((item) => !!item.ref && SCROLLING_ROLES.has(item.role)) : undefined;
    const inContainer: ViewRequest[] = container ? [{ kind: 'find', text: need.keyword!, ref: container.ref! }] : [];
    for (const request of [...inContainer, ...this.adapter.moreViews(need, this.current)]) {
      const key = JSON.stringify(request);
      if (this.asked.has(key)) continue;
      this.asked.add(key);
      const observation = await this.call(() => this.adapter.view(request), 'none');
      if (!observation.view) continue;
      const found = probe(observation.view);
      if (found !== undefined) return found;
    }
    // Last, scroll: it shows more to a viewport snapshot, and makes lazy pages load more for every system.
    // A model goes on while scrolling shows something it has not seen yet.
    const known = new Set([this.current, ...this.seen].flatMap((view) => (view ? linesOf(view) : [])));
    const onPage = await this.scrollFor(need, probe, known, undefined, 5);
    if (onPage !== undefined) return onPage;
    // A grid that draws only the rows near its own viewport scrolls inside itself: a model scrolls it by its ref.
    const grid = this.current?.find((item) => !!item.ref && SCROLLING_ROLES.has(item.role));
    if (grid) {
      const inGrid = await this.scrollFor(need, probe, known, grid.ref, 12);
      if (inGrid !== undefined) return inGrid;
    }
    throw new PolicyFailure(cause, detail);
  }

  /** Scrolls (the page, or inside `ref`) until `probe` finds something, or a scroll shows nothing new. */
  private async scrollFor<T>(need: Need, probe: (view: View) => T | undefined, known: Set<string>, ref: string | undefined, times: number): Promise<T | undefined> {
    for (let i = 0; i < times; i++) {
      const observation = await this.call(() => this.adapter.scroll(ref), 'local');
      if (!observation.ok) return undefined;
      const view = observation.view ?? (await this.snapshot(need));
      const found = probe(view);
      if (found !== undefined) return found;
      const fresh = linesOf(view).filter((line) => !known.has(line));
      if (!fresh.length) return undefined;
      for (const line of fresh) known.add(line);
    }
    return undefined;
  }

  /**
   * The instruction, parsed by the task's template. Templates end right after the words that follow the
   * last value: a model can guess a cut ending ("then pres…" is "then press Submit"), never a cut value.
   */
  instruction(pattern: RegExp): Promise<RegExpMatchArray> {
    return this.seek({ kind: 'text' }, (view) => view.match(pattern), 'instruction', `no text matching ${pattern}`);
  }

  /** A value the task needs, found by a pattern over the words of the page. */
  readText(pattern: RegExp, what: string, keyword?: string): Promise<RegExpMatchArray> {
    return this.seek({ kind: 'text', keyword }, (view) => view.match(pattern), 'value', what);
  }

  /** Anything worked out from the page by `probe` (a row's cells, a calendar's month); `ref` names the element it is in, if known. */
  read<T>(probe: (view: View) => T | undefined, what: string, options: { keyword?: string; ref?: string } = {}): Promise<T> {
    return this.seek({ kind: 'text', ...options }, probe, 'value', what);
  }

  /**
   * A control with a ref. When a matching item is seen without a ref, the failure says so: the control is
   * on the page, but the model cannot act on it.
   */
  async control(matcher: Matcher, description: string, options: { keyword?: string; fresh?: boolean } = {}): Promise<Item & { ref: string }> {
    let seenWithoutRef = false;
    const keyword = options.keyword ?? (typeof matcher.name === 'string' ? matcher.name : undefined);
    const found = await this.seek(
      { kind: 'control', keyword, fresh: options.fresh },
      (view) => {
        const hits = view.filter((item) => matches(item, view, matcher));
        if (hits.length && !hits.some((item) => item.ref)) seenWithoutRef = true;
        // Like a reader, prefer a real control over a cell or a wrapper with the same words.
        return hits.filter((item) => item.ref).sort(byControlRank)[0];
      },
      'no_ref',
      description,
    ).catch((error: unknown) => {
      if (error instanceof PolicyFailure && error.reason === 'no_ref' && seenWithoutRef) throw new PolicyFailure('no_ref', `${description} (shown, but without a ref)`);
      throw error;
    });
    return found as Item & { ref: string };
  }

  /** The current page, from a snapshot taken after the last action. */
  async look(): Promise<View> {
    if (this.upToDate) return this.current!;
    return this.snapshot();
  }

  /**
   * A click that the tool says is covered (a date picker left open over the button) closes the cover with
   * Escape and is tried once more, as a careful reader of the error would.
   */
  async click(item: Item): Promise<Observation> {
    const first = await this.call(() => this.adapter.click(refOf(item)), 'page');
    if (first.ok) return first;
    if (!COVERED.test(`${first.error?.code ?? ''} ${first.error?.message ?? ''}`)) throw new PolicyFailure('tool_error', `${first.call.split(' ')[0]}: ${first.error?.code ?? 'error'}`);
    await this.act(() => this.adapter.press('Escape'));
    return this.act(() => this.adapter.click(refOf(item)));
  }

  /** Reads a downloaded file, part `page`; a system without a file reader cannot, and a model could not either. */
  async readFile(name: string, page?: number): Promise<Observation> {
    if (!this.adapter.readFile) throw new PolicyFailure('no_files', `no tool reads the downloaded ${name}`);
    const observation = await this.call(() => this.adapter.readFile!(name, page), 'none');
    if (!observation.ok) throw new PolicyFailure('tool_error', `${observation.call.split(' ')[0]}: ${observation.error?.code ?? 'error'}`);
    return observation;
  }

  /** Attaches a downloaded file to a file input by its name. */
  uploadDownload(item: Item, name: string): Promise<Observation> {
    if (!this.adapter.uploadDownload) throw new PolicyFailure('no_files', `no tool uploads the downloaded ${name}`);
    return this.act(() => this.adapter.uploadDownload!(refOf(item), name), false);
  }

  /** Typing changes the field, not the page around it: earlier views keep their refs. */
  type(item: Item, text: string, options?: TypeOptions): Promise<Observation> {
    return this.act(() => this.adapter.type(refOf(item), text, options), !!options?.slowly);
  }

  /** Choosing an option may redraw the page (dependent lists, a calendar), so earlier text is outdated. */
  async select(item: Item, label: string): Promise<Observation> {
    const first = await this.call(() => this.adapter.select(refOf(item), label), 'page');
    if (first.ok) return first;
    // An error that lists the options ("Its options are: "January", ...") lets a reader pick the one meant.
    const listed = [...(first.error?.message ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    const meant = listed.find((option) => option.toLowerCase().startsWith(label.toLowerCase()) || label.toLowerCase().startsWith(option.toLowerCase()));
    if (!meant || meant === label) throw new PolicyFailure('tool_error', `${first.call.split(' ')[0]}: ${first.error?.code ?? 'error'}`);
    return this.act(() => this.adapter.select(refOf(item), meant));
  }

  /** Drags one element onto another: the page around them changes (a list's order). */
  drag(item: Item, onto: Item): Promise<Observation> {
    return this.act(() => this.adapter.drag(refOf(item), refOf(onto)));
  }

  /** Sets a checkbox or radio button; nothing to do when the view shows it in that state already. */
  async check(item: Item, checked: boolean): Promise<void> {
    if (item.states.includes('checked') === checked) return;
    await this.act(() => this.adapter.check(refOf(item), checked), false);
  }

  /**
   * Presses keys on an element: aimed at its ref where the system can, else at whatever has focus (the
   * policy gives the element focus first, with a click).
   */
  async press(keys: string[], item: Item): Promise<void> {
    for (const key of keys) await this.act(() => this.adapter.press(key, this.adapter.pressTargetsRef ? refOf(item) : undefined));
  }

  /** Clicks something that opens confirm() or prompt(), and answers it. */
  async clickAnswering(item: Item, accept: boolean, text?: string): Promise<void> {
    if (this.adapter.dialogStyle === 'trigger') {
      await this.act(() => this.adapter.clickWithDialog(refOf(item), accept, text));
      return;
    }
    const clicked = await this.click(item);
    if (!clicked.pendingDialog) throw new PolicyFailure('wrong_element', 'no dialog opened');
    await this.act(() => this.adapter.answerDialog(accept, text));
  }
}

/** What each system says of a click that landed on something covering the target. */
const COVERED = /element_blocked|intercepts pointer events|covered by|obscured/i;

/** Roles of containers that may scroll inside themselves (virtual grids and lists). */
const SCROLLING_ROLES = new Set(['grid', 'treegrid', 'table', 'listbox']);

/** The pause after an action before the next call: far less than a model's turn, enough for page work to land. */
const THINK_MS = 60;

const CONTROL_ROLES = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'treeitem', 'checkbox', 'radio', 'switch', 'textbox', 'combobox', 'slider']);
const rank = (item: Item) => (CONTROL_ROLES.has(item.role) ? 0 : 1);

/** Sort order a reader applies among candidates: real controls before cells, headings and wrappers. */
export function byControlRank(a: Item, b: Item): number {
  return rank(a) - rank(b);
}

/** The words a view shows of the page, without its header lines (the scroll position changes with every scroll). */
function linesOf(view: View): string[] {
  return view.items.filter((item) => item.role !== 'meta').map((item) => `${item.role} ${View.label(item)}`);
}

function refOf(item: Item): string {
  if (!item.ref) throw new PolicyFailure('no_ref', `${item.role} "${View.label(item)}" has no ref`);
  return item.ref;
}
