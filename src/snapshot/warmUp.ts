/**
 * Warm-up: Playwright builds its in-page helper (selector engines, the aria snapshot) once per document and
 * frame, in a script world of its own. That is tens of milliseconds of script compilation each, which the first
 * capture of a document would otherwise wait for, once for the page and once more for every iframe it
 * descends into (an ad, a video player, an embedded form). Building the helpers as soon as each document is
 * parsed overlaps that work with the rest of the page's loading, and the capture then finds them ready.
 *
 * Only documents a default snapshot would capture are warmed: the tab's own, and frames on or near the screen
 * (the same band region.ts captures). Frames elsewhere on the page are left to the snapshot that reaches them.
 * Nor while one of our calls runs: its own capture follows the document at once (navigate, an action that
 * navigates), and a warm-up racing it only adds work (navigate is slower with it on small pages).
 * What is left is a document that arrives between calls: a redirect by script or meta refresh, a navigation
 * that commits after its click returned, a page the agent comes back to later. (During a call, the load policy
 * builds them while the page waits on the network, when the renderer is idle anyway: loading/settle.ts.)
 * Before the document is parsed its worlds are not always in place, and the work could land in the outgoing
 * document instead.
 */
import type { Frame, Page } from 'playwright-core';
import { frameInView } from './frameInView.js';

/** How long a frame may take to parse before its warm-up is dropped. */
const FRAME_PARSE_WAIT_MS = 10_000;

/**
 * Builds the helpers of every document of this tab, and of its frames in view, once each is parsed, unless
 * `busy()` says a call is running (its capture comes next).
 */
export function warmUpCaptures(page: Page, busy: () => boolean): void {
  page.on('domcontentloaded', () => {
    if (!busy()) warmCapture(page.mainFrame());
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() || busy()) return;
    void frame
      .waitForLoadState('domcontentloaded', { timeout: FRAME_PARSE_WAIT_MS })
      .then(async () => (!busy() && (await frameInView(page, frame)) ? warmCapture(frame) : undefined))
      .catch(() => {}); // detached or navigated away: nothing to warm
  });
}

/** Builds the capture's helpers in `frame`'s current document, in the background. */
export function warmCapture(frame: Frame): void {
  // Both are no-ops in the page: the first builds the helper world, the second the page world's evaluator.
  // A navigation that replaces the document first makes them fail, harmlessly.
  void frame.locator(':root').count().catch(() => {});
  void frame.evaluate('0').catch(() => {});
}
