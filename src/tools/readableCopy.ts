/**
 * What browser_read reads: a copy of the page, or of one element, without the text a person cannot see
 * (snapshot/hiddenText.ts). Readability works on a copy of the document, where styles are not computed, so
 * the hidden text is found in the page itself and left out of the copy.
 */
import type { Locator, Page } from 'playwright-core';
import { pageScript } from '../inPage.js';
import { copyWithoutHiddenText, hideHiddenText, LISTENERS_KEY, releaseHiddenText, sight, type HiddenTextCopyArgs } from '../snapshot/index.js';
import { readability } from './helpers/article.js';

const COPY: HiddenTextCopyArgs = { markersKey: 'mastra-browser-toolset.readHidden', attribute: 'data-mastra-browser-toolset-unseen', listenersKey: LISTENERS_KEY };
const ELEMENT_KEY = 'mastra-browser-toolset.readElement';

/** The expression that makes the copy (`made.copy`, `made.hidden`). */
function copyScript(args: HiddenTextCopyArgs): string {
  return pageScript(copyWithoutHiddenText, args, { hideHiddenText, releaseHiddenText, sight });
}

/**
 * The page's main article by Readability, read from a copy without hidden text, or the
 * copy's body when there is no article. A string expression is evaluated by the debugger protocol, so page
 * CSP cannot block it.
 */
export async function articleWithoutHiddenText(page: Page): Promise<{ article: { title: string; content: string } | null; body: string; hidden: number }> {
  return (await page.evaluate(
    `(() => { ${readability()}\n; const made = ${copyScript(COPY)};
      const parsed = new Readability(made.copy.cloneNode(true), { charThreshold: 200 }).parse();
      const article = parsed && parsed.content ? { title: parsed.title || document.title, content: parsed.content } : null;
      return { article, body: article ? '' : made.copy.body ? made.copy.body.innerHTML : '', hidden: made.hidden }; })()`,
  )) as { article: { title: string; content: string } | null; body: string; hidden: number };
}

/** One element's HTML without hidden text. The element is handed over on `window` for the time of one call. */
export async function elementWithoutHiddenText(locator: Locator): Promise<{ html: string; hidden: number }> {
  const handle = await locator.elementHandle();
  try {
    const frame = await handle?.ownerFrame();
    if (!handle || !frame) return { html: await locator.evaluate((el) => el.outerHTML), hidden: 0 };
    await handle.evaluate((el, key) => ((window as unknown as Record<symbol, Element>)[Symbol.for(key)] = el), ELEMENT_KEY);
    return (await frame.evaluate(`(() => { const made = ${copyScript({ ...COPY, elementKey: ELEMENT_KEY })}; return { html: made.copy.outerHTML, hidden: made.hidden }; })()`)) as { html: string; hidden: number };
  } finally {
    void handle?.dispose();
  }
}
