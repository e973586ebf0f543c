/**
 * The page reader: a page's main content (Readability, run in the page) as Markdown (Turndown), and Markdown cut
 * into pages within a token budget. browser_read reads pages with it, and downloaded HTML files (files/reader.ts,
 * through tools/fileReading.ts) the same way.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import TurndownService from 'turndown';
import { countTokens } from '../../snapshot/index.js';

let readabilitySource: string | undefined;
/** Readability's source, evaluated in the page (readableCopy.ts reads pages with it too). */
export function readability(): string {
  readabilitySource ??= readFileSync(createRequire(import.meta.url).resolve('@mozilla/readability/Readability.js'), 'utf8');
  return readabilitySource;
}

export const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'svg', 'canvas', 'form', 'button'] as Array<keyof HTMLElementTagNameMap>);

/**
 * The main content of `page` as Markdown (Readability, then Turndown), or of `html` when given: a document parsed
 * in the page but never run (a downloaded HTML file), read by the same reader. Null when no article is found.
 */
export async function article(page: Page, html?: string): Promise<{ title: string; content: string } | null> {
  const source = html === undefined ? 'document.cloneNode(true)' : `new DOMParser().parseFromString(${JSON.stringify(html)}, 'text/html')`;
  // A string expression is evaluated by the debugger protocol, so page CSP cannot block it.
  return (await page.evaluate(
    `(() => { ${readability()}\n; const doc = ${source}; const parsed = new Readability(doc, { charThreshold: 200 }).parse();
      return parsed && parsed.content ? { title: parsed.title || doc.title, content: parsed.content } : null; })()`,
  )) as { title: string; content: string } | null;
}

/** A downloaded HTML file as Markdown, read as pages are; its whole body when no article is found. */
export async function articleMarkdown(page: Page, html: string): Promise<string> {
  const found = await article(page, html);
  return turndown.turndown(found ? found.content : html).trim();
}

/** Splits Markdown at paragraph boundaries into pages of at most `maxTokens` (a longer paragraph is cut). */
export function paginate(markdown: string, maxTokens: number): string[] {
  const pages: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const block of markdown.split(/\n{2,}/)) {
    let cost = countTokens(block) + 2;
    let text = block;
    if (cost > maxTokens) {
      text = block.slice(0, Math.floor((block.length * maxTokens) / cost) - 1) + '…';
      cost = countTokens(text) + 2;
    }
    if (tokens + cost > maxTokens && current.length) {
      pages.push(current.join('\n\n'));
      current = [];
      tokens = 0;
    }
    current.push(text);
    tokens += cost;
  }
  if (current.length) pages.push(current.join('\n\n'));
  return pages.length ? pages : [''];
}
