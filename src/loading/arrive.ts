/**
 * The first part of opening an address: until its document arrives (commits) in the tab, within the call's
 * deadline. A document that does not come in time is a `timeout`, and its load is stopped so the tab answers the
 * next call at once. When the page being left navigates by itself meanwhile (a redirect or reload timer), Chromium
 * lets its navigation replace ours: ours is then made again, once. What came of it is returned as data; when the
 * page that arrived is usable is the load policy's (settle.ts).
 */
import type { Response } from 'playwright-core';
import { toBrowserToolError } from '../errors.js';
import { stage } from '../stages.js';
import type { Deadline } from '../deadline.js';
import { ownRequest } from './ownRequest.js';
import { stopLoading, TabHung, unlessHung } from './tabControl.js';
import type { LoadingTab } from './tabLoading.js';

export type WaitUntil = 'load' | 'domcontentloaded' | 'networkidle' | 'commit';

export type Arrival =
  /**
   * The document arrived (with `waitUntil`, it reached that event). `movedOn`: ours was answered, then the new page
   * moved on before its commit was seen (a meta refresh, a script redirect): the load policy follows it.
   */
  | { kind: 'arrived'; response: Response | null; movedOn?: boolean }
  /** The page the tab showed keeps its renderer busy (a script that does not end): the address cannot arrive in this tab. */
  | { kind: 'hung' }
  /** No document, or not `waitUntil`, within `seconds`: the load was stopped. `back`: the tab shows the page it showed before. */
  | { kind: 'timeout'; seconds: number; back: boolean }
  /** Any other failure (a network error, a download, an empty answer), for the caller to tell apart. */
  | { kind: 'failed'; error: unknown };

/**
 * Opens `url` in the tab until its document arrives. `waitUntil` asks for Playwright's strict waiting instead. A
 * tab that has shown many pages of the site gets a fresh frame first (freshFrame.ts).
 */
export async function untilArrived(tab: LoadingTab, url: string, deadline: Deadline, waitUntil?: WaitUntil): Promise<Arrival> {
  const page = tab.page;
  const { traffic, frameWear } = tab.loading;
  const timeout = deadline.forStep();
  // A navigation an earlier call left pending (a page's own redirect, a document still arriving) would cut this one short.
  // So would the page's requests holding every connection to the server (hanging polls): ours would wait behind them.
  if (traffic.documentPending() || traffic.waits.holdsAllConnections(url)) await stage('load: stop previous', () => stopLoading(page));
  await frameWear.renewBefore(url, deadline);
  // A new tab's first load: what Chromium says of its requests is heard from the start (a round trip, once per tab).
  await traffic.listening();
  for (let attempt = 0; ; attempt++) {
    const own = ownRequest(page, url);
    try {
      const going = page.goto(url, { waitUntil: waitUntil ?? 'commit', timeout: attempt ? deadline.forStep() : timeout });
      return { kind: 'arrived', response: await stage('load: until commit', () => unlessHung(page, going, own, deadline)) };
    } catch (error) {
      if (error instanceof TabHung) return { kind: 'hung' };
      const mapped = toBrowserToolError(error, 'navigate');
      const replaced = /is interrupted by another navigation|ERR_ABORTED/.test(mapped.message) && !(await own.answered());
      // Ours was never answered: the page being left navigated by itself and took the tab from it.
      if (replaced && attempt === 0) {
        await stage('load: replaced by the page left', () => stopLoading(page));
        continue;
      }
      if (/is interrupted by another navigation/.test(mapped.message) && !replaced) return { kind: 'arrived', response: null, movedOn: true };
      if (mapped.code !== 'timeout') return { kind: 'failed', error };
      await stopLoading(page);
      return { kind: 'timeout', seconds: Math.round(timeout / 1000), back: await frameWear.backOverRenewal(deadline) };
    } finally {
      own.dispose();
    }
  }
}
