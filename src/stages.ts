/**
 * Stages: where the time of a navigate or snapshot goes, for benchmarks (bench/scale.ts) and for a tool call's
 * tracing span (tools/toolSpan.ts). Off unless a benchmark or a traced call turns it on, and then only a clock
 * read and a map update per stage, or a child span, so the tools call it freely.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

let record: Map<string, number> | undefined;

/** Told of each stage of one call as it starts; returns what to call when it ends (with the error, if it threw). */
export type StageListener = (name: string) => (error?: unknown) => void;

/** The listener of the call running in this async context: stages of concurrent calls reach their own call's. */
const listeners = new AsyncLocalStorage<StageListener>();

/** Runs `fn` with every stage it runs, however deep, told to `listener`. */
export function withStageListener<T>(listener: StageListener, fn: () => Promise<T>): Promise<T> {
  return listeners.run(listener, fn);
}

/** Starts recording: every stage run from now on adds its milliseconds to the returned map, by name. */
export function recordStages(): Map<string, number> {
  record = new Map();
  return record;
}

export function stopRecordingStages(): void {
  record = undefined;
}

function add(name: string, ms: number): void {
  record?.set(name, (record.get(name) ?? 0) + ms);
}

/** Runs `fn` as the stage `name`. */
export async function stage<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const listener = listeners.getStore();
  if (!record && !listener) return fn();
  const start = performance.now();
  const end = listener?.(name);
  try {
    const result = await fn();
    end?.();
    return result;
  } catch (error) {
    end?.(error);
    throw error;
  } finally {
    add(name, performance.now() - start);
  }
}

/** The same, for work done synchronously. */
export function stageSync<T>(name: string, fn: () => T): T {
  const listener = listeners.getStore();
  if (!record && !listener) return fn();
  const start = performance.now();
  const end = listener?.(name);
  try {
    const result = fn();
    end?.();
    return result;
  } catch (error) {
    end?.(error);
    throw error;
  } finally {
    add(name, performance.now() - start);
  }
}
