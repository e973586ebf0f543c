/**
 * The work one conversation does, written once for both systems: each system is reached through a Driver that
 * makes its tool calls as Mastra would for one thread, times them, and reads its results the way a model does
 * (refs out of snapshot text).
 */
import type { AgentBrowser } from '@mastra/agent-browser';
import type { BrowserToolset } from '../../src/index.js';

/** A tool result reduced to what the task checks. `text` is the whole result, searched for other threads' markers. */
export interface Outcome {
  ok: boolean;
  code?: string;
  message?: string;
  notices: string[];
  text: string;
  /** browser_snapshot: the snapshot text and the page title. */
  snapshot?: string;
  title?: string;
  /** browser_evaluate: the script's value. */
  value?: unknown;
}

export interface Driver {
  call(tool: 'navigate' | 'snapshot' | 'type' | 'click' | 'evaluate', input: Record<string, unknown>): Promise<Outcome>;
  /** The ref of the element `role "name"` in a snapshot of this system, or undefined. */
  ref(snapshot: string, role: string, name: string): string | undefined;
}

/** Tool call latencies, in ms, of one phase. */
export class Latencies {
  readonly all: number[] = [];
  readonly byTool = new Map<string, number[]>();

  async time<T>(tool: string, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      const ms = performance.now() - start;
      this.all.push(ms);
      this.byTool.set(tool, [...(this.byTool.get(tool) ?? []), ms]);
    }
  }
}

const quoted = (name: string) => JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const threw = (error: unknown): Outcome => ({ ok: false, code: 'threw', message: String(error).slice(0, 300), notices: [], text: String(error) });

/** This package: one toolset, each call in the session of `threadId`. */
export function ourDriver(toolset: BrowserToolset, threadId: string, latencies: Latencies): Driver {
  const context = { agent: { threadId, resourceId: 'bench' } };
  const tools = toolset.tools as unknown as Record<string, { execute: (input: unknown, context: unknown) => Promise<any> }>;
  return {
    async call(tool, input) {
      const result = await latencies.time(tool, () => tools[`browser_${tool}`]!.execute(input, context).catch(threw));
      const outcome: Outcome = { ok: result.ok === true, code: result.error?.code ?? result.code, message: result.error?.message ?? result.message, notices: result.notices ?? [], text: JSON.stringify(result) };
      if (typeof result.snapshot === 'string') {
        outcome.snapshot = result.snapshot;
        outcome.title = /^page "(.*)" \S+$/m.exec(result.snapshot)?.[1];
      }
      if (tool === 'evaluate' && outcome.ok) outcome.value = result.result === 'undefined' ? undefined : JSON.parse(result.result);
      return outcome;
    },
    ref: (snapshot, role, name) => new RegExp(`^\\s*((?:f\\d+)?e\\d+) ${role} ${quoted(name)}`, 'm').exec(snapshot)?.[1],
  };
}

/** @mastra/agent-browser: one AgentBrowser, whose default `thread` scope gives each thread a browser of its own. */
export function peerDriver(browser: AgentBrowser, threadId: string, latencies: Latencies): Driver {
  const context = { agent: { threadId } };
  const tools = browser.getTools() as unknown as Record<string, { execute: (input: unknown, context: unknown) => Promise<any> }>;
  const names = { navigate: 'browser_goto', snapshot: 'browser_snapshot', type: 'browser_type', click: 'browser_click', evaluate: 'browser_evaluate' };
  return {
    async call(tool, input) {
      const result = await latencies.time(tool, () => tools[names[tool]]!.execute(input, context).catch(threw));
      const outcome: Outcome = { ok: result.success === true, code: result.code, message: result.message, notices: [], text: JSON.stringify(result) };
      if (typeof result.snapshot === 'string') {
        outcome.snapshot = result.snapshot;
        outcome.title = result.title;
      }
      if (tool === 'evaluate') outcome.value = result.result;
      return outcome;
    },
    ref: (snapshot, role, name) => new RegExp(`^- ${role} ${quoted(name)} (@e\\d+)`, 'm').exec(snapshot)?.[1],
  };
}

/** Markers are `bench-<phase>-<thread>`; one thread's marker in another thread's result is a leak. */
export const markerOf = (phase: string, thread: number) => `bench-${phase}-${String(thread).padStart(3, '0')}`;
const MARKER = /bench-[a-z0-9]+-\d{3}/g;

export interface TaskFailure {
  step: string;
  /** The tool's error code, or `leak` (another thread's marker seen), or `wrong_state` (own state missing). */
  code: string;
  message: string;
}

export class TaskError extends Error {
  constructor(readonly failure: TaskFailure) {
    super(`${failure.step}: ${failure.code} ${failure.message}`);
  }
}

/** What a phase's calls said besides their data: failed calls by code, and notices by their first words. */
export class Tally {
  readonly failedCalls: Record<string, number> = {};
  readonly notices: Record<string, number> = {};

  note(outcome: Outcome): void {
    if (!outcome.ok) this.failedCalls[outcome.code ?? 'unknown'] = (this.failedCalls[outcome.code ?? 'unknown'] ?? 0) + 1;
    for (const notice of outcome.notices) {
      const kind = notice.split(/[:(.]/)[0]!.trim().slice(0, 60);
      this.notices[kind] = (this.notices[kind] ?? 0) + 1;
    }
  }

  get failed(): number {
    return Object.values(this.failedCalls).reduce((a, b) => a + b, 0);
  }
}

/**
 * Makes one call; fails the task on `ok: false` or on another thread's marker anywhere in the result. A
 * `timeout` is retried once, as its hint tells the model to (it still counts as a failed call); so is "the
 * browser is busy" (maxConcurrentCalls), a few times, after the few seconds its hint asks for.
 */
export async function step(driver: Driver, marker: string, name: string, tool: Parameters<Driver['call']>[0], input: Record<string, unknown>, tally?: Tally): Promise<Outcome> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await driver.call(tool, input);
    tally?.note(outcome);
    const foreign = [...new Set(outcome.text.match(MARKER) ?? [])].filter((m) => m !== marker);
    if (foreign.length) throw new TaskError({ step: name, code: 'leak', message: `saw ${foreign.join(', ')}` });
    if (outcome.ok) return outcome;
    if (outcome.code === 'timeout' && attempt === 0) continue;
    if (outcome.code === 'browser_error' && /busy/.test(outcome.message ?? '') && attempt < 3) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      continue;
    }
    throw new TaskError({ step: name, code: outcome.code ?? 'unknown', message: (outcome.message ?? '').slice(0, 200) });
  }
}

function expect(condition: boolean, name: string, message: string): void {
  if (!condition) throw new TaskError({ step: name, code: 'wrong_state', message });
}

/**
 * A short signup-like task in 8 calls: open the form, read it, leave a marker in cookies and local storage,
 * type the marker into a field and tick a box by refs, go to another page of the same site, put the marker in
 * the title and read cookies and storage back, then read the page. Any other thread's marker, or a missing
 * own one, fails it.
 */
export async function formTask(driver: Driver, marker: string, url: (path: string) => string, tally?: Tally): Promise<void> {
  await step(driver, marker, 'open form', 'navigate', { url: url('/fixtures/form.html') }, tally);
  const form = await step(driver, marker, 'read form', 'snapshot', {}, tally);
  const name = driver.ref(form.snapshot ?? '', 'textbox', 'Full name *');
  const terms = driver.ref(form.snapshot ?? '', 'checkbox', 'I accept the terms');
  expect(name !== undefined && terms !== undefined, 'read form', 'no refs for the name field and the terms box');
  const set = await step(driver, marker, 'set marker', 'evaluate', { script: `(document.cookie = 'who=${marker}', localStorage.setItem('who', '${marker}'), document.cookie)` }, tally);
  expect(set.value === `who=${marker}`, 'set marker', `cookies right after setting: ${JSON.stringify(set.value)}`);
  await step(driver, marker, 'type name', 'type', { ref: name, text: marker }, tally);
  await step(driver, marker, 'tick terms', 'click', { ref: terms }, tally);
  await step(driver, marker, 'open page B', 'navigate', { url: url('/fixtures/page-b.html') }, tally);
  const back = await step(driver, marker, 'read marker', 'evaluate', { script: `(document.title = '${marker}', document.cookie + '|' + localStorage.getItem('who'))` }, tally);
  expect(back.value === `who=${marker}|${marker}`, 'read marker', `cookie|storage: ${JSON.stringify(back.value)}`);
  const page = await step(driver, marker, 'read page B', 'snapshot', {}, tally);
  expect(page.title === marker && (page.snapshot ?? '').includes('Continue'), 'read page B', `title ${JSON.stringify(page.title)}`);
}
