import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { countTokens, markAddressed } from '../../snapshot/index.js';
import { defineBrowserTool } from '../defineTool.js';
import { paginate, turndown } from '../helpers/article.js';
import { findDownload, nextCall, READ_TOKENS, readFileFor, shownDocument } from '../helpers/fileReading.js';
import { refSchema, resolveTarget } from '../helpers/target.js';
import { articleWithoutHiddenText, elementWithoutHiddenText } from '../readableCopy.js';

export const readTool = defineBrowserTool({
  id: 'browser_read',
  description:
    "Read the page's main content (or one element by ref) as Markdown, without menus and ads, in pages of maxTokens. With file, read a file this session downloaded, by the name results list under downloads: a PDF's text page by page, a CSV as a table, JSON, text or HTML. Use it to read; browser_snapshot to act.",
  input: z.object({
    ref: refSchema.optional(),
    file: z.string().min(1).optional().describe('A downloaded file, by its name under downloads (e.g. "invoice.pdf").'),
    maxTokens: z.number().int().min(200).max(20_000).optional().describe('Default 2,000.'),
    page: z.number().int().min(1).max(1_000_000).optional().describe('From 1.'),
  }),
  output: {
    title: z.string(),
    markdown: z.string(),
    page: z.number(),
    pages: z.number().describe('How many pages the content has at this maxTokens.'),
    next: z.string().optional().describe('The call that reads the next page.'),
    tokens: z.number(),
  },
  budget: 'page',
  describesBoundary: true,
  validate: ({ ref, file }) => {
    if (ref !== undefined && file !== undefined) throw new BrowserToolError('invalid_input', 'Give ref or file, not both.', { hint: 'ref reads an element of the page; file reads a downloaded file.' });
  },
  async handle({ ref, file, maxTokens, page: pageNumber }, call) {
    const { page } = call.tab;
    const wanted = pageNumber ?? 1;
    // A file: named, or the PDF the tab shows in Chromium's viewer, which reads as the file it is.
    const entry = file !== undefined ? findDownload(call, file) : ref === undefined ? await shownDocument(call) : undefined;
    if (entry) {
      const read = await readFileFor(call, entry, maxTokens ?? READ_TOKENS, wanted);
      call.notices.push(...read.notes);
      const next = nextCall(entry.name, read.part, read.parts, maxTokens);
      // A file speaks to the agent as a page may, and is marked the same way (snapshot/addressed.ts).
      const marked = markAddressed(read.text.split('\n')).join('\n');
      return { title: read.title, markdown: marked, page: read.part, pages: read.parts, ...(next ? { next } : {}), tokens: marked === read.text ? read.tokens : countTokens(marked) };
    }
    let title = await page.title();
    let html: string;
    // Text a person cannot see is left out of what is read (snapshot/hiddenText.ts).
    let hidden: number;
    if (ref !== undefined) {
      const target = await resolveTarget(call, ref, 'read');
      ({ html, hidden } = await elementWithoutHiddenText(target.locator));
    } else {
      const read = await articleWithoutHiddenText(page);
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
    if (wanted > pages.length) {
      throw new BrowserToolError('invalid_input', `There are only ${pages.length} pages of text at this maxTokens.`, { hint: `Ask for page 1 to ${pages.length}.` });
    }
    const text = pages[wanted - 1]!;
    const next = wanted < pages.length ? `browser_read ${JSON.stringify({ ...(ref ? { ref } : {}), page: wanted + 1, ...(maxTokens ? { maxTokens } : {}) })}` : undefined;
    return { title, markdown: text, page: wanted, pages: pages.length, ...(next ? { next } : {}), tokens: countTokens(text) };
  },
});
