/**
 * The load policy, made for agents on the real web: a navigation is done when its document is parsed and
 * either `load` fired or the network went quiet for a moment (or a short cap passed). A stuck ad, tracker or
 * font then costs half a second, not a timeout; what is still in flight is reported in one line, not as an
 * error. `timeout` is kept for the document itself not arriving.
 *
 * Also here: the moves that keep a tab usable when a load or a script wedges it.
 */
import type { Page, Response } from 'playwright-core';
import type { ResolvedConfig } from '../config.js';
import { BrowserToolError, toBrowserToolError } from '../errors.js';
import { sleep, type Deadline } from './deadline.js';
import type { PageEvents } from './pageEvents.js';

export type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle' | 'commit';

export interface SettlePolicy {
  /** The page counts as settled once no request started or ended for this long. */
  quietMs: number;
  /** And at the latest this long after its document was parsed. */
  maxMs: number;
}

export interface Settled {
  /** False when the document itself was still arriving at the deadline (a page streamed for ever). */
  parsed: boolean;
  /** One line for the result when requests were still in flight: "3 requests (ads.example.com, …)". */
  loading?: string;
}

/** Waits until the page that just committed is usable, by the policy above. */
export async function settle(page: Page, events: PageEvents, deadline: Deadline, policy: SettlePolicy): Promise<Settled> {
  try {
    await page.waitForLoadState('domcontentloaded', { timeout: deadline.forStep() });
  } catch {
    if (page.isClosed()) return { parsed: true };
    return { parsed: false, loading: describeLoading(events, 'its document is still arriving') };
  }
  let done = false;
  const quiet = (async () => {
    while (!done && events.networkQuietFor() < policy.quietMs) await sleep(50);
  })();
  await Promise.race([page.waitForLoadState('load', { timeout: Math.min(policy.maxMs, deadline.forStep()) }).catch(() => {}), quiet]);
  done = true;
  return { parsed: true, loading: describeLoading(events) };
}

function describeLoading(events: PageEvents, about?: string): string | undefined {
  const pending = events.pendingRequests();
  if (!pending.length && !about) return undefined;
  const hosts = [...new Set(pending.map((request) => hostOf(request.url())))].slice(0, 3);
  const requests = pending.length ? `${pending.length} request${pending.length === 1 ? '' : 's'}${hosts.length ? ` (${hosts.join(', ')}${pending.length > hosts.length ? ', …' : ''})` : ''}` : '';
  return [about, requests].filter(Boolean).join('; ');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url.slice(0, 40);
  } catch {
    return url.slice(0, 40);
  }
}

export interface Loaded extends Settled {
  response: Response | null;
}

/**
 * Opens `url` in the tab: waits for the document to arrive (within the deadline), then for the page to be
 * usable. `waitUntil` asks for Playwright's strict waiting instead. A document that does not arrive in time is
 * a `timeout`, and its load is stopped so the tab answers the next call at once.
 */
export async function loadPage(page: Page, url: string, events: PageEvents, deadline: Deadline, config: Pick<ResolvedConfig, 'settle'>, waitUntil?: WaitUntil): Promise<Loaded> {
  let response: Response | null = null;
  const timeout = deadline.forStep();
  // A navigation an earlier call left pending (a page's own redirect, a tab operation) would cut this one short.
  await stopLoading(page);
  try {
    response = await page.goto(url, { waitUntil: waitUntil ?? 'commit', timeout });
  } catch (error) {
    const mapped = toBrowserToolError(error, 'navigate');
    // The page moved on by itself before its commit was seen (a meta refresh, a script redirect): the load
    // policy below follows it to where it leads.
    if (/is interrupted by another navigation/.test(mapped.message)) return { response: null, ...(await settle(page, events, deadline, config.settle)) };
    if (mapped.code !== 'timeout') throw error;
    await stopLoading(page);
    const what = waitUntil && waitUntil !== 'commit' ? `did not reach "${waitUntil}"` : 'did not send its page';
    throw new BrowserToolError('timeout', `${url} ${what} within ${Math.round(timeout / 1000)} s; the load was stopped.`, {
      hint:
        waitUntil && waitUntil !== 'commit'
          ? 'Call browser_navigate again without waitUntil: it returns as soon as the page is usable.'
          : 'The server is slow or down. Retry once, or try another address. The tab still shows the page it showed before.',
    });
  }
  if (waitUntil) return { response, parsed: true };
  return { response, ...(await settle(page, events, deadline, config.settle)) };
}

/** True when the tab runs a trivial script within `ms`: a hung renderer (an endless loop) does not. */
export async function responds(page: Page, ms: number): Promise<boolean> {
  const answer = page.evaluate('1').then(
    () => true,
    () => false,
  );
  return Promise.race([answer, sleep(ms).then(() => false)]);
}

/** Stops a load in progress (Chromium's stop button). A tab wedged by a load answers again at once. */
export async function stopLoading(page: Page): Promise<void> {
  if (page.isClosed()) return;
  try {
    const cdp = await page.context().newCDPSession(page);
    await Promise.race([cdp.send('Page.stopLoading'), sleep(2_000)]);
    void cdp.detach().catch(() => {});
  } catch {
    // not Chromium, or the tab is gone: nothing to stop
  }
}

/** Closes a tab without running its unload handlers, and without waiting on a renderer that may be hung. */
export async function closeQuickly(page: Page): Promise<void> {
  await Promise.race([page.close({ runBeforeUnload: false }).catch(() => {}), sleep(3_000)]);
}
