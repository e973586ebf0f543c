/**
 * Opening an address in a tab: the document is waited for within the call's deadline, then the page by the
 * load policy (loading.ts). A document that does not come in time is a `timeout`, and its load is stopped so the
 * tab answers the next call at once. When the page being left navigates by itself meanwhile (a redirect or
 * reload timer), Chromium lets its navigation replace ours: ours is then made again, once.
 */
import type { Page, Request, Response } from 'playwright-core';
import type { ResolvedConfig } from '../config.js';
import { BrowserToolError, toBrowserToolError } from '../errors.js';
import { stage } from '../stages.js';
import type { Deadline } from './deadline.js';
import { settle, type EarlySnapshot, type Settled } from './loading.js';
import { isMainFrame } from '../snapshot/navigating.js';
import type { Traffic } from './traffic.js';
import { stopLoading } from './unstick.js';

export type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle' | 'commit';

export interface Loaded<T = never> extends Settled<T> {
  response: Response | null;
}

/**
 * Opens `url` in the tab: waits for the document to arrive (within the deadline), then for the page to be
 * usable. `waitUntil` asks for Playwright's strict waiting instead.
 */
export async function loadPage<T = never>(
  page: Page,
  url: string,
  traffic: Traffic,
  deadline: Deadline,
  config: Pick<ResolvedConfig, 'settle'>,
  waitUntil?: WaitUntil,
  early?: EarlySnapshot<T>,
): Promise<Loaded<T>> {
  let response: Response | null = null;
  const timeout = deadline.forStep();
  // A navigation an earlier call left pending (a page's own redirect, a document still arriving) would cut this one short.
  // So would the page's requests holding every connection to the server (hanging polls): ours would wait behind them.
  if (traffic.documentPending() || traffic.holdsAllConnections(url)) await stage('load: stop previous', () => stopLoading(page));
  for (let attempt = 0; ; attempt++) {
    const own = ownRequest(page, url);
    try {
      response = await stage('load: until commit', () => page.goto(url, { waitUntil: waitUntil ?? 'commit', timeout: attempt ? deadline.forStep() : timeout }));
      break;
    } catch (error) {
      const mapped = toBrowserToolError(error, 'navigate');
      const replaced = /is interrupted by another navigation|ERR_ABORTED/.test(mapped.message) && !(await own.answered());
      // Ours was never answered: the page being left navigated by itself and took the tab from it.
      if (replaced && attempt === 0) {
        await stage('load: replaced by the page left', () => stopLoading(page));
        continue;
      }
      // Ours was answered, then the new page moved on before its commit was seen (a meta refresh, a script
      // redirect): the load policy below follows it to where it leads.
      if (/is interrupted by another navigation/.test(mapped.message) && !replaced) return { response: null, ...(await settle(page, traffic, deadline, config.settle, early)) };
      if (mapped.code !== 'timeout') throw error;
      await stopLoading(page);
      const what = waitUntil && waitUntil !== 'commit' ? `did not reach "${waitUntil}"` : 'did not send its page';
      throw new BrowserToolError('timeout', `${url} ${what} within ${Math.round(timeout / 1000)} s; the load was stopped.`, {
        hint:
          waitUntil && waitUntil !== 'commit'
            ? 'Call browser_navigate again without waitUntil: it returns as soon as the page is usable.'
            : 'The server is slow or down. Retry once, or try another address. The tab still shows the page it showed before.',
      });
    } finally {
      own.dispose();
    }
  }
  if (waitUntil) return { response, parsed: true };
  return { response, ...(await settle(page, traffic, deadline, config.settle, early)) };
}

/** The main frame's request for `url` (the fragment aside), once made: `answered` once it has any answer (a redirect counts). */
function ownRequest(page: Page, url: string): { answered(): Promise<boolean>; dispose(): void } {
  const wanted = url.split('#')[0];
  let own: Request | undefined;
  const onRequest = (request: Request) => {
    if (!own && request.isNavigationRequest() && request.url().split('#')[0] === wanted && isMainFrame(page, request)) own = request;
  };
  page.on('request', onRequest);
  return {
    answered: async () => {
      if (!own) return false;
      let last: Request = own;
      for (let next = last.redirectedTo(); next; next = next.redirectedTo()) last = next;
      return own !== last || (await last.response().catch(() => null)) !== null;
    },
    dispose: () => page.off('request', onRequest),
  };
}
