/**
 * Opening an address in a tab, the one way every caller loads a page (navigate, a new tab with an address, a
 * resumed session, the provider, emptying the last tab): its document until it arrives (arrive.ts), then the page
 * until it is usable (settle.ts). What it came to is decided here once and returned as data: the page, a file
 * downloaded instead, an empty answer (204), a network error or the allowlist on the way, a dialog that froze
 * the page, a server that sent nothing in time, or a tab whose renderer is hung. The tab is put back on the page it
 * showed where it can be; the callers turn each outcome into a result or a message.
 */
import type { Response } from 'playwright-core';
import type { SettlePolicy } from '../config.js';
import { DeadlineExceeded, type Deadline } from '../deadline.js';
import { untilArrived, type WaitUntil } from './arrive.js';
import { moveInHistory } from './historyMoves.js';
import { settle, type EarlySnapshot, type Settled } from './settle.js';
import type { OpeningTab } from './tabLoading.js';

/**
 * How long a download is looked for after the navigation it came from failed: Chromium aborts the navigation
 * first, and the download's event follows at once on an idle machine, after more than a second on a busy one.
 */
export const DOWNLOAD_EVENT_WAIT_MS = 3_000;

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

export type Opened<T, D> =
  /** The page arrived (its status may still be an error, in `loaded.response`). */
  | { kind: 'page'; loaded: Loaded<T> }
  /** The page opened a dialog while loading: it is frozen until the dialog is answered. */
  | { kind: 'dialog' }
  /** The address served a file: saved in the downloads folder; the tab shows the page it showed. */
  | { kind: 'download'; downloads: D[] }
  /** The address served a file, and its download did not begin. */
  | { kind: 'downloadNotBegun' }
  /** The address served a file, still being saved when the call's time ran out. */
  | { kind: 'downloadUnfinished' }
  /** The address answered 204 No Content; the tab shows the page it showed. */
  | { kind: 'noContent' }
  /** A network error; `back`: the tab shows the page it showed before again (else Chromium's error page). */
  | { kind: 'failed'; error: unknown; back: boolean }
  /** The allowlist refused where the address led (a redirect, the page's own redirect, a frame). */
  | { kind: 'blocked'; blocked: string[]; back: boolean }
  /**
   * The server sent no page (or, with `waitUntil`, the page did not reach it) within `seconds`; the load was
   * stopped. `back`: the tab shows the page it showed before (else an empty page).
   */
  | { kind: 'timeout'; seconds: number; back: boolean }
  /** The page the tab showed keeps its renderer busy (a script that does not end): the address cannot be opened in this tab. */
  | { kind: 'hung' };

/** Opens `url` in `tab` and says what came of it (see `Opened`). */
export async function openAddress<T, D>(tab: OpeningTab<D>, url: string, options: LoadOptions<T>): Promise<Opened<T, D>> {
  const { page } = tab;
  const previousUrl = page.url();
  // A page that opens confirm() while loading cannot finish loading until it is answered.
  const outcome = await tab.unlessDialogOpens(loadPage(tab, url, options));
  if (outcome.dialog) return { kind: 'dialog' };
  const opened = outcome.value;
  if (opened.kind === 'failed') return afterFailure(tab, opened.error, previousUrl, options.deadline);
  if (opened.kind === 'hung' || opened.kind === 'timeout') tab.takeBlocked(); // not reported: the load itself failed
  // The page redirected itself (meta refresh, script) to a host the allowlist refused. Going back would land
  // on the redirecting page, which would redirect again: the tab stays on the error page.
  if (opened.kind === 'page' && page.url().startsWith('chrome-error:')) {
    const blocked = tab.takeBlocked();
    if (blocked.length) return { kind: 'blocked', blocked, back: false };
  }
  return opened;
}

/** The document until it arrives, then the page until it is usable (unless `waitUntil` asks for Playwright's waiting). */
async function loadPage<T>(tab: OpeningTab<unknown>, url: string, { deadline, settle: policy, waitUntil, early }: LoadOptions<T>): Promise<{ kind: 'page'; loaded: Loaded<T> } | { kind: 'failed'; error: unknown } | { kind: 'timeout'; seconds: number; back: boolean } | { kind: 'hung' }> {
  const arrival = await untilArrived(tab, url, deadline, waitUntil);
  if (arrival.kind !== 'arrived') return arrival;
  const { response } = arrival;
  if (waitUntil && !arrival.movedOn) return { kind: 'page', loaded: { response, parsed: true } };
  return { kind: 'page', loaded: { response, ...(await settle(tab, deadline, policy, early)) } };
}

/** A load that failed: a download, an empty answer, a network error or the allowlist, each with the tab put back where it can be. */
async function afterFailure<D>(tab: OpeningTab<D>, error: unknown, previousUrl: string, deadline: Deadline): Promise<Opened<never, D>> {
  const blocked = tab.takeBlocked();
  const message = error instanceof Error ? error.message : String(error);
  const download = /Download is starting/.test(message);
  const noContent = !blocked.length && !download && /net::ERR_ABORTED/.test(message) && (await tab.loading.traffic.documentStatus()) === 204;
  if (download || noContent) {
    // A load that brought no page leaves the tab on the page it showed, or on the empty page a renewal of its
    // frame passed through, which is then left.
    await tab.loading.frameWear.backOverRenewal(deadline);
    return download ? savedAsDownload(tab, deadline) : { kind: 'noContent' };
  }
  if (blocked.length || /net::ERR_/.test(message)) {
    const back = await backFromErrorPage(tab, previousUrl, error, deadline);
    return blocked.length ? { kind: 'blocked', blocked, back } : { kind: 'failed', error, back };
  }
  throw error;
}

/** The file the address served, once saved; before the call's own deadline, so that this answer is given. */
async function savedAsDownload<D>(tab: OpeningTab<D>, deadline: Deadline): Promise<Opened<never, D>> {
  if (!(await tab.downloadBegun(Math.min(DOWNLOAD_EVENT_WAIT_MS, deadline.forStep())))) return { kind: 'downloadNotBegun' };
  try {
    return { kind: 'download', downloads: await deadline.race(tab.takeDownloads(), deadline.what, deadline.forStep()) };
  } catch (error) {
    if (!(error instanceof DeadlineExceeded)) throw error;
    return { kind: 'downloadUnfinished' };
  }
}

/**
 * Chromium shows its own error page after a failed navigation (a refused connection, a request the allowlist
 * blocked), and loads it after `goto` has already failed. Let it settle, then go back so the agent finds the
 * page it was on. True when the tab shows that page again.
 */
async function backFromErrorPage(tab: OpeningTab<unknown>, previousUrl: string, error: unknown, deadline: Deadline): Promise<boolean> {
  const { page } = tab;
  // An aborted navigation (an empty answer, a cancelled load) shows no error page: nothing to wait for.
  const aborted = /ERR_ABORTED/.test(error instanceof Error ? error.message : String(error));
  if (!aborted) await page.waitForURL((url) => url.protocol === 'chrome-error:', { waitUntil: 'load', timeout: Math.min(2_000, deadline.forStep()) }).catch(() => {});
  if (page.url().startsWith('chrome-error:') && previousUrl && previousUrl !== 'about:blank') {
    await moveInHistory(page, 'back', () => ({ waitUntil: 'commit', timeout: Math.min(5_000, deadline.forStep()) })).catch(() => {});
  }
  await tab.loading.frameWear.backOverRenewal(deadline);
  return page.url() === previousUrl;
}
