/**
 * What opening an address came to, decided once for every caller (navigate, history, tabs, a resumed session,
 * the provider): the page, a file downloaded instead, an empty answer (204), a network error or the allowlist on
 * the way, a dialog that froze the page, a server that sent nothing in time, or a tab whose renderer is hung.
 * Each is returned as data, with the tab put back on the page it showed where it can be; the callers turn them
 * into results and messages.
 */
import type { Response } from 'playwright-core';
import type { Deadline } from '../deadline.js';
import { moveInHistory } from './historyMoves.js';
import type { Settled } from './settled.js';
import type { LoadingTab } from './tabLoading.js';
import { stopLoading } from './tabControl.js';

/**
 * How long a download is looked for after the navigation it came from failed: Chromium aborts the navigation
 * first, and the download's event follows at once on an idle machine, after more than a second on a busy one.
 */
export const DOWNLOAD_EVENT_WAIT_MS = 3_000;

export interface Loaded<T = never> extends Settled<T> {
  response: Response | null;
}

export type Opened<T> =
  /** The page arrived (its status may still be an error, in `loaded.response`). */
  | { kind: 'page'; loaded: Loaded<T> }
  /** The page opened a dialog while loading: it is frozen until the dialog is answered. */
  | { kind: 'dialog' }
  /** The address served a file, whose download began: the tab's owner saves it; the tab shows the page it showed. */
  | { kind: 'download' }
  /** The address served a file, and its download did not begin. */
  | { kind: 'downloadNotBegun' }
  /** The address answered 204 No Content; the tab shows the page it showed. */
  | { kind: 'noContent' }
  /** A network error; `back`: the tab shows the page it showed before again (else Chromium's error page). */
  | { kind: 'failed'; error: unknown; back: boolean }
  /**
   * An error status with no page: an empty 4xx or 5xx answer, or the browser's proxy refusing its login (407).
   * `back` as for `failed`.
   */
  | { kind: 'errorStatus'; status: number; statusText: string; back: boolean }
  /** The allowlist refused where the address led (a redirect, the page's own redirect, a frame). */
  | { kind: 'blocked'; blocked: string[]; back: boolean }
  /**
   * The server sent no page (or, with `waitUntil`, the page did not reach it) within `seconds`; the load was
   * stopped. `back`: the tab shows the page it showed before (else an empty page).
   */
  | { kind: 'timeout'; seconds: number; back: boolean }
  /** The page the tab showed keeps its renderer busy (a script that does not end): the address cannot be opened in this tab. */
  | { kind: 'hung' };

/** How a load ended, before what it came to is decided (outcome.ts). */
export type LoadEnd<T> = { kind: 'page'; loaded: Loaded<T> } | { kind: 'failed'; error: unknown } | { kind: 'timeout'; seconds: number; back: boolean } | { kind: 'hung' };

/** The address asked for, where the tab was when the load began, and the call's deadline. */
interface Before {
  address: string;
  url: string;
  /** Date.now() when the load began. */
  at: number;
  deadline: Deadline;
}

/** What the load that ended as `end` came to. */
export async function outcomeOf<T>(tab: LoadingTab, end: LoadEnd<T>, before: Before): Promise<Opened<T>> {
  if (end.kind === 'failed') return afterFailure(tab, end.error, before);
  // Not reported: the load itself failed, and says so.
  if (end.kind === 'hung' || end.kind === 'timeout') tab.loading.takeRefused();
  // The proxy refused its login: no page of the site came, whatever Chromium shows of the refusal (open.ts).
  const refusal = end.kind === 'page' ? end.loaded.response : null;
  if (refusal?.status() === 407) return { kind: 'errorStatus', status: 407, statusText: refusal.statusText(), back: await backFromRefusal(tab, before) };
  // The page redirected itself (meta refresh, script) to a host the allowlist refused. Going back would land
  // on the redirecting page, which would redirect again: the tab stays on the error page.
  if (end.kind === 'page' && tab.page.url().startsWith('chrome-error:')) {
    const blocked = tab.loading.takeRefused();
    if (blocked.length) return { kind: 'blocked', blocked, back: false };
  }
  return end;
}

/** A load that failed: a download, an empty answer, a network error or the allowlist, each with the tab put back where it can be. */
async function afterFailure(tab: LoadingTab, error: unknown, before: Before): Promise<Opened<never>> {
  const { deadline } = before;
  const blocked = tab.loading.takeRefused();
  const message = error instanceof Error ? error.message : String(error);
  const download = /Download is starting/.test(message);
  const noContent = !blocked.length && !download && /net::ERR_ABORTED/.test(message) && (await tab.loading.traffic.documentStatus()) === 204;
  if (download || noContent) {
    // A load that brought no page leaves the tab on the page it showed, or on the empty page a renewal of its
    // frame passed through, which is then left.
    await tab.loading.frameWear.backOverRenewal(deadline);
    if (!download) return { kind: 'noContent' };
    return (await tab.loading.downloadBegun(before.at, Math.min(DOWNLOAD_EVENT_WAIT_MS, deadline.forStep()))) ? { kind: 'download' } : { kind: 'downloadNotBegun' };
  }
  if (blocked.length || /net::ERR_/.test(message)) {
    // An error status with an empty body (a proxy's 407, a bare 404 or 503) fails the load in Chrome and Chromium
    // (ERR_HTTP_RESPONSE_CODE_FAILURE, then their own error page) and is an empty page in the npm-shipped
    // headless shell: the status says what happened, whichever the browser.
    const answer = blocked.length ? undefined : await tab.loading.traffic.documentAnswerFor(before.address);
    const back = await backFromErrorPage(tab, before, error);
    if (blocked.length) return { kind: 'blocked', blocked, back };
    return answer && answer.status >= 400 ? { kind: 'errorStatus', ...answer, back } : { kind: 'failed', error, back };
  }
  throw error;
}

/**
 * Chromium shows its own error page after a failed navigation (a refused connection, a request the allowlist
 * blocked), and loads it after `goto` has already failed. Let it settle, then go back so the agent finds the
 * page it was on. True when the tab shows that page again.
 */
async function backFromErrorPage(tab: LoadingTab, { url: previousUrl, deadline }: Before, error: unknown): Promise<boolean> {
  const page = tab.page;
  // An aborted navigation (an empty answer, a cancelled load) shows no error page: nothing to wait for.
  const aborted = /ERR_ABORTED/.test(error instanceof Error ? error.message : String(error));
  if (!aborted) await page.waitForURL((url) => url.protocol === 'chrome-error:', { waitUntil: 'load', timeout: Math.min(2_000, deadline.forStep()) }).catch(() => {});
  if (page.url().startsWith('chrome-error:') && previousUrl && previousUrl !== 'about:blank') {
    await moveInHistory(page, 'back', () => ({ waitUntil: 'commit', timeout: Math.min(5_000, deadline.forStep()) })).catch(() => {});
  }
  await tab.loading.frameWear.backOverRenewal(deadline);
  return page.url() === previousUrl;
}

/**
 * The npm-shipped headless shell commits a proxy's refusal as the tab's document (for an https address, one
 * that never finishes loading, where no script of ours can run): the load is stopped and the tab taken back to
 * the page it showed, or to its empty page. True when it shows the page it showed.
 */
async function backFromRefusal(tab: LoadingTab, { url: previousUrl, deadline }: Before): Promise<boolean> {
  const page = tab.page;
  await stopLoading(page);
  if (page.url() !== previousUrl) await moveInHistory(page, 'back', () => ({ waitUntil: 'commit', timeout: Math.min(5_000, deadline.forStep()) })).catch(() => {});
  await tab.loading.frameWear.backOverRenewal(deadline);
  return page.url() === previousUrl;
}
