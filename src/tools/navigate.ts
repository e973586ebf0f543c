import { z } from 'zod';
import type { ResolvedConfig } from '../config.js';
import type { Page } from 'playwright-core';
import { BrowserToolError, toBrowserToolError } from '../errors.js';
import { isAllowedHost } from '../session/allowlist.js';
import type { Capture } from '../snapshot/capture.js';
import { DeadlineExceeded } from '../deadline.js';
import { moveInHistory } from '../loading/historyMoves.js';
import { loadPage, TabHung, type Loaded, type WaitUntil } from '../loading/open.js';
import { DOWNLOAD_EVENT_WAIT_MS } from '../session/tab.js';
import { alsoHungNotice } from '../session/tabs.js';
import { defineBrowserTool, type CallContext } from './defineTool.js';
import { effectsShape, loadingSchema } from './observe.js';

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

/**
 * Chromium shows its own error page after a failed navigation (a refused connection, a request the allowlist
 * blocked), and loads it after `goto` has already failed. Let it settle, then go back so the model finds the
 * page it was on. True when the tab shows that page again.
 */
async function backFromErrorPage(page: Page, previousUrl: string, error: unknown, { deadline, session }: CallContext): Promise<boolean> {
  // An aborted navigation (an empty answer, a cancelled load) shows no error page: nothing to wait for.
  const aborted = /ERR_ABORTED/.test(error instanceof Error ? error.message : String(error));
  if (!aborted) await page.waitForURL((url) => url.protocol === 'chrome-error:', { waitUntil: 'load', timeout: Math.min(2_000, deadline.forStep()) }).catch(() => {});
  if (page.url().startsWith('chrome-error:') && previousUrl && previousUrl !== 'about:blank') {
    await moveInHistory(page, 'back', () => ({ waitUntil: 'commit', timeout: Math.min(5_000, deadline.forStep()) })).catch(() => {});
  }
  await session.tabs.eventsOf(page).instanceAge.backOverRenewal(deadline);
  return page.url() === previousUrl;
}

/** A navigation that failed with a network error, once the tab is back on its page if it could be. */
function failedNavigation(error: unknown, back: boolean): BrowserToolError {
  const mapped = toBrowserToolError(error, 'navigate');
  return new BrowserToolError(mapped.code, mapped.message, {
    hint: back
      ? 'Check the URL for typos, or try another address. The tab is back on the previous page; take browser_snapshot if you need its refs.'
      : 'Check the URL for typos, or try another address. The tab shows an error page now.',
    retryable: mapped.retryable,
  });
}

/**
 * The address served a file, not a page (a PDF, a zip, a CSV; `Content-Disposition: attachment`): the browser
 * saves it in the downloads folder (PageEvents) and the tab stays on the page it showed.
 */
async function savedAsDownload(url: string, { page, refs, session, deadline }: Pick<CallContext, 'page' | 'refs' | 'session' | 'deadline'>) {
  const events = session.tabs.eventsOf(page);
  if (!(await events.downloadBegun(Math.min(DOWNLOAD_EVENT_WAIT_MS, deadline.forStep())))) {
    throw new BrowserToolError('navigation_failed', `${url} is a file to download, and the download did not begin.`, {
      hint: 'The tab still shows the page it showed before. Retry once; if it fails again, the file cannot be fetched.',
      retryable: true,
    });
  }
  // Ends before the call's own deadline, so that this answer, not a generic one, is given.
  const downloads = await deadline.race(events.takeDownloads(), deadline.what, deadline.forStep()).catch((error: unknown) => {
    if (!(error instanceof DeadlineExceeded)) throw error;
    throw new BrowserToolError('timeout', `${url} is a file, still downloading when this call's time ran out; it goes on being saved in the downloads folder.`, {
      hint: 'The file is large or the server slow. The tab still shows the page it showed before.',
    });
  });
  const { capture, formatted } = await refs.snapshot(page);
  return { url: capture.url, title: capture.title, status: null, snapshot: formatted.text, downloads };
}

/** A navigation the allowlist stopped part-way (a redirect, a frame): say where it tried to go. */
function blockedNavigation(url: string, blocked: string[], config: Pick<ResolvedConfig, 'allowedDomains'>, where = 'The tab still shows the page it showed before.'): BrowserToolError {
  return new BrowserToolError('navigation_failed', `${url} led to ${blocked[0]}, which is not in the allowed domains (${config.allowedDomains?.join(', ')}); the request was blocked.`, {
    hint: `Only the allowed domains can be opened, including through redirects. Choose a page on one of them. ${where}`,
  });
}

/**
 * Opens `target` in a new tab in place of `call.page`, whose page keeps its renderer busy (a script that never
 * ends), and says so: `what` happened "in a new tab in its place". Cookies and logins are kept.
 */
export async function openInPlaceOfHungTab(target: string, waitUntil: WaitUntil | undefined, call: CallContext, what: string) {
  const { page, alsoClosed } = await call.session.tabs.replace(call.page);
  call.notices.push(`The tab stopped responding (a script of its page never ended), so ${what} in a new tab in its place: the old page and its history are gone; cookies and logins were kept.${alsoHungNotice(alsoClosed)}`);
  return openPage(target, waitUntil, { ...call, page });
}

/** Opens `target` in `call.page`: the page, a download instead, or the error that says what went wrong. */
async function openPage(target: string, waitUntil: WaitUntil | undefined, call: CallContext) {
  const { page, refs, config, session, deadline } = call;
  const previousUrl = page.url();
  const events = session.tabs.eventsOf(page);
  let loaded: Loaded<Capture>;
  try {
    // A page that opens confirm() while loading cannot finish loading until it is answered.
    const outcome = await events.unlessDialogOpens(loadPage(page, target, events, deadline, config, waitUntil, () => refs.capture(page)));
    if (outcome.dialog) return { url: page.url(), title: '', status: null, snapshot: '', dialogs: events.takeDialogs() };
    loaded = outcome.value;
  } catch (error) {
    const blocked = events.takeBlocked();
    const message = error instanceof Error ? error.message : String(error);
    const download = /Download is starting/.test(message);
    const noContent = !blocked.length && !download && /net::ERR_ABORTED/.test(message) && (await events.traffic.documentStatus()) === 204;
    if (download || noContent) {
      // A load that brought no page leaves the tab on the page it showed, or on the empty page a fresh frame
      // passed through (freshFrame.ts), which is then left.
      await events.instanceAge.backOverRenewal(deadline);
      if (download) return await savedAsDownload(target, call);
      throw new BrowserToolError('navigation_failed', `${target} answered HTTP 204 No Content: it has no page to show.`, {
        hint: 'The address is an endpoint, not a page (an API call, a tracking link). The tab still shows the page it showed before; open a page instead.',
      });
    }
    if (blocked.length || /net::ERR_/.test(message)) {
      const back = await backFromErrorPage(page, previousUrl, error, call);
      throw blocked.length ? blockedNavigation(target, blocked, config, back ? undefined : 'The tab shows an error page now.') : failedNavigation(error, back);
    }
    throw error;
  }
  const status = loaded.response?.status() ?? null;
  // The page redirected itself (meta refresh, script) to a host the allowlist refused. Going back would land
  // on the redirecting page, which would redirect again: the tab stays on the error page.
  if (page.url().startsWith('chrome-error:')) {
    const blocked = events.takeBlocked();
    if (blocked.length) throw blockedNavigation(target, blocked, config, 'The tab shows an error page now.');
  }
  const { capture, formatted } = await refs.snapshot(page, {}, loaded.snapshot);
  if (status !== null && status >= 400) {
    throw new BrowserToolError('navigation_failed', `${capture.url} answered HTTP ${status}${loaded.response?.statusText() ? ` ${loaded.response.statusText()}` : ''}.`, {
      hint: 'The server returned an error page (shown in the snapshot). Check the URL, or go back and try another way.',
      retryable: status >= 500,
      snapshot: formatted.text,
    });
  }
  const dialogs = events.takeDialogs();
  return {
    url: capture.url,
    title: capture.title,
    status,
    snapshot: formatted.text,
    ...(loaded.loading ? { loading: loaded.loading } : {}),
    ...(dialogs.length ? { dialogs } : {}),
  };
}

export const navigateTool = defineBrowserTool({
  id: 'browser_navigate',
  description:
    'Open a URL in the current tab. Returns the final URL, title, HTTP status and a snapshot of the page, whose refs (e12) the other tools act on. It returns as soon as the page is usable; requests still loading are listed. A URL that serves a file (a PDF, a zip) is downloaded instead and listed under downloads.',
  input: z.object({
    url: z.string().describe('The address to open, e.g. https://example.com/login.'),
    waitUntil: z
      .enum(['load', 'domcontentloaded', 'networkidle', 'commit'])
      .optional()
      .describe('Wait strictly for this event instead (rarely needed).'),
  }),
  output: {
    url: z.string().describe('The final URL after redirects.'),
    title: z.string(),
    status: z.number().nullable().describe('HTTP status of the main document; null for about:blank and same-document navigations.'),
    snapshot: z.string().describe('The page as text; act on it by ref. Empty while a dialog blocks the page.'),
    loading: loadingSchema,
    dialogs: effectsShape.dialogs,
    downloads: effectsShape.downloads,
  },
  handlesHungTab: true,
  budget: 'page',
  validate: ({ url }, config) => void normalizeUrl(url, config),
  async handle({ url, waitUntil }, call) {
    const target = normalizeUrl(url, call.config);
    try {
      return await openPage(target, waitUntil, call);
    } catch (error) {
      if (!(error instanceof TabHung)) throw error;
      // The page left keeps its renderer busy for good: the new page is opened in a fresh tab instead.
      return await openInPlaceOfHungTab(target, waitUntil, call, 'this page was opened');
    }
  },
});
