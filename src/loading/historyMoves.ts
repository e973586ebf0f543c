/**
 * Moves in a tab's history that step over the empty page a renewal of its browsing instance left between two
 * pages (browsingInstance.ts), so the agent never lands on it.
 */
import type { Page, Response } from 'playwright-core';

/** The empty page, as a model would read it should a page's own script send the tab back onto it. */
export const BETWEEN_PAGES = `data:text/html,${encodeURIComponent(
  '<!doctype html><title>Between two pages</title><p>An empty page the browser passed through between two pages. Go back or forward once more.</p>',
)}`;

/** The empty page a renewal puts between two pages. */
export function isBetweenPages(url: string): boolean {
  return url === BETWEEN_PAGES;
}

/**
 * Waits until the tab's page is parsed: a history move asked for before that fails at once in Chromium ("Not
 * attached to an active page").
 */
export function untilParsed(page: Page, timeout: number): Promise<void> {
  return page.waitForLoadState('domcontentloaded', { timeout });
}

/**
 * Goes back or forward one page in the tab's history, stepping over the empty page a renewal left there, or loads
 * the page shown again. The answer is Playwright's: null when there was nowhere to go, or the move stayed in the
 * document. The move waits for no more than `options` says: the caller runs it as an action (action.ts), and the
 * load policy decides when the page it lands on is usable.
 */
export async function moveInHistory(page: Page, direction: 'back' | 'forward' | 'reload', options: () => { waitUntil: 'commit' | 'domcontentloaded'; timeout: number }): Promise<Response | null> {
  if (direction === 'reload') return page.reload(options());
  const move = () => (direction === 'back' ? page.goBack(options()) : page.goForward(options()));
  const response = await move();
  if (!isBetweenPages(page.url())) return response;
  await untilParsed(page, options().timeout);
  return move();
}

/**
 * The address a history move would land on (for `reload`, the page shown), stepping over the empty page a
 * renewal left; undefined when there is nowhere to go. Chromium's browser process answers this even when the
 * tab's renderer is hung.
 */
export async function historyTarget(page: Page, action: 'back' | 'forward' | 'reload'): Promise<string | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { currentIndex, entries } = await cdp.send('Page.getNavigationHistory');
    const step = action === 'back' ? -1 : action === 'forward' ? 1 : 0;
    let index = currentIndex + step;
    while (step && entries[index] && isBetweenPages(entries[index]!.url)) index += step;
    return entries[index]?.url;
  } finally {
    void cdp.detach().catch(() => {});
  }
}
