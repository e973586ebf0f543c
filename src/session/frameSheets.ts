/**
 * A style sheet that a frame inside the page links and that never answers. Chromium paints nothing in that frame
 * until it arrives (and runs no script the markup puts after it), so nothing in the frame can be clicked, typed
 * into or seen in a screenshot, while its snapshot still reads as if it could. An embedded form, a payment field or
 * a comment widget of another site is such a frame. The main document's own sheet is taken out by the load
 * policy while the page settles (loading.ts); a frame's is watched for here, for as long as the tab lives (a frame
 * the page adds later too): once it has gone unanswered for the settle cap, its `<link>` is taken out of the
 * frame's document, as an ad blocker would, and the frame renders without it. A slow server's sheet (an answer
 * within the cap) is waited for, as for the main document.
 */
import type { Page } from 'playwright-core';
import type { Traffic } from './traffic.js';
import { removeSheetLinks } from './unstick.js';

/** Watches `page`'s frames, for as long as it lives, for style sheets still unanswered (by `traffic`) after `capMs`. */
export function dropStuckFrameSheets(page: Page, traffic: Traffic, capMs: number): void {
  page.on('request', (request) => {
    if (request.resourceType() !== 'stylesheet' || request.frame() === page.mainFrame()) return;
    // Its whole answer, a redirect or a failure before then, and the frame is no longer held by this request.
    setTimeout(() => {
      if (traffic.pendingRequests().includes(request)) void removeSheetLinks(request.frame(), [request]);
    }, capMs).unref?.();
  });
}
