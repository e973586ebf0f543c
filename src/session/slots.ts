/**
 * Slots: how many tool calls run in the browser at once, across all sessions of a toolset. A server with many
 * conversations on one machine would otherwise start all their calls together; on a few cores each then gets
 * a sliver of CPU and all of them run out of time at once. With slots, calls beyond the limit wait their turn
 * (first come, first served) and each one that runs finishes in its usual time. A call's deadline starts when it
 * gets its slot. A wait is bounded too (`queueTimeout`): a server that gets more work than it can ever do answers
 * "busy, retry" instead of queueing for ever. That bound is longer than a call's own limit on purpose: a burst of
 * conversations is served in turn rather than turned away, and a refused call would only come back as a retry.
 */
import { BrowserToolError } from '../errors.js';

export class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Waits for a free slot, at most `maxWaitMs`; returns the function that gives it back. */
  async acquire(): Promise<() => void> {
    const { maxWaitMs } = this;
    if (this.running < this.limit && !this.waiting.length) {
      this.running++;
      return this.releaser();
    }
    let timer: NodeJS.Timeout | undefined;
    let grant!: () => void;
    const granted = new Promise<void>((resolve) => (grant = resolve));
    this.waiting.push(grant);
    const gaveUp = new Promise<'gave up'>((resolve) => (timer = setTimeout(() => resolve('gave up'), maxWaitMs)));
    const outcome = await Promise.race([granted, gaveUp]);
    clearTimeout(timer);
    if (outcome === 'gave up') {
      const index = this.waiting.indexOf(grant);
      if (index >= 0) {
        this.waiting.splice(index, 1);
        throw new BrowserToolError('browser_error', `The browser is busy with other conversations: ${this.limit} calls are running and ${this.waiting.length + 1} were waiting for more than ${Math.round(maxWaitMs / 1000)} s (maxConcurrentCalls, queueTimeout).`, {
          retryable: true,
          hint: 'Call the tool again in a few seconds. If this keeps happening, the server needs more CPU, a higher maxConcurrentCalls, or a remote browser.',
        });
      }
      // Granted in the same instant it gave up: take the slot.
    }
    return this.releaser();
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next(); // the slot passes straight to the next caller
      else this.running--;
    };
  }
}
