/**
 * A style sheet that does not answer, taken out of its frame's document as an ad blocker would refuse it: the
 * frame then renders without it, and a parser that waited on it goes on. Used when the page is built (untilBuilt.ts)
 * and for a frame held later (frameRelease.ts).
 */
import type { Frame, Request } from 'playwright-core';

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
