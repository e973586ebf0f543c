/**
 * A tab that shows many pages of one site does not grow slower with each (freshFrame.ts, DECISIONS 81): every
 * document Playwright drives leaves an isolated world that the tab's frame builds again in each later document,
 * until a page of another site gives the tab a new frame. The toolset gives it one before it wears, and the
 * empty page it passes through stays out of the agent's way.
 */
import type { CDPSession } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { RENEW_AFTER } from '../src/session/freshFrame.js';
import { call, useServerAndBrowser } from './helpers/toolset.js';

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
    await navigateThroughSite(RENEW_AFTER + 2, 200);
    const last = RENEW_AFTER + 201;
    const back = await call(env.browser, 'browser_history', { action: 'back' });
    expect(back).toMatchObject({ ok: true, moved: true, url: pageOfSite(last - 1) });
    expect(back.snapshot).toContain('# Page A');
    const forward = await call(env.browser, 'browser_history', { action: 'forward' });
    expect(forward).toMatchObject({ ok: true, moved: true, url: pageOfSite(last) });
  });

  it('a navigate to the site that fails leaves the tab back on the page it showed, which still acts', async () => {
    await navigateThroughSite(RENEW_AFTER + 2, 300);
    const shown = pageOfSite(RENEW_AFTER + 301);
    // The same site on a port where nothing listens: the connection is refused.
    const failed = await call(env.browser, 'browser_navigate', { url: 'http://127.0.0.1:9/' });
    expect(failed.ok).toBe(false);
    expect(failed.error.hint).toContain('The tab is back on the previous page');
    expect((await env.browser.page()).url()).toBe(shown);
    const snapshot = await call(env.browser, 'browser_snapshot', {});
    expect(snapshot.snapshot).toContain('Continue');
  });
});
