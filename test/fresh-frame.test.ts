/**
 * A tab that shows many pages of one site does not grow slower with each (freshFrame.ts, DECISIONS 81): every
 * document Playwright drives leaves an isolated world that the tab's frame builds again in each later document,
 * until a page of another site gives the tab a new frame. The toolset gives it one before it wears, and the
 * empty page it passes through stays out of the agent's way.
 */
import type { CDPSession } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { RENEW_AFTER } from '../src/loading/freshFrame.js';
import { isBetweenPages } from '../src/loading/historyMoves.js';
import { call, createTestToolset, refOf, useServerAndBrowser } from './helpers/toolset.js';

// The product's navigation time, for every navigate of the site; the one to a server that never answers waits it out.
const env = useServerAndBrowser();

/** The Nth page of one site (127.0.0.1): the same fixture under another address each time. */
const pageOfSite = (n: number) => env.server.url(`/fixtures/page-a.html?n=${n}`);

/** Opens `count` pages of one site with browser_navigate; each must succeed and name nothing as still loading. */
async function navigateThroughSite(count: number, from = 0): Promise<void> {
  for (let n = from; n < from + count; n++) {
    const result = await call(env.browser, 'browser_navigate', { url: pageOfSite(n) });
    expect(result, JSON.stringify(result).slice(0, 400)).toMatchObject({ ok: true, url: pageOfSite(n), title: 'Page A' });
    expect(result.loading).toBeUndefined();
    expect(result.dialogs).toBeUndefined();
  }
}

/** Counts the isolated worlds Chromium builds in the tab's next main-frame document. */
async function worldsInNextDocument(cdp: CDPSession, open: () => Promise<unknown>): Promise<number> {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  let worlds = 0;
  const onContext = ({ context }: { context: { auxData?: { type?: string; frameId?: string } } }) => {
    if (context.auxData?.type === 'isolated' && context.auxData.frameId === frameTree.frame.id) worlds++;
  };
  await open();
  // The worlds built for the document just opened: counted from a fresh Runtime.enable, which reports every context.
  cdp.on('Runtime.executionContextCreated', onContext);
  await cdp.send('Runtime.enable');
  await cdp.send('Runtime.disable');
  cdp.off('Runtime.executionContextCreated', onContext);
  return worlds;
}

/** Counts the tab's passes through the empty page from now on. */
async function watchEmptyPages(): Promise<{ count: number }> {
  const page = await env.browser.page();
  const hops = { count: 0 };
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && isBetweenPages(frame.url())) hops.count++;
  });
  return hops;
}

/**
 * Opens pages of the site from `from` on until a navigate passes through the empty page (at most RENEW_AFTER + 1
 * pages); returns the number of the page it opened then.
 */
async function navigateUntilFreshFrame(from: number): Promise<number> {
  const hops = await watchEmptyPages();
  for (let n = from; n <= from + RENEW_AFTER; n++) {
    await navigateThroughSite(1, n);
    if (hops.count) return n;
  }
  throw new Error(`no fresh frame in ${RENEW_AFTER + 1} pages of one site`);
}

describe('a tab that shows many pages of one site', () => {
  it('builds no more isolated worlds per page after thirty pages than after a few', async () => {
    await navigateThroughSite(3);
    const page = await env.browser.page();
    const cdp = await page.context().newCDPSession(page);
    try {
      const early = await worldsInNextDocument(cdp, () => navigateThroughSite(1, 3));
      await navigateThroughSite(3 * RENEW_AFTER, 4);
      const late = await worldsInNextDocument(cdp, () => navigateThroughSite(1, 100));
      // Without a fresh frame the thirty-fifth page of the site would carry some thirty-five worlds.
      expect(early).toBeGreaterThan(0);
      expect(late).toBeLessThanOrEqual(RENEW_AFTER + 2);
    } finally {
      await cdp.detach();
    }
  });

  it('back and forward step over the empty page the tab passed through', async () => {
    const last = await navigateUntilFreshFrame(200);
    const back = await call(env.browser, 'browser_history', { action: 'back' });
    expect(back, JSON.stringify(back).slice(0, 600)).toMatchObject({ ok: true, moved: true, url: pageOfSite(last - 1) });
    expect(back.snapshot).toContain('# Page A');
    const forward = await call(env.browser, 'browser_history', { action: 'forward' });
    expect(forward).toMatchObject({ ok: true, moved: true, url: pageOfSite(last) });
  });

  it("the site's session storage, cookies and the window's name are kept across the fresh frame", async () => {
    await navigateThroughSite(1, 400);
    const page = await env.browser.page();
    await page.evaluate(() => {
      sessionStorage.setItem('cart', '3 items');
      document.cookie = 'visit=1; path=/';
    });
    await page.evaluate(() => (window.name = 'probe-name'));
    await navigateUntilFreshFrame(401);
    expect(await page.evaluate(() => [sessionStorage.getItem('cart'), document.cookie, window.name])).toEqual(['3 items', 'visit=1', 'probe-name']);
  });

  /**
   * Opens pages of the site from `from` on until the next navigate to it renews the frame, then navigates to `url`:
   * its result, the page the tab showed before it, and how often the tab passed through the empty page meanwhile.
   */
  async function navigateFromWornTab(from: number, url: string): Promise<{ result: any; shown: string; hops: number }> {
    const renewed = await navigateUntilFreshFrame(from);
    await navigateThroughSite(RENEW_AFTER - 1, renewed + 1);
    const hops = await watchEmptyPages();
    const result = await call(env.browser, 'browser_navigate', { url });
    return { result, shown: pageOfSite(renewed + RENEW_AFTER - 1), hops: hops.count };
  }

  /** The tab shows `url` again, and its page acts. */
  async function expectBackOn(url: string): Promise<void> {
    expect((await env.browser.page()).url()).toBe(url);
    const snapshot = await call(env.browser, 'browser_snapshot', {});
    expect(snapshot.snapshot).toContain('# Page A');
    expect(await call(env.browser, 'browser_click', { ref: refOf(snapshot.snapshot, 'button', 'Continue') })).toMatchObject({ ok: true });
  }

  it('a navigate to the site that fails leaves the tab back on the page it showed, which still acts', async () => {
    // The same site on a port where nothing listens: the connection is refused.
    const { result: failed, shown, hops } = await navigateFromWornTab(300, 'http://127.0.0.1:9/');
    // Once on the way to the failed page, once more on the way back over it.
    expect(hops).toBe(2);
    expect(failed.ok).toBe(false);
    expect(failed.error.hint).toContain('The tab is back on the previous page');
    await expectBackOn(shown);
  });

  it('a page of the site whose server never answers is a timeout, and the tab still shows the page it showed', async () => {
    const { result: failed, shown, hops } = await navigateFromWornTab(500, env.server.url('/no-answer'));
    expect(hops).toBeGreaterThan(0);
    expect(failed).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(failed.error.hint).toContain('The tab still shows the page it showed before');
    await expectBackOn(shown);
  });

  it('a file of the site is saved as a download, and the tab stays on the page it showed', async () => {
    const { result: saved, shown, hops } = await navigateFromWornTab(600, env.server.url('/download/report.csv'));
    expect(hops).toBeGreaterThan(0);
    expect(JSON.stringify(saved)).toContain('report.csv');
    await expectBackOn(shown);
  });

  it('a redirect the allowlist blocks leaves the tab on the page it showed, as its result says', async () => {
    const fenced = createTestToolset({
      allowedDomains: ['127.0.0.1'],
      // Let localhost resolve (the test helper makes every other host unresolvable): a site the allowlist refuses.
      args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'],
    });
    try {
      // Enough pages of the site that the next navigate to it passes through the empty page.
      for (let n = 0; n < 2 * RENEW_AFTER; n++) expect(await call(fenced, 'browser_navigate', { url: pageOfSite(700 + n) })).toMatchObject({ ok: true });
      const page = await fenced.page();
      let hops = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame() && isBetweenPages(frame.url())) hops++;
      });
      const elsewhere = env.server.url('/fixtures/page-b.html').replace('127.0.0.1', 'localhost');
      const blocked = await call(fenced, 'browser_navigate', { url: env.server.url(`/redirect?to=${encodeURIComponent(elsewhere)}`) });
      expect(hops).toBeGreaterThan(0);
      expect(blocked).toMatchObject({ ok: false, error: { code: 'navigation_failed' } });
      expect(blocked.error.hint).toContain('The tab still shows the page it showed before');
      expect(page.url()).toBe(pageOfSite(700 + 2 * RENEW_AFTER - 1));
    } finally {
      await fenced.close();
    }
  });

  it('does not pile up the memory of the pages it left, even with calls back to back', async () => {
    const MB = 16;
    const page = await env.browser.page();
    const cdp = await page.context().newCDPSession(page);
    try {
      // Two fresh frames' worth of pages that each hold 16 MB of script objects, with no pause between the calls.
      for (let n = 0; n < 2 * RENEW_AFTER + 2; n++) {
        expect(await call(env.browser, 'browser_navigate', { url: env.server.url(`/heavy?mb=${MB}&n=${n}`) })).toMatchObject({ ok: true, title: 'Heavy' });
      }
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const { documents } = await cdp.send('Memory.getDOMCounters');
      // The renderer outlives the frames (one process per site): left to itself it kept every page here (~450 MB,
      // 50 documents). Collected at the second fresh frame, what is left is the pages opened since.
      expect(usedSize / 2 ** 20, `${documents} documents`).toBeLessThan(6 * MB);
    } finally {
      await cdp.detach();
    }
  });
});
