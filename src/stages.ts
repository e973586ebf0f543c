/**
 * Stages: where the time of a navigate or snapshot goes, for benchmarks (bench/scale.ts). Off unless a
 * benchmark turns it on, and then only a clock read and a map update per stage, so the tools call it freely.
 */

let record: Map<string, number> | undefined;

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
  if (!record) return fn();
  const start = performance.now();
  try {
    return await fn();
  } finally {
    add(name, performance.now() - start);
  }
}

/** The same, for work done synchronously. */
export function stageSync<T>(name: string, fn: () => T): T {
  if (!record) return fn();
  const start = performance.now();
  try {
    return fn();
  } finally {
    add(name, performance.now() - start);
  }
}
