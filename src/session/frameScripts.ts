/**
 * A script that a frame inside the page loads, that holds the frame's parser, and that never answers. Everything
 * the frame's markup has after it is never parsed: an embedded form, comment box or payment field shows its top and
 * nothing else, in this snapshot and every later one, for as long as the tab lives. The main document's such
 * script is refused by loading the page again (building.ts); a frame's is watched for here, for the tab's whole
 * life (a frame the page adds later too): once a script of the frame has gone unanswered for the settle cap while
 * the frame's document has arrived and is still being parsed, the frame alone is loaded again with its scripts
 * that are that late refused (CDP Network.setBlockedURLs), as an ad blocker would, and what follows them is
 * parsed. A slow server's script (an answer within the cap) is waited for. Only a frame whose document came by
 * GET from an http(s) address is loaded again (a form's answer or a `srcdoc` cannot be), and at most twice.
 */
import type { CDPSession, Frame, Page, Request } from 'playwright-core';
import { sleep } from './deadline.js';
import type { Traffic } from './traffic.js';

/** Loads of one frame with its late scripts refused: a second for a stuck script the first load had not reached. */
const MAX_RELOADS = 2;
/** How long a frame may take to say whether it is still being parsed. */
const ANSWER_MS = 3_000;
/** How long a reloaded frame's refusal holds at most, if the frame is never parsed. */
const REFUSAL_MS = 30_000;

/** Watches `page`'s frames, for as long as it lives, for a parser held by a script unanswered (by `traffic`) after `capMs`. */
export function reloadFramesHeldByScripts(page: Page, traffic: Traffic, capMs: number): void {
  /** Each frame's latest document request, the script URLs refused for it so far, and how often it was loaded again. */
  const documents = new WeakMap<Frame, Request>();
  const refused = new WeakMap<Frame, Set<string>>();
  const reloads = new WeakMap<Frame, number>();
  const checking = new WeakSet<Frame>();

  const unhold = async (frame: Frame, script: Request) => {
    const pending = () => traffic.pendingRequests();
    const answered = documents.get(frame);
    if (checking.has(frame) || frame.isDetached() || !pending().includes(script) || (reloads.get(frame) ?? 0) >= MAX_RELOADS) return;
    if (!answered || answered.method() !== 'GET' || !/^https?:/i.test(frame.url()) || pending().includes(answered)) return;
    checking.add(frame);
    try {
      // A frame that is parsed is not held: its late script was `async`, or added by script, and holds nothing back.
      const asked = frame.evaluate(() => document.readyState === 'loading').catch(() => false);
      const parsing = await Promise.race([asked, sleep(ANSWER_MS).then(() => false)]); // a hung frame is left as it is
      if (!parsing || !pending().includes(script)) return;
      const late = pending().filter((request) => frameOf(request) === frame && request.resourceType() === 'script' && traffic.waits.pendingFor(request) >= capMs);
      const urls = refused.get(frame) ?? new Set<string>();
      for (const request of late) urls.add(request.url());
      refused.set(frame, urls);
      reloads.set(frame, (reloads.get(frame) ?? 0) + 1);
      void loadAgainRefusing(page, frame, [...urls]);
    } finally {
      checking.delete(frame);
    }
  };

  page.on('request', (request) => {
    const frame = frameOf(request);
    if (!frame || frame === page.mainFrame()) return;
    if (request.isNavigationRequest()) documents.set(frame, request);
    else if (request.resourceType() === 'script') setTimeout(() => void unhold(frame, request), capMs).unref?.();
  });
}

/**
 * Loads `frame` again with `urls` refused. The refusal is made on the frame's own CDP session when it runs in a
 * process of its own (a frame of another site), else on the tab's, and holds until the frame is parsed again.
 */
async function loadAgainRefusing(page: Page, frame: Frame, urls: string[]): Promise<void> {
  let cdp: CDPSession | undefined;
  try {
    cdp = await page
      .context()
      .newCDPSession(frame)
      .catch(() => page.context().newCDPSession(page)); // a frame of the tab's own process has no session of its own
    await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
    await cdp.send('Network.setBlockedURLs', { urls });
    await frame.goto(frame.url(), { waitUntil: 'domcontentloaded', timeout: REFUSAL_MS });
  } catch {
    // the frame went away, was loaded again meanwhile, or the tab closed: nothing more to do
  } finally {
    await cdp?.detach().catch(() => {});
  }
}

/** The frame that made `request`; none for a service worker's. */
function frameOf(request: Request): Frame | undefined {
  try {
    return request.frame();
  } catch {
    return undefined;
  }
}
