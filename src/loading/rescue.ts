/**
 * The moves that keep a tab usable when a load or a script wedges it: tell a hung renderer, stop a load, take
 * out a style sheet that does not answer, close a tab without waiting on it, and close a tab that a click opened
 * but whose page never came.
 */
import type { Frame, Page, Request } from 'playwright-core';
import { sleep, type Deadline } from '../deadline.js';
import type { Traffic } from './traffic.js';
import { within } from '../within.js';

/** True when the tab runs a trivial script within `ms`: a hung renderer (an endless loop) does not. */
export async function runsScript(page: Page, ms: number): Promise<boolean> {
  const ran = page.evaluate('1').then(
    () => true,
    () => false,
  );
  return (await within(ran, ms)) ?? false;
}

/**
 * True when the tab's renderer gives any answer to a trivial script within `ms`, a failure included (unlike
 * `runsScript`): a document being replaced as it is asked answers with one, and only a hung renderer says nothing.
 */
export async function rendererAnswers(page: Page, ms: number): Promise<boolean> {
  const answered = page.evaluate('1').then(
    () => true,
    () => true,
  );
  return (await within(answered, ms)) ?? false;
}

/** How long a tab that may be hung is given to answer a trivial script. */
export const HUNG_ANSWER_MS = 3_000;

/**
 * Before a history move: a document still on its way holds the tab's scripts until it commits (the move would
 * replace that load anyway), so it is stopped. True when the tab's renderer is hung after that: the page the move
 * leads to would be shown by that renderer, so the caller opens it in a new tab instead.
 */
export async function hungBeforeMove({ page, traffic }: { page: Page; traffic: Traffic }, deadline: Deadline): Promise<boolean> {
  if (traffic.documentPending()) await stopLoading(page);
  return !(await rendererAnswers(page, Math.min(HUNG_ANSWER_MS, deadline.forStep() / 3)));
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

/**
 * Takes the `<link>` elements of `sheets` (style sheets that do not answer) out of their frame's document: Chromium
 * then renders the frame without them, and a parser that waited on them for a script goes on, as if an ad blocker
 * had refused them. A `<link>` to one of them that the parser meets later (a page that links a widget's sheet
 * again with each copy of the widget) is taken out as it is parsed, until the document is parsed: the request is
 * still the one that does not answer, and the next script would wait on it again. True when each of them was
 * found and taken out; false when one was not (a sheet pulled in by `@import`, a frame gone).
 */
export async function removeSheetLinks(frame: Frame, sheets: Request[]): Promise<boolean> {
  // The <link> names the first address of a redirect chain.
  const urls = sheets.map((sheet) => {
    let first = sheet;
    while (first.redirectedFrom()) first = first.redirectedFrom()!;
    return first.url();
  });
  if (frame.isDetached()) return false;
  return frame
    .evaluate((hrefs) => {
      const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel~="stylesheet" i]')];
      const found = hrefs.map((href) => links.filter((link) => link.href === href));
      for (const link of found.flat()) link.remove();
      if (document.readyState === 'loading') {
        const later = new MutationObserver((records) => {
          for (const record of records) {
            for (const node of record.addedNodes) if (node instanceof HTMLLinkElement && node.relList.contains('stylesheet') && hrefs.includes(node.href)) node.remove();
          }
        });
        later.observe(document, { childList: true, subtree: true });
        document.addEventListener('DOMContentLoaded', () => later.disconnect(), { once: true });
      }
      return found.every((matches) => matches.length > 0);
    }, urls)
    .catch(() => false); // the frame navigated or went away meanwhile
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
