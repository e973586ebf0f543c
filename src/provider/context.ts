/**
 * The agent's line about its browser in the system prompt, and the browser state between turns, as Mastra's own
 * BrowserContextProcessor gives them, but without making memory mandatory.
 *
 * Mastra (1.71) sends a processor's `computeStateSignal` result into the memory thread and throws when the agent
 * has no memory ("computeStateSignal requires Mastra memory with an active resourceId and threadId"), so the
 * processor every browser provider gets by default makes `generate()` fail on an `Agent({ browser })` without
 * `memory`. Without memory there is no thread to keep that state in, nor a previous state to compare with; this
 * processor therefore offers the state signal only on runs that have memory and drops it on the others. An agent
 * without memory still learns what changed behind its back: the next tool result says so.
 */
import { BrowserContextProcessor } from '@mastra/core/browser';
import type { ProcessInputArgs, ProcessInputStepArgs } from '@mastra/core/processors';

/** What Mastra puts in the request context of a run that has memory and a thread (and only then). */
const MEMORY_CONTEXT_KEY = 'MastraMemory';

type ComputeStateSignal = BrowserContextProcessor['computeStateSignal'];

export class BrowserStateProcessor {
  /** The id Mastra's own processor has: a user who configures that one replaces this one. */
  readonly id = 'browser-context';
  readonly name = 'Browser context';
  readonly stateId = 'browser';
  private readonly core = new BrowserContextProcessor();
  private readonly signal: ComputeStateSignal = (args) => this.core.computeStateSignal(args);

  /**
   * Present while the run has memory. Mastra lists the processors that have it before the run starts and asks
   * again right before each call, after this processor's `processInputStep` of the same step, which sets it.
   */
  computeStateSignal: ComputeStateSignal | undefined = this.signal;

  processInput(args: ProcessInputArgs) {
    return this.core.processInput(args);
  }

  processInputStep(args: ProcessInputStepArgs): void {
    this.computeStateSignal = args.requestContext?.has(MEMORY_CONTEXT_KEY) ? this.signal : undefined;
  }
}
