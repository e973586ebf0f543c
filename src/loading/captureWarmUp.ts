/**
 * The snapshot's capture warmed up while the page is still loading: its helpers are built in the page while the
 * renderer would sit idle, waiting on the network, so the capture that follows does not spend that time.
 */
import type { Page } from 'playwright-core';
import { warmCapture } from '../snapshot/index.js';
import { sleep } from '../deadline.js';
import { blocking } from './builtOrBlocked.js';
import type { Traffic } from './traffic.js';

/** Builds the capture's helpers while the renderer waits on the network (`warmUpWhileWaiting`). */
export interface WarmUp {
  now(): void;
  stop(): void;
}

/** How long no request has started or ended before a parser held by a script or style sheet counts as waiting on it. */
const PARSER_WAITING_MS = 10;

/**
 * Builds the capture's helpers (warmUp.ts) while the renderer would sit idle: as soon as the parser waits on
 * a script or style sheet still on its way, or when `now()` is called (the page is parsed but the snapshot
 * must wait). Once per load: the ~60 ms it takes is then not spent by the capture.
 */
export function warmUpWhileWaiting(page: Page, traffic: Traffic): WarmUp {
  let warmed = false;
  let watching = true;
  const now = () => {
    if (warmed) return;
    warmed = true;
    warmCapture(page.mainFrame());
  };
  void (async () => {
    while (watching && !warmed) {
      if (traffic.documentArrived() && traffic.networkQuietFor() >= PARSER_WAITING_MS && blocking(traffic).length) now();
      await sleep(5);
    }
  })();
  return { now, stop: () => (watching = false) };
}
