/**
 * Opening an address in a tab: the document is waited for within the call's deadline, then the page by the
 * load policy (settle.ts). A document that does not come in time is a `timeout`, and its load is stopped so the
 * tab answers the next call at once. When the page being left navigates by itself meanwhile (a redirect or
 * reload timer), Chromium lets its navigation replace ours: ours is then made again, once.
 */
import type { Page, Request, Response } from 'playwright-core';
import type { SettlePolicy } from '../config.js';
import { BrowserToolError, toBrowserToolError } from '../errors.js';
import { stage } from '../stages.js';
import { sleep, type Deadline } from '../deadline.js';
import { settle, type EarlySnapshot, type Settled } from './settle.js';
import type { InstanceAge } from './browsingInstance.js';
import type { Traffic } from './traffic.js';
import { isMainFrame } from '../snapshot/navigating.js';
import { HUNG_ANSWER_MS, rendererAnswers, stopLoading } from './unstick.js';

export type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle' | 'commit';

export interface Loaded<T = never> extends Settled<T> {
  response: Response | null;
}

/** What opening an address needs: the call's deadline, the load policy, and optionally Playwright's strict waiting. */
export interface LoadOptions<T = never> {
  deadline: Deadline;
  /** The settle policy of the toolset's config. */
  settle: SettlePolicy;
  /** Wait strictly for this event instead of the load policy. */
  waitUntil?: WaitUntil;
  /** The snapshot to take while the page settles (settle.ts). */
  early?: EarlySnapshot<T>;
}

/** The parts of a tab loading a page uses. */
export interface LoadingPage {
  readonly page: Page;
  readonly traffic: Traffic;
  readonly instanceAge: InstanceAge;
}

/**
 * Opens `url` in the tab: waits for the document to arrive (within the deadline), then for the page to be
 * usable. `waitUntil` asks for Playwright's strict waiting instead. A tab that has shown many pages of the site
 * gets a fresh browsing instance first (browsingInstance.ts).
 */
export async function loadPage<T = never>({ page, traffic, instanceAge }: LoadingPage, url: string, { deadline, settle: policy, waitUntil, early }: LoadOptions<T>): Promise<Loaded<T>> {
  let response: Response | null = null;
  const timeout = deadline.forStep();
  // A navigation an earlier call left pending (a page's own redirect, a document still arriving) would cut this one short.
  // So would the page's requests holding every connection to the server (hanging polls): ours would wait behind them.
  if (traffic.documentPending() || traffic.waits.holdsAllConnections(url)) await stage('load: stop previous', () => stopLoading(page));
  await instanceAge.renewBefore(url, deadline);
  // A new tab's first load: what Chromium says of its requests is heard from the start (a round trip, once per tab).
  await traffic.listening();
  for (let attempt = 0; ; attempt++) {
    const own = ownRequest(page, url);
    try {
      const going = page.goto(url, { waitUntil: waitUntil ?? 'commit', timeout: attempt ? deadline.forStep() : timeout });
      response = await stage('load: until commit', () => unlessHung(page, url, going, own, deadline));
      break;
    } catch (error) {
      if (error instanceof TabHung) throw error;
      const mapped = toBrowserToolError(error, 'navigate');
      const replaced = /is interrupted by another navigation|ERR_ABORTED/.test(mapped.message) && !(await own.answered());
      // Ours was never answered: the page being left navigated by itself and took the tab from it.
      if (replaced && attempt === 0) {
        await stage('load: replaced by the page left', () => stopLoading(page));
        continue;
      }
      // Ours was answered, then the new page moved on before its commit was seen (a meta refresh, a script
      // redirect): the load policy below follows it to where it leads.
      if (/is interrupted by another navigation/.test(mapped.message) && !replaced) return { response: null, ...(await settle(page, traffic, deadline, policy, early)) };
      // Other failures are the caller's to tell apart (an error page, a download, an empty answer) and undo.
      if (mapped.code !== 'timeout') throw error;
      await stopLoading(page);
      const kept = await instanceAge.backOverRenewal(deadline);
      const what = waitUntil && waitUntil !== 'commit' ? `did not reach "${waitUntil}"` : 'did not send its page';
      throw new BrowserToolError('timeout', `${url} ${what} within ${Math.round(timeout / 1000)} s; the load was stopped.`, {
        hint:
          waitUntil && waitUntil !== 'commit'
            ? 'Call browser_navigate again without waitUntil: it returns as soon as the page is usable.'
            : `The server is slow or down. Retry once, or try another address. ${kept ? 'The tab still shows the page it showed before.' : 'The tab shows an empty page; browser_history back returns to the page it showed before.'}`,
      });
    } finally {
      own.dispose();
    }
  }
  // A proxy that refused its login (407) sent no page of the site to wait for: the npm-shipped headless shell shows
  // its empty answer to an http address, and never finishes loading it for an https one.
  if (waitUntil || response?.status() === 407) return { response, parsed: true };
  return { response, ...(await settle(page, traffic, deadline, policy, early)) };
}

/**
 * The page being left keeps the tab's renderer busy (a script that never ends): a new page of the same site is
 * shown by that renderer, so it cannot arrive in this tab. The caller opens it in a new tab.
 */
export class TabHung extends BrowserToolError {
  constructor(url: string) {
    super('timeout', `The tab did not respond: the page it showed keeps it busy (a script that does not end), so ${url} could not be opened in it.`, {
      hint: 'Call again: a tab that does not respond is replaced by a new one, with cookies and logins kept.',
    });
  }
}

/** How long a navigation waits for its page before asking whether the tab still answers at all. */
const HUNG_CHECK_MS = 2_000;

/**
 * `going` (the navigation), unless its server has answered, the page has still not arrived a while later, and
 * the tab does not answer a trivial script either. Before the answer the tab's silence says nothing: while
 * Chromium awaits a document for it, a tab answers no script at all.
 */
async function unlessHung(page: Page, url: string, going: Promise<Response | null>, own: OwnRequest, deadline: Deadline): Promise<Response | null> {
  let arrived = false;
  going.then(
    () => (arrived = true),
    () => (arrived = true),
  );
  const check = async () => {
    while (!arrived && !own.hasPage()) await sleep(100);
    await sleep(Math.min(HUNG_CHECK_MS, deadline.forStep() / 3));
    if (arrived || (await rendererAnswers(page, Math.min(HUNG_ANSWER_MS, deadline.forStep() / 3))) || arrived) return going;
    throw new TabHung(url);
  };
  return Promise.race([going, check()]);
}

interface OwnRequest {
  /** True once it has any answer (a redirect counts). */
  answered(): Promise<boolean>;
  /** True once its server sent the page itself: an answer that is not a redirect. */
  hasPage(): boolean;
  dispose(): void;
}

/** The main frame's request for `url` (the fragment aside), once made. */
function ownRequest(page: Page, url: string): OwnRequest {
  const wanted = url.split('#')[0];
  let own: Request | undefined;
  let hasPage = false;
  const onRequest = (request: Request) => {
    if (!own && request.isNavigationRequest() && request.url().split('#')[0] === wanted && isMainFrame(page, request)) own = request;
  };
  const onResponse = (response: Response) => {
    const status = response.status();
    if (own && response.request().isNavigationRequest() && isMainFrame(page, response.request()) && (status < 300 || status >= 400)) hasPage = true;
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  return {
    answered: async () => {
      if (!own) return false;
      let last: Request = own;
      for (let next = last.redirectedTo(); next; next = next.redirectedTo()) last = next;
      return own !== last || (await last.response().catch(() => null)) !== null;
    },
    hasPage: () => hasPage,
    dispose: () => {
      page.off('request', onRequest);
      page.off('response', onResponse);
    },
  };
}
