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
export async function saveTrace(context: BrowserContext, option: Required<TraceOption>, sessionKey: string, part = ''): Promise<string | undefined> {
  const path = join(option.dir, `${traceFileStem(sessionKey)}-${new Date().toISOString().replace(/[:.]/g, '-')}${part ? `-${part}` : ''}.zip`);
  try {
    await mkdir(option.dir, { recursive: true });
    await context.tracing.stop({ path });
    return path;
  } catch (error) {
    console.warn(`mastra-browser-toolset: could not write the trace of browser session ${JSON.stringify(sessionKey)}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    return undefined;
  }
}

/** Contexts whose trace no longer records DOM snapshots or network, and where their earlier part was written. */
const withoutPageContent = new WeakMap<BrowserContext, string | undefined>();

/**
 * A secret is about to be typed: the trace so far (which holds no secret) is written to its own file, and the rest
 * is recorded without DOM snapshots and network, which would carry the secret (a snapshot keeps every field's
 * value, the network a form's body). Actions and screenshots go on being recorded; once per session.
 */
export async function recordWithoutPageContent(context: BrowserContext, option: Required<TraceOption>, sessionKey: string): Promise<void> {
  if (!option.snapshots || withoutPageContent.has(context)) return;
  const path = await saveTrace(context, option, sessionKey, 'before-secret');
  withoutPageContent.set(context, path);
  await context.tracing.start({ name: sessionKey, title: `${sessionKey} (after a secret was typed: no DOM snapshots or network)`, screenshots: option.screenshots, snapshots: false, sources: option.sources });
}

/** A session key as a file name: thread ids may hold slashes, colons and anything else. */
export function traceFileStem(sessionKey: string): string {
  return sessionKey.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'session';
}
