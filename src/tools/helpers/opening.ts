/**
 * Opening an address, as the tools that do it say it: the address the model gave made whole and checked, and
 * what came of opening it (loading/outcome.ts) turned into a result or an error a model can act on. Shared by
 * browser_navigate, browser_history and browser_tabs.
 */
import type { ResolvedConfig } from '../../config.js';
import { DeadlineExceeded } from '../../deadline.js';
import { BrowserToolError, toBrowserToolError } from '../../errors.js';
import { openAddress, type WaitUntil } from '../../loading/index.js';
import { isAllowedHost } from '../../session/allowlist.js';
import { alsoHungNotice } from '../../session/tabs.js';
import type { CallContext } from '../defineTool.js';
import { downloadShownPdf, openingOf } from './fileReading.js';
import { noteRead } from './scrollView.js';

const LOCAL_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(:\d+)?(\/|$)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const HOST_WITH_PORT = /^[^/:]+:\d+(\/|$)/;

/**
 * Adds a scheme when the model leaves it out: http for localhost (dev servers rarely speak TLS),
 * https for everything else. Refuses schemes that run code or read local files unless allowed.
 */
export function normalizeUrl(raw: string, config: Pick<ResolvedConfig, 'allowedSchemes' | 'allowedDomains'>): string {
  const input = raw.trim();
  if (!input) throw new BrowserToolError('invalid_input', 'The URL is empty.');
  let candidate = input;
  if (LOCAL_HOST.test(input)) candidate = `http://${input}`;
  else if (!HAS_SCHEME.test(input) || HOST_WITH_PORT.test(input)) candidate = `https://${input.replace(/^\/\//, '')}`;

  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw new BrowserToolError('invalid_input', `"${input.slice(0, 200)}" is not a valid URL.`, {
      hint: 'Pass a full address such as https://example.com/page.',
    });
  }
  const scheme = url.protocol.replace(/:$/, '');
  const allowed = scheme === 'http' || scheme === 'https' || url.href === 'about:blank' || config.allowedSchemes.includes(scheme);
  if (!allowed) {
    throw new BrowserToolError('invalid_input', `Navigation to ${scheme}: URLs is not allowed.`, {
      hint: 'Only http and https pages can be opened. The toolset owner can allow other schemes with the allowedSchemes option.',
    });
  }
  if (config.allowedDomains && (scheme === 'http' || scheme === 'https') && !isAllowedHost(url.hostname, config.allowedDomains)) {
    throw new BrowserToolError('invalid_input', `${url.hostname} is not in the allowed domains (${config.allowedDomains.join(', ')}).`, {
      hint: 'Only the allowed domains can be opened; choose a page on one of them.',
    });
  }
  return url.href;
}

/** The proxy is the operator's setting (config `proxy`): no address the model tries gets past it. */
const PROXY_HINT = "The browser reaches every site through a proxy set by whoever runs it, and the proxy failed: another address fails the same way. Tell the user the browser's proxy is not working.";

/** A navigation that failed with a network error, once the tab is back on its page if it could be. */
function failedNavigation(error: unknown, back: boolean): BrowserToolError {
  const mapped = toBrowserToolError(error, 'navigate');
  const proxy = /ERR_PROXY_|ERR_TUNNEL_CONNECTION_FAILED|ERR_SOCKS_/.test(String(error));
  return new BrowserToolError(mapped.code, mapped.message, {
    hint: proxy ? PROXY_HINT : `Check the URL for typos, or try another address. ${tabAfterFailure(back)}`,
    retryable: mapped.retryable,
  });
}

function tabAfterFailure(back: boolean): string {
  return back ? 'The tab is back on the previous page; take browser_snapshot if you need its refs.' : 'The tab shows an error page now.';
}

/**
 * The server answered with an error status; `snapshot`: the page it sent, when Chromium shows one (an empty
 * answer is shown by the npm-shipped headless shell, and fails the load in Chrome). A 407 comes from the browser's
 * proxy, not the site.
 */
function answeredWithError(url: string, { status, statusText }: { status: number; statusText: string }, snapshot?: string, back = false): BrowserToolError {
  const what =
    snapshot === undefined
      ? `The server sent no page with it. Check the URL, or try another address. ${tabAfterFailure(back)}`
      : 'The server returned an error page (shown in the snapshot). Check the URL, or go back and try another way.';
  return new BrowserToolError('navigation_failed', `${url} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}.`, {
    hint: status === 407 ? PROXY_HINT.replace('the proxy failed', 'the proxy refused its login') : what,
    retryable: status >= 500,
    ...(snapshot === undefined ? {} : { snapshot }),
  });
}

/** A navigation the allowlist stopped part-way (a redirect, a frame): say where it tried to go. */
function blockedNavigation(url: string, blocked: string[], config: Pick<ResolvedConfig, 'allowedDomains'>, where = 'The tab still shows the page it showed before.'): BrowserToolError {
  return new BrowserToolError('navigation_failed', `${url} led to ${blocked[0]}, which is not in the allowed domains (${config.allowedDomains?.join(', ')}); the request was blocked.`, {
    hint: `Only the allowed domains can be opened, including through redirects. Choose a page on one of them. ${where}`,
  });
}

/** The server sent no page in time (or the page did not reach `waitUntil`); the load was stopped. */
function timedOut(target: string, seconds: number, waitUntil: WaitUntil | undefined, back: boolean): BrowserToolError {
  const strict = waitUntil !== undefined && waitUntil !== 'commit';
  return new BrowserToolError('timeout', `${target} ${strict ? `did not reach "${waitUntil}"` : 'did not send its page'} within ${seconds} s; the load was stopped.`, {
    hint: strict
      ? 'Call browser_navigate again without waitUntil: it returns as soon as the page is usable.'
      : `The server is slow or down. Retry once, or try another address. ${back ? 'The tab still shows the page it showed before.' : 'The tab shows an empty page; browser_history back returns to the page it showed before.'}`,
  });
}

/**
 * The page the tab showed keeps its renderer busy (a script that does not end): a new page of the same site is
 * shown by that renderer, so it could not arrive in this tab.
 */
export function tabHung(target: string): BrowserToolError {
  return new BrowserToolError('timeout', `The tab did not respond: the page it showed keeps it busy (a script that does not end), so ${target} could not be opened in it.`, {
    hint: 'Call again: a tab that does not respond is replaced by a new one, with cookies and logins kept.',
  });
}

/**
 * Opens `target` in a new tab in place of `call.tab`, whose page keeps its renderer busy (a script that never
 * ends), and says so: `what` happened "in a new tab in its place". Cookies and logins are kept.
 */
export async function openInPlaceOfHungTab(target: string, waitUntil: WaitUntil | undefined, call: CallContext, what: string) {
  const { tab, alsoClosed } = await call.session.tabs.replace(call.tab);
  call.notices.push(`The tab stopped responding (a script of its page never ended), so ${what} in a new tab in its place: the old page and its history are gone; cookies and logins were kept.${alsoHungNotice(alsoClosed)}`);
  const opened = await openPage(target, waitUntil, { ...call, tab });
  // The new tab's renderer is hung too: said as the first one was.
  if ('hung' in opened) throw tabHung(target);
  return opened;
}

/**
 * Opens `target` in `call.tab`: the page, a download instead, or the error that says what went wrong; `hung`
 * when the tab's renderer is busy for good (the caller opens it in a new tab, `openInPlaceOfHungTab`).
 */
export async function openPage(target: string, waitUntil: WaitUntil | undefined, call: CallContext) {
  const { tab, config, deadline } = call;
  const { page, refs } = tab;
  const opened = await openAddress(tab, target, { deadline, settle: config.settle, waitUntil, early: () => refs.capture() });
  switch (opened.kind) {
    case 'hung':
      return { hung: true as const };
    case 'timeout':
      throw timedOut(target, opened.seconds, waitUntil, opened.back);
    case 'dialog':
      return { url: page.url(), title: '', status: null, snapshot: '', dialogs: tab.takeDialogs() };
    case 'downloadNotBegun':
      throw new BrowserToolError('navigation_failed', `${target} is a file to download, and the download did not begin.`, {
        hint: 'The tab still shows the page it showed before. Retry once; if it fails again, the file cannot be fetched.',
        retryable: true,
      });
    case 'download': {
      // Saved within the call's own deadline, so that this answer is given.
      const downloads = await deadline.race(tab.takeDownloads(), deadline.what, deadline.forStep()).catch((error: unknown) => {
        if (!(error instanceof DeadlineExceeded)) throw error;
        throw new BrowserToolError('timeout', `${target} is a file, still downloading when this call's time ran out; it goes on being saved in the downloads folder.`, {
          hint: 'The file is large or the server slow. The tab still shows the page it showed before.',
        });
      });
      const { capture, formatted } = await refs.snapshot();
      const opening = await openingOf(call, downloads);
      return { url: capture.url, title: capture.title, status: null, snapshot: formatted.text, downloads, ...(opening ? { file: opening.file } : {}) };
    }
    case 'noContent':
      throw new BrowserToolError('navigation_failed', `${target} answered HTTP 204 No Content: it has no page to show.`, {
        hint: 'The address is an endpoint, not a page (an API call, a tracking link). The tab still shows the page it showed before; open a page instead.',
      });
    case 'blocked':
      throw blockedNavigation(target, opened.blocked, config, opened.back ? undefined : 'The tab shows an error page now.');
    case 'failed':
      throw failedNavigation(opened.error, opened.back);
    case 'errorStatus':
      throw answeredWithError(target, opened, undefined, opened.back);
  }
  const { loaded } = opened;
  const status = loaded.response?.status() ?? null;
  const { capture, formatted } = await refs.snapshot({}, loaded.snapshot);
  if (status !== null && status >= 400) throw answeredWithError(capture.url, { status, statusText: loaded.response?.statusText() ?? '' }, formatted.text);
  const dialogs = tab.takeDialogs();
  const shown = await shownFiles(call);
  noteRead(tab, capture.documentId, formatted.text);
  return {
    url: capture.url,
    title: capture.title,
    status,
    snapshot: formatted.text,
    ...(loaded.loading ? { loading: loaded.loading } : {}),
    ...(dialogs.length ? { dialogs } : {}),
    ...shown,
  };
}

/**
 * Files the page opened while it loaded: a PDF it shows (in Chromium's viewer, saved into the downloads; the
 * headless shell downloads an embedded PDF itself) is listed, and a PDF that is the page itself is read like one.
 */
async function shownFiles(call: CallContext): Promise<{ downloads?: Awaited<ReturnType<CallContext['tab']['takeDownloads']>>; file?: string; title?: string }> {
  const { tab } = call;
  const { page } = tab;
  const downloads = call.session.downloads.begunIn(page) ? await tab.takeDownloads(Math.min(5_000, call.deadline.forStep())) : [];
  const frames = tab.pdfFrames();
  for (const frame of frames) downloads.push(...(await downloadShownPdf(call, frame)));
  if (!downloads.length) return {};
  const pdfPage = frames.includes(page.mainFrame());
  const opening = await openingOf(call, pdfPage ? downloads : []);
  if (!pdfPage) call.notices.push(`The page downloaded or shows ${downloads.length === 1 ? 'a file' : 'files'} (${downloads.map((d) => d.file).join(', ')}): browser_read { file } reads ${downloads.length === 1 ? 'it' : 'one'}.`);
  return { downloads, ...(opening ? { file: opening.file, title: opening.title } : {}) };
}
