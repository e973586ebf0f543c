import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { listingOf } from '../../files/downloads.js';
import { NOT_RESPONDING } from '../../session/tabs.js';
import { defineBrowserTool } from '../defineTool.js';
import { loadingSchema } from '../helpers/observe.js';
import { normalizeUrl, openPage, tabHung } from '../helpers/opening.js';

export const tabsTool = defineBrowserTool({
  id: 'browser_tabs',
  description:
    'List, open, switch to or close tabs. A tab your action opens becomes the active tab (its result shows it). "switch" and "close" take an index from "list"; switching returns the tab\'s snapshot. "list" also lists the files this session downloaded.',
  input: z.object({
    action: z.enum(['list', 'new', 'switch', 'close']),
    index: z.number().int().min(0).max(1000).optional().describe('Tab index for "switch" and "close" (close defaults to the active tab).'),
    url: z.string().optional().describe('URL to open in the new tab, for "new".'),
  }),
  output: {
    tabs: z.array(z.object({ index: z.number(), url: z.string(), title: z.string(), active: z.boolean() })),
    snapshot: z.string().optional().describe('The active tab, after "new" with a URL or "switch".'),
    loading: loadingSchema,
    downloads: z
      .array(z.object({ file: z.string(), type: z.string(), size: z.string(), from: z.string(), by: z.string(), on: z.string(), at: z.string() }))
      .optional()
      .describe('With "list": the files this session downloaded, by name (browser_read { file } reads one), what caused each and when.'),
  },
  runsWhileDialogOpen: true,
  handlesHungTab: true,
  budget: 'page',
  async handle({ action, index, url }, call) {
    const { session, config, deadline } = call;
    let snapshot: string | undefined;
    let loading: string | undefined;
    if (action === 'new') {
      const target = url === undefined ? undefined : normalizeUrl(url, config);
      const tab = await session.tabs.open();
      if (target) {
        // Opened as navigate opens it: a download, an error page or a server that sends nothing is said the same way.
        const opened = await openPage(target, undefined, { ...call, tab });
        if ('hung' in opened) throw tabHung(target);
        snapshot = opened.snapshot;
        if ('loading' in opened) loading = opened.loading;
        if (opened.downloads?.length) call.notices.push(`${target} is a file: it was saved as ${opened.downloads.map((file) => file.path).join(', ')}.`);
      }
    } else if (action === 'switch') {
      if (index === undefined) throw new BrowserToolError('invalid_input', '"switch" needs the index of a tab from "list".');
      const tab = await session.tabs.switchTo(index);
      if (!tab.pendingDialog) snapshot = (await tab.refs.snapshot()).formatted.text;
    } else if (action === 'close') {
      await session.tabs.close(index, deadline);
    }
    const tabs = await session.tabs.list();
    // The next call checks the tab again, and replaces it by an empty one if it is hung.
    if (tabs.some((tab) => tab.active && tab.title === NOT_RESPONDING)) session.suspectActiveTab();
    const downloads = action === 'list' ? session.downloads.list().map(listingOf) : [];
    return { tabs, ...(snapshot ? { snapshot } : {}), ...(loading ? { loading } : {}), ...(downloads.length ? { downloads } : {}) };
  },
});
