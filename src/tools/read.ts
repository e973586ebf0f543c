import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import TurndownService from 'turndown';
import { z } from 'zod';
import { BrowserToolError } from '../errors.js';
import { countTokens } from '../snapshot/tokens.js';
import { markAddressed } from '../snapshot/addressed.js';
import { articleWithoutHiddenText, elementWithoutHiddenText } from './readableCopy.js';
import { defineBrowserTool } from './defineTool.js';
import { refSchema, resolveTarget } from './shared.js';

let readabilitySource: string | undefined;
function readability(): string {
  readabilitySource ??= readFileSync(createRequire(import.meta.url).resolve('@mozilla/readability/Readability.js'), 'utf8');
  return readabilitySource;
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'svg', 'canvas', 'form', 'button'] as Array<keyof HTMLElementTagNameMap>);

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

export const readTool = defineBrowserTool({
  id: 'browser_read',
  description:
    "Read the page's main content (or one element by ref) as Markdown, without menus and ads, in pages of maxTokens. Use it to read; browser_snapshot to act.",
  input: z.object({
    ref: refSchema.optional(),
    maxTokens: z.number().int().min(200).max(20_000).optional().describe('Default 2,000.'),
    page: z.number().int().min(1).max(1_000).optional().describe('From 1.'),
  }),
  output: {
    title: z.string(),
    markdown: z.string(),
    page: z.number(),
    pages: z.number().describe('How many pages the content has at this maxTokens.'),
    tokens: z.number(),
  },
  budget: 'page',
  describesBoundary: true,
  async handle({ ref, maxTokens, page: pageNumber }, call) {
    const { page } = call;
    let title = await page.title();
    let html: string;
    // Text a person cannot see is left out of what is read (snapshot/hiddenText.ts).
    let hidden: number;
    if (ref !== undefined) {
      const target = await resolveTarget(call, ref, 'read');
      ({ html, hidden } = await elementWithoutHiddenText(target.locator));
    } else {
      const read = await articleWithoutHiddenText(page, readability());
      ({ hidden } = read);
      if (read.article) {
        title = read.article.title;
        html = read.article.content;
      } else {
        html = read.body;
        call.notices.push('No main article was found, so the whole page body is given.');
      }
    }
    if (hidden) call.notices.push(`${hidden} hidden text${hidden === 1 ? ' was' : 's were'} left out (not visible on the page).`);
    // Text that speaks to the agent is the page's, and the line before it says so (snapshot/addressed.ts).
    const markdown = markAddressed(turndown.turndown(html).trim().split('\n')).join('\n');
    const pages = paginate(markdown, maxTokens ?? 2_000);
    const wanted = pageNumber ?? 1;
    if (wanted > pages.length) {
      throw new BrowserToolError('invalid_input', `There are only ${pages.length} pages of text at this maxTokens.`, { hint: `Ask for page 1 to ${pages.length}.` });
    }
    const text = pages[wanted - 1]!;
    return { title, markdown: text, page: wanted, pages: pages.length, tokens: countTokens(text) };
  },
});
