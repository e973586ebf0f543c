/**
 * A page that navigates while it is read. A capture that began on a document the tab is leaving is given up
 * at once (`leaving`), instead of Playwright waiting seconds for the next document's body; and a page that
 * replaces itself again and again (a meta refresh or reload loop) is held on the document it shows
 * (`holdDocument`), as a person would press Stop, so that it can be read at all: found during a capture
 * (`readThroughNavigations`) or, for a page that never lets itself be parsed, during its load (`holdIfLooping`).
 */
import type { Page, Request, Route } from 'playwright-core';
import { BrowserToolError } from '../errors.js';

/** Marks, in the page, a document held where a loop of its own navigations would have replaced it. */
export const HELD_KEY = 'mastra-browser-toolset.stoppedLoop';

/** Reads that may lose their document to the page's own navigations before it counts as a loop. */
const LOOP_ATTEMPTS = 2;

/** Visits of the main frame to one address, during one load, after which the page counts as a loop. */
const LOOP_VISITS = 3;

/**
 * How many holds a tab has on its document now (`holdDocument`): while one is on, the tab does not leave the
 * document it shows. One per tab, kept with the tab by its owner and handed to every capture and load of it.
 */
export interface DocumentHolds {
  count: number;
}

/**
 * Runs `read` (a capture) until it is not cut short by a navigation: after each loss, once the new document is
 * parsed or replaced in turn. After three losses the page counts as caught in a loop: it is held
 * (`holdDocument`) for one more read, and its document marked (`HELD_KEY`) so that later reads say so too.
 * `read` is told whether to give up at once when the tab starts loading another document (not while held).
 */
export async function readThroughNavigations<T>(page: Page, holds: DocumentHolds, read: (watchLeaving: boolean) => Promise<T>): Promise<{ value: T; held: boolean }> {
  let release: (() => Promise<void>) | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        // A held tab does not leave its document: the requests that would are refused.
        const value = await read(!release && !holds.count);
        if (release) await markHeld(page);
        return { value, held: !!release };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // "does not match": the document the capture looked for was replaced between two reads.
        if (!/Execution context was destroyed|Cannot find context|navigat|does not match any element/i.test(message)) throw error;
        if (release) {
          throw new BrowserToolError('navigation_failed', 'The page kept loading new documents by itself (a reload or redirect loop), and none could be read.', {
            hint: 'Take browser_snapshot once more, or navigate to another address: the loop may need a cookie or a login that this session lacks.',
          });
        }
        if (attempt === LOOP_ATTEMPTS) release = await holdDocument(page, holds);
        // Until the new document is parsed, or replaced in turn (then the next try comes at once).
        const next = release ? undefined : leaving(page);
        await Promise.race([page.waitForLoadState('domcontentloaded', { timeout: 5_000 }).catch(() => {}), next?.promise.catch(() => {})]);
        next?.dispose();
      }
    }
  } finally {
    await release?.();
  }
}

/** A load watched for a page that keeps loading itself again (`holdIfLooping`). */
export interface Loop {
  /** True once the page counted as a loop and was held. */
  held(): boolean;
  /** Resolves once a load of the held page was refused: a document that asked for it while loading is parsed no further. */
  readonly stopped: Promise<void>;
  /** Resolves once the held page's document is parsed, or stopped by a refusal, or after `ms`. */
  parsedOrStopped(ms: number): Promise<void>;
  /** The tab's next document is loaded by us (the load policy loading the page again): not a visit of the page's. */
  ownLoad(): void;
  /** Stops watching and lets the page navigate again. */
  release(): Promise<void>;
}

/**
 * Watches a load for a page that keeps asking for a document it has already shown: a reload or refresh loop, or
 * two pages sending the tab to each other. On the third visit to one address with one method (the committed
 * document counts as a GET) the tab is held (`holdDocument`) on the document it is loading. A chain of
 * navigations that each lead somewhere new (the hops of a sign-in) is followed to its end.
 */
export function holdIfLooping(page: Page, holds: DocumentHolds): Loop {
  const visits = new Map<string, number>();
  const visit = (method: string, url: string) => {
    const address = `${method} ${url.split('#')[0]}`;
    const count = (visits.get(address) ?? 0) + 1;
    visits.set(address, count);
    return count;
  };
  visit('GET', page.url());
  let holding: Promise<() => Promise<void>> | undefined;
  let onRefused = () => {};
  let ownLoads = 0;
  const stopped = new Promise<void>((resolve) => (onRefused = resolve));
  const onRequest = (request: Request) => {
    // A redirect's next hop is the same visit: a form posted to its own address and sent back there is no loop.
    if (holding || !request.isNavigationRequest() || request.redirectedFrom() || !isMainFrame(page, request)) return;
    if (ownLoads > 0) return void ownLoads--;
    if (visit(request.method(), request.url()) >= LOOP_VISITS) holding = holdDocument(page, holds, onRefused);
  };
  page.on('request', onRequest);
  return {
    held: () => holding !== undefined,
    ownLoad: () => void ownLoads++,
    stopped,
    parsedOrStopped: (ms) => Promise.race([page.waitForLoadState('domcontentloaded', { timeout: ms }).catch(() => {}), stopped]),
    release: async () => {
      page.off('request', onRequest);
      await (await holding)?.();
    },
  };
}

/** Marks the tab's document as held (`HELD_KEY`): its snapshots say the page was stopped to be read. */
export async function markHeld(page: Page): Promise<void> {
  await page.evaluate((key) => ((window as unknown as Record<symbol, unknown>)[Symbol.for(key)] = true), HELD_KEY).catch(() => {});
}

/** Rejects when the tab starts loading another document (a navigation request of its main frame). */
export function leaving(page: Page): { promise: Promise<never>; dispose(): void } {
  let onRequest: (request: Request) => void = () => {};
  const promise = new Promise<never>((_, reject) => {
    onRequest = (request) => {
      if (request.isNavigationRequest() && isMainFrame(page, request)) reject(new Error('The page navigated to another document during the capture.'));
    };
    page.on('request', onRequest);
  });
  promise.catch(() => {});
  return { promise, dispose: () => page.off('request', onRequest) };
}

/**
 * Refuses the tab's next documents until the returned release is called: the page stays on the one it shows.
 * Refused as aborted, which leaves no error page; every other request goes on to the session's own routes.
 * A document that asked to be replaced while it was still loading stops there: Chromium parses it no further
 * and it never reaches DOMContentLoaded. `onRefused` hears of each refusal.
 */
export async function holdDocument(page: Page, holds: DocumentHolds, onRefused?: () => void): Promise<() => Promise<void>> {
  const refuse = (route: Route) => {
    const request = route.request();
    if (!request.isNavigationRequest() || !isMainFrame(page, request)) return route.fallback();
    onRefused?.();
    return route.abort('aborted');
  };
  await page.route('**/*', refuse);
  holds.count++;
  return async () => {
    holds.count--;
    await page.unroute('**/*', refuse).catch(() => {});
  };
}

/** True for a request of the tab's main frame; false for a frame's, or a service worker's (which has no frame). */
export function isMainFrame(page: Page, request: Request): boolean {
  try {
    return request.frame() === page.mainFrame();
  } catch {
    return false; // a service worker's request has no frame
  }
}
