/**
 * The moves that keep a tab usable when a load or a script wedges it: tell a hung renderer, stop a load, close a
 * tab without waiting on it, and close a tab that a click opened but whose page never came.
 */
import type { Page } from 'playwright-core';
import { sleep } from './deadline.js';

/** True when the tab runs a trivial script within `ms`: a hung renderer (an endless loop) does not. */
export async function responds(page: Page, ms: number): Promise<boolean> {
  const answer = page.evaluate('1').then(
    () => true,
    () => false,
  );
  return Promise.race([answer, sleep(ms).then(() => false)]);
}

/**
 * True when the tab gives any answer to a trivial script within `ms`, a failure included: a document being
 * replaced as it is asked answers with one, and only a hung renderer says nothing at all.
 */
export async function answers(page: Page, ms: number): Promise<boolean> {
  const answer = page.evaluate('1').then(
    () => true,
    () => true,
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

/**
 * Counts the tabs `opener` opened whose first page has not arrived, and closes them when `close` is set.
 * Playwright shows a new tab only once its first document commits, so such a tab cannot be reached any other
 * way; Chromium lists it with no URL yet.
 */
export async function unbornTabs(opener: Page, { close = false } = {}): Promise<number> {
  if (opener.isClosed()) return 0;
  try {
    const cdp = await opener.context().newCDPSession(opener);
    try {
      const self = (await cdp.send('Target.getTargetInfo')).targetInfo.targetId;
      const { targetInfos } = await cdp.send('Target.getTargets');
      const unborn = targetInfos.filter((target) => target.type === 'page' && target.openerId === self && target.url === '');
      if (close) await Promise.all(unborn.map((target) => cdp.send('Target.closeTarget', { targetId: target.targetId }).catch(() => {})));
      return unborn.length;
    } finally {
      void cdp.detach().catch(() => {});
    }
  } catch {
    return 0; // not Chromium, or the opener is gone
  }
}
