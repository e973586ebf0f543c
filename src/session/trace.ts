/**
 * A Playwright trace of a session, for looking at what the browser did after a run went wrong: started with the
 * session's context, written when the session closes (closeSession, eviction, the toolset's close) to
 * `<dir>/<session key>-<time>.zip`, which `npx playwright show-trace` opens.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import type { TraceOption } from '../config.js';

export async function startTrace(context: BrowserContext, option: Required<TraceOption>, sessionKey: string): Promise<void> {
  await context.tracing.start({ name: sessionKey, title: sessionKey, screenshots: option.screenshots, snapshots: option.snapshots, sources: option.sources });
}

/**
 * Writes the trace of a context about to close; undefined when it could not be written (the browser had gone).
 * A failure is told once on the console: losing a trace must not fail the close that called for it.
 */
export async function saveTrace(context: BrowserContext, option: Required<TraceOption>, sessionKey: string): Promise<string | undefined> {
  const path = join(option.dir, `${traceFileStem(sessionKey)}-${new Date().toISOString().replace(/[:.]/g, '-')}.zip`);
  try {
    await mkdir(option.dir, { recursive: true });
    await context.tracing.stop({ path });
    return path;
  } catch (error) {
    console.warn(`mastra-browser-toolset: could not write the trace of browser session ${JSON.stringify(sessionKey)}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    return undefined;
  }
}

/** A session key as a file name: thread ids may hold slashes, colons and anything else. */
export function traceFileStem(sessionKey: string): string {
  return sessionKey.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'session';
}
