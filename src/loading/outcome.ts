/**
 * What opening an address came to, decided once for every caller (navigate, history, tabs, the provider): the
 * page, a file downloaded instead, an empty answer (204), a network error or the allowlist on the way, a dialog
 * that froze the page, or a tab whose renderer is hung. Each is returned as data, with the tab put back on the
 * page it showed where it can be; the callers turn them into results and messages.
 */
import { DeadlineExceeded, type Deadline } from '../deadline.js';
import { moveInHistory } from './historyMoves.js';
import { loadPage, TabHung, type LoadingPage, type LoadOptions, type Loaded } from './open.js';
import { stopLoading } from './unstick.js';

/**
 * How long a download is looked for after the navigation it came from failed: Chromium aborts the navigation
 * first, and the download's event follows at once on an idle machine, after more than a second on a busy one.
 */
export const DOWNLOAD_EVENT_WAIT_MS = 3_000;

/** What opening an address needs of a tab besides its page and requests: dialogs, downloads, refused requests. */
export interface OpeningTab<D> extends LoadingPage {
  /** Waits for `work` unless a dialog is left open for the agent first (the page is then frozen). */
  unlessDialogOpens<T>(work: Promise<T>): Promise<{ dialog: true } | { dialog: false; value: T }>;
  /** Requests the allowlist refused since the last call. */
  takeBlocked(): string[];
  /** True when a download has begun, or begins within `ms`. */
  downloadBegun(ms: number): Promise<boolean>;
  /** Downloads finished since the last call, once saved. */
  takeDownloads(): Promise<D[]>;
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
  /**
   * An error status with no page: an empty 4xx or 5xx answer, or the browser's proxy refusing its login (407).
   * `back` as for `failed`.
   */
  | { kind: 'errorStatus'; status: number; statusText: string; back: boolean }
  /** The allowlist refused where the address led (a redirect, the page's own redirect, a frame). */
  | { kind: 'blocked'; blocked: string[]; back: boolean }
  /** The page the tab showed keeps its renderer busy: the address cannot be opened in this tab. */
  | { kind: 'hung'; error: TabHung };

/** Opens `url` in `tab` and says what came of it (see `Opened`). A timeout is thrown, with the load stopped. */
export async function openAddress<T, D>(tab: OpeningTab<D>, url: string, options: LoadOptions<T>): Promise<Opened<T, D>> {
  const { page } = tab;
  const { deadline } = options;
  const previousUrl = page.url();
  let loaded: Loaded<T>;
  try {
    // A page that opens confirm() while loading cannot finish loading until it is answered.
    const outcome = await tab.unlessDialogOpens(loadPage(tab, url, options));
    if (outcome.dialog) return { kind: 'dialog' };
    loaded = outcome.value;
  } catch (error) {
    const blocked = tab.takeBlocked();
    if (error instanceof TabHung) return { kind: 'hung', error };
    const message = error instanceof Error ? error.message : String(error);
    const download = /Download is starting/.test(message);
    const noContent = !blocked.length && !download && /net::ERR_ABORTED/.test(message) && (await tab.traffic.documentStatus()) === 204;
    if (download || noContent) {
      // A load that brought no page leaves the tab on the page it showed, or on the empty page a renewal of its
      // browsing instance passed through, which is then left.
      await tab.instanceAge.backOverRenewal(deadline);
      return download ? savedAsDownload(tab, deadline) : { kind: 'noContent' };
    }
    if (blocked.length || /net::ERR_/.test(message)) {
      // An error status with an empty body (a proxy's 407, a bare 404 or 503) fails the load in Chrome and Chromium
      // (ERR_HTTP_RESPONSE_CODE_FAILURE, then their own error page) and is an empty page in the npm-shipped
      // headless shell: the status says what happened, whichever the browser.
      const answer = blocked.length ? undefined : await tab.traffic.documentAnswerFor(url);
      const back = await backFromErrorPage(tab, previousUrl, error, deadline);
      if (blocked.length) return { kind: 'blocked', blocked, back };
      return answer && answer.status >= 400 ? { kind: 'errorStatus', ...answer, back } : { kind: 'failed', error, back };
    }
    throw error;
  }
  // The proxy refused its login: no page of the site came, whatever Chromium shows of the refusal (open.ts).
  if (loaded.response?.status() === 407) return { kind: 'errorStatus', status: 407, statusText: loaded.response.statusText(), back: await backFromRefusal(tab, previousUrl, deadline) };
  // The page redirected itself (meta refresh, script) to a host the allowlist refused. Going back would land
  // on the redirecting page, which would redirect again: the tab stays on the error page.
  if (page.url().startsWith('chrome-error:')) {
    const blocked = tab.takeBlocked();
    if (blocked.length) return { kind: 'blocked', blocked, back: false };
  }
  return { kind: 'page', loaded };
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
async function backFromErrorPage({ page, instanceAge }: LoadingPage, previousUrl: string, error: unknown, deadline: Deadline): Promise<boolean> {
  // An aborted navigation (an empty answer, a cancelled load) shows no error page: nothing to wait for.
  const aborted = /ERR_ABORTED/.test(error instanceof Error ? error.message : String(error));
  if (!aborted) await page.waitForURL((url) => url.protocol === 'chrome-error:', { waitUntil: 'load', timeout: Math.min(2_000, deadline.forStep()) }).catch(() => {});
  if (page.url().startsWith('chrome-error:') && previousUrl && previousUrl !== 'about:blank') {
    await moveInHistory(page, 'back', () => ({ waitUntil: 'commit', timeout: Math.min(5_000, deadline.forStep()) })).catch(() => {});
  }
  await instanceAge.backOverRenewal(deadline);
  return page.url() === previousUrl;
}

/**
 * The npm-shipped headless shell commits a proxy's refusal as the tab's document (for an https address, one
 * that never finishes loading, where no script of ours can run): the load is stopped and the tab taken back to
 * the page it showed, or to its empty page. True when it shows the page it showed.
 */
async function backFromRefusal({ page, instanceAge }: LoadingPage, previousUrl: string, deadline: Deadline): Promise<boolean> {
  await stopLoading(page);
  if (page.url() !== previousUrl) await moveInHistory(page, 'back', () => ({ waitUntil: 'commit', timeout: Math.min(5_000, deadline.forStep()) })).catch(() => {});
  await instanceAge.backOverRenewal(deadline);
  return page.url() === previousUrl;
}
