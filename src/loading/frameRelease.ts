/**
 * A frame inside the page held by a request that never answers, and what is done about it. An embedded form,
 * comment box, newsletter or payment widget is such a frame, and with a few percent of requests stuck it is not
 * rare. Two kinds of request hold a frame:
 * - a style sheet: Chromium paints nothing in the frame until it arrives (and runs no script the markup puts
 *   after it), so nothing in the frame can be clicked, typed into or seen in a screenshot, while its snapshot
 *   still reads as if it could. Its `<link>` is taken out of the frame's document, and the frame renders without
 *   it. One pulled in by `@import`, which no `<link>` names, is refused instead, as below, when the
 *   frame still does not paint (89).
 * - a script the frame's parser waits on: everything the frame's markup has after it is never parsed, in this
 *   snapshot and every later one. The frame alone is loaded again with it refused (87); an `async` or inserted
 *   script holds nothing back (the frame is parsed), and its frame is left alone.
 * The main document's are dealt with by the load policy while the page settles (settle.ts, untilBuilt.ts); a
 * frame's are watched for here, for the tab's whole life (a frame the page adds later too), once a request has
 * gone the settle cap without its whole answer. A slow server's (an answer within the cap) is waited for. A frame
 * is loaded again only when its document came by GET from an http(s) address or from its element's `srcdoc` (a
 * form's answer, or what a script wrote into a frame, cannot be), when none of its fields holds what was typed or
 * chosen in it (that would be lost), and at most twice: the second time for a request the first load had not
 * reached, or for another form of a refused address that the frame loaded again asks for (refusals.ts).
 */
import type { CDPSession, Frame, Page, Request } from 'playwright-core';
import { within } from '../within.js';
import { RefusedAddresses } from './refusals.js';
import type { Traffic } from './traffic.js';
import { removeSheetLinks } from './sheetLinks.js';

/** Loads of one frame with its late requests refused: a second for a stuck one the first had not reached, or a new form of one. */
const MAX_RELOADS = 2;
/** How long a frame may take to tell whether it is still parsed, or to paint. */
const ANSWER_MS = 3_000;
/** When a new form of a refused address (refusals.ts) is looked at, rather than at the cap. */
const REISSUED_MS = 500;
/** How long a reloaded frame's refusal holds at most, if the frame is never parsed. */
const REFUSAL_MS = 30_000;

/** Frames a style sheet keeps from showing that are left so on purpose, and why (for the action that waits on one). */
const leftHeld = new WeakMap<Frame, string>();

/** Why `frame`, which a style sheet keeps from showing, is left so rather than loaded again; undefined when it is not. */
export function leftHeldBecause(frame: Frame): string | undefined {
  return leftHeld.get(frame);
}

/** Watches `page`'s frames, for as long as it lives, for style sheets and scripts unanswered (by `traffic`) after `capMs`. */
export function releaseHeldFrames(page: Page, traffic: Traffic, capMs: number): void {
  /** Each frame's latest document request, the addresses refused for it so far, and how often it was loaded again. */
  const documents = new WeakMap<Frame, Request>();
  const refused = new WeakMap<Frame, RefusedAddresses>();
  const reloads = new WeakMap<Frame, number>();
  const checking = new WeakSet<Frame>();
  const pending = (request: Request) => traffic.pendingRequests().includes(request);

  /**
   * Why `frame` may not be loaded again ('' while its document is still arriving); undefined when it may: its
   * document came by GET from an http(s) address, or from its element's `srcdoc`, and it was not loaded too often.
   */
  const notReloadable = (frame: Frame): string | undefined => {
    if ((reloads.get(frame) ?? 0) >= MAX_RELOADS) return 'it was loaded again twice already';
    if (isSrcdoc(frame)) return undefined;
    const answered = documents.get(frame);
    if (!answered || answered.method() !== 'GET' || !/^https?:/i.test(frame.url())) return "its page cannot be asked for again (a form's answer, or written by a script)";
    return pending(answered) ? '' : undefined;
  };

  const unhold = async (frame: Frame, request: Request) => {
    if (frame.isDetached() || !pending(request)) return;
    const kind = request.resourceType();
    // A `<link>` taken out ends the hold at once, without loading the frame again.
    if (kind === 'stylesheet' && (await removeSheetLinks(frame, [request]))) return;
    if (checking.has(frame)) return;
    const why = notReloadable(frame);
    if (why !== undefined) {
      if (kind === 'stylesheet' && why) leftHeld.set(frame, why);
      return;
    }
    checking.add(frame);
    try {
      // Held: a sheet while the frame paints nothing; a script while the frame's parser has not reached its end.
      if (!(await answerWithin(kind === 'script' ? frame.evaluate(() => document.readyState === 'loading') : paintsNot(frame)))) return;
      // What was typed or chosen in the frame's fields would be lost by loading it again: it is left held.
      if (!pending(request)) return;
      if (await answerWithin(frame.evaluate(hasEdits), true)) {
        if (kind === 'stylesheet') leftHeld.set(frame, 'what was typed or chosen in it would be lost by loading it again');
        return;
      }
      const addresses = refused.get(frame) ?? new RefusedAddresses();
      const late = traffic.pendingRequests().filter((other) => frameOf(other) === frame && other.resourceType() === kind && (traffic.waits.pendingFor(other) >= capMs || addresses.reissued(other.url())));
      addresses.refuse(late.map((other) => other.url()));
      refused.set(frame, addresses);
      reloads.set(frame, (reloads.get(frame) ?? 0) + 1);
      void loadAgainRefusing(page, frame, addresses.patterns());
    } finally {
      checking.delete(frame);
    }
  };

  page.on('request', (request) => {
    const frame = frameOf(request);
    if (!frame || frame === page.mainFrame()) return;
    if (request.isNavigationRequest()) {
      leftHeld.delete(frame);
      return void documents.set(frame, request);
    }
    refused.get(frame)?.noteAsked(request.url());
    if (request.resourceType() === 'script' || request.resourceType() === 'stylesheet') {
      setTimeout(() => void unhold(frame, request), capMs).unref?.();
      // A refused address the frame asks for again with a new query (a cache-busting one) is looked at soon too,
      // when the frame's document is usually counted as ended: a frame still loading its document is not loaded
      // again, and then the look at the cap frees it.
      if (refused.get(frame)?.reissued(request.url())) setTimeout(() => void unhold(frame, request), REISSUED_MS).unref?.();
    }
  });
}

/**
 * True when `frame` waits on a style sheet of its own that has not come and paints nothing meanwhile: an action on
 * an element in it would wait for the frame to render, and be cut short when the frame is loaded again without the
 * sheet at the cap. The action waits for the frame to be released first (frameWait.ts). Costs an animation
 * frame, or a second when the frame is held, and only while such a sheet is on its way.
 */
export async function heldBySheet(frame: Frame, traffic: Traffic): Promise<boolean> {
  if (frame.isDetached() || !sheetOnItsWay(traffic, (from) => from === frame)) return false;
  return answerWithin(paintsNot(frame));
}

/** True when a frame of `page` other than its main one has a style sheet on its way: the one case `heldBySheet` looks into. */
export function sheetsOnTheirWayInFrames(page: Page, traffic: Traffic): boolean {
  return sheetOnItsWay(traffic, (from) => from !== page.mainFrame());
}

/** True when a style sheet asked for by a frame `where` accepts is still on its way. */
function sheetOnItsWay(traffic: Traffic, where: (frame: Frame | undefined) => boolean): boolean {
  return traffic.pendingRequests().some((request) => request.resourceType() === 'stylesheet' && where(frameOf(request)));
}

/** True when `frame` runs no animation frame within a second: its rendering is held back. */
function paintsNot(frame: Frame): Promise<boolean> {
  const painted = frame.evaluate(() => new Promise<boolean>((done) => requestAnimationFrame(() => done(true))));
  return within(painted.then(() => false), 1_000).then((held) => held ?? true);
}

/** `answer`, or `otherwise` when it fails or does not come within `ANSWER_MS` (a hung frame is left as it is). */
async function answerWithin(answer: Promise<boolean>, otherwise = false): Promise<boolean> {
  return (await within(answer.catch(() => otherwise), ANSWER_MS)) ?? otherwise;
}

/**
 * Runs in the frame: true when a form field holds something other than what its markup says (typed, chosen,
 * ticked). Self-contained: it is sent as source text.
 */
function hasEdits(): boolean {
  for (const field of document.querySelectorAll('input, textarea, select')) {
    if (field instanceof HTMLInputElement) {
      const ticks = field.type === 'checkbox' || field.type === 'radio';
      if (ticks ? field.checked !== field.defaultChecked : field.value !== field.defaultValue) return true;
    } else if (field instanceof HTMLTextAreaElement) {
      if (field.value !== field.defaultValue) return true;
    } else if (field instanceof HTMLSelectElement) {
      const chosen = [...field.options].findIndex((option) => option.defaultSelected);
      if (field.selectedIndex !== (chosen === -1 ? (field.multiple ? -1 : 0) : chosen)) return true;
    }
  }
  return false;
}

/**
 * Loads `frame` again with the addresses `patterns` match refused (CDP Network.setBlockedURLs). The refusal is made
 * on the frame's own CDP session when it runs in a process of its own (a frame of another site), else on the tab's,
 * and holds until the frame is parsed again.
 */
async function loadAgainRefusing(page: Page, frame: Frame, patterns: string[]): Promise<void> {
  let cdp: CDPSession | undefined;
  try {
    cdp = await page
      .context()
      .newCDPSession(frame)
      .catch(() => page.context().newCDPSession(page)); // a frame of the tab's own process has no session of its own
    await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
    await cdp.send('Network.setBlockedURLs', { urls: patterns });
    if (isSrcdoc(frame)) await loadSrcdocAgain(page, frame);
    else await frame.goto(frame.url(), { waitUntil: 'domcontentloaded', timeout: REFUSAL_MS });
  } catch {
    // the frame went away, was loaded again meanwhile, or the tab closed: nothing more to do
  } finally {
    await cdp?.detach().catch(() => {});
  }
}

function isSrcdoc(frame: Frame): boolean {
  return frame.url() === 'about:srcdoc';
}

/** Loads a `srcdoc` frame again from the markup on its element, and waits until it is parsed. */
async function loadSrcdocAgain(page: Page, frame: Frame): Promise<void> {
  const element = await frame.frameElement();
  const navigated = page.waitForEvent('framenavigated', { predicate: (navigating) => navigating === frame, timeout: REFUSAL_MS });
  // Setting the attribute, even to the markup it has, loads the frame from it again.
  await element.evaluate((iframe) => (iframe as Element).setAttribute('srcdoc', (iframe as Element).getAttribute('srcdoc') ?? ''));
  await navigated;
  await parsedWithin(frame, REFUSAL_MS);
}

/** Resolves once the document `frame` shows now is parsed (an evaluate waits for it to be there), or after `ms`. */
export async function parsedWithin(frame: Frame, ms: number): Promise<void> {
  const parsed = frame.evaluate(
    () =>
      new Promise<void>((done) => {
        if (document.readyState !== 'loading') done();
        else document.addEventListener('DOMContentLoaded', () => done(), { once: true });
      }),
  );
  await within(parsed.catch(() => {}), ms);
}

/** The frame that made `request`; none for a service worker's. */
function frameOf(request: Request): Frame | undefined {
  try {
    return request.frame();
  } catch {
    return undefined;
  }
}
