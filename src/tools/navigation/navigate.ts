import { z } from 'zod';
import { defineBrowserTool } from '../defineTool.js';
import { effectsShape, loadingSchema } from '../helpers/observe.js';
import { normalizeUrl, openInPlaceOfHungTab, openPage } from '../helpers/opening.js';

export const navigateTool = defineBrowserTool({
  id: 'browser_navigate',
  description:
    'Open a URL in the current tab. Returns the final URL, title, HTTP status and a snapshot of the page, whose refs (e12) the other tools act on. It returns as soon as the page is usable; requests still loading are listed. A URL that serves a file (a PDF, a CSV, a zip) is downloaded and listed under downloads; a document among them (PDF, CSV, text) is read like a page under file: its first part, and the call that reads on.',
  input: z.object({
    url: z.string().describe('The address to open, e.g. https://example.com/login.'),
    waitUntil: z
      .enum(['load', 'domcontentloaded', 'networkidle', 'commit'])
      .optional()
      .describe('Wait strictly for this event instead (rarely needed).'),
  }),
  output: {
    url: z.string().describe('The final URL after redirects.'),
    title: z.string(),
    status: z.number().nullable().describe('HTTP status of the main document; null for about:blank and same-document navigations.'),
    snapshot: z.string().describe('The page as text; act on it by ref. Empty while a dialog blocks the page.'),
    loading: loadingSchema,
    dialogs: effectsShape.dialogs,
    downloads: effectsShape.downloads,
    file: effectsShape.file,
  },
  handlesHungTab: true,
  budget: 'page',
  describesBoundary: true,
  validate: ({ url }, config) => void normalizeUrl(url, config),
  async handle({ url, waitUntil }, call) {
    const target = normalizeUrl(url, call.config);
    const opened = await openPage(target, waitUntil, call);
    if (!('hung' in opened)) return opened;
    // The page left keeps its renderer busy for good: the new page is opened in a fresh tab instead.
    return await openInPlaceOfHungTab(target, waitUntil, call, 'this page was opened');
  },
});
