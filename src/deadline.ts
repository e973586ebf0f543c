/**
 * One deadline per tool call. Every wait inside the call (an action, a navigation, a snapshot, a probe) takes
 * its timeout from what is left, and the call as a whole is raced against it, so no page, however stuck,
 * holds a call past its deadline. Work cut off this way goes on in the background; the session checks the
 * tab before its next call (see BrowserSession.recover).
 */
import { BrowserToolError } from './errors.js';
import { within } from './within.js';

/** Time kept back at the end of a call to take a snapshot of the page as it stands and to answer. */
const ANSWER_RESERVE_MS = 1_500;

export class Deadline {
  /** When the call must have answered: its budget plus the reserve for answering. */
  private at: number;

  constructor(
    /** The call's budget: the configured timeout of what it does. */
    budgetMs: number,
    /** What the call is doing, for the timeout message ("click e12"). */
    readonly what: string,
  ) {
    this.at = Date.now() + budgetMs + ANSWER_RESERVE_MS;
  }

  /** Milliseconds left, never below 1 (Playwright treats 0 as "no timeout"). */
  remaining(): number {
    return Math.max(1, this.at - Date.now());
  }

  /** Time left for a step that must leave room for the answer after it. */
  forStep(): number {
    return Math.max(1, this.at - Date.now() - ANSWER_RESERVE_MS);
  }

  expired(): boolean {
    return Date.now() >= this.at;
  }

  /** Gives the call at least `budgetMs` more from now: a click that starts a navigation gets the navigation's time. */
  extend(budgetMs: number): void {
    this.at = Math.max(this.at, Date.now() + budgetMs + ANSWER_RESERVE_MS);
  }

  /** Starts the budget again from now: the work before (starting the browser) was not the call's own. */
  restart(budgetMs: number): void {
    this.at = Date.now() + budgetMs + ANSWER_RESERVE_MS;
  }

  /**
   * Waits for `work`, but not past the deadline (or `ms`, when shorter). Playwright calls that take a timeout
   * should get `remaining()` instead; this is for the ones that do not (evaluate, isVisible on a hung page).
   */
  async race<T>(work: Promise<T>, what = this.what, ms?: number): Promise<T> {
    const started = Date.now();
    const cap = ms === undefined ? Infinity : started + ms;
    const answered = work.then((value) => ({ value }));
    try {
      // Waited for again when it runs out: the deadline may have been extended meanwhile.
      for (;;) {
        const end = Math.min(cap, this.at);
        const outcome = await within(answered, Math.max(0, end - Date.now()));
        if (outcome) return outcome.value;
        if (Date.now() >= Math.min(cap, this.at)) throw new DeadlineExceeded(what, end - started);
      }
    } finally {
      work.catch(() => {}); // it may still fail after we stopped waiting
    }
  }
}

/** Thrown when a step outlives the call's deadline; it maps to a `timeout` result. */
export class DeadlineExceeded extends BrowserToolError {
  constructor(what: string, ms: number) {
    super('timeout', `${what}: no answer from the page within ${(ms / 1000).toFixed(1)} s.`, {
      hint: 'The page is busy or stuck. Take browser_snapshot to see its state (a stuck tab is replaced automatically), then retry or try another way.',
    });
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
