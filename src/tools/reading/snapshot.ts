import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { normalizeRef } from '../../session/refs.js';
import { defineBrowserTool } from '../defineTool.js';
import { noteRead } from '../helpers/scrollView.js';
import { findByScrolling } from '../helpers/findByScrolling.js';
import { resolveTarget } from '../helpers/target.js';

export const snapshotTool = defineBrowserTool({
  id: 'browser_snapshot',
  description:
    'Read the page as compact text: title, URL, scroll position, then one line per element you can act on (ref, role, name, value, states, link target) with headings and short text. The other tools take these refs (e12). By default only the visible part is listed, with counts of what lies above and below (scroll, or use scope "page"). To reach a row of a long grid or list that draws only the rows in view, use find with the ref of the grid or list (or of a row in it): one call scrolls it to the text, in place of scrolling step by step.',
  input: z.object({
    scope: z
      .enum(['viewport', 'page'])
      .optional()
      .describe('"viewport" (default) or "page" (every control and heading, within maxTokens: 4,000 by default).'),
    ref: z.string().optional().describe('Only this element\'s part of the page (a dialog, form or list).'),
    find: z
      .string()
      .optional()
      .describe(
        'Only elements and text containing this, with their section and heading. When nothing matches, boxes that draw their rows only as they scroll (virtual grids and lists) are scrolled until the text is drawn, and left there so its refs work; the result says how far. With ref, only inside that element: give the ref of the grid or list, or of any row in it, when the text also appears elsewhere on the page (in the task or a heading).',
      ),
    maxTokens: z.number().int().min(200).max(100_000).optional().describe('Token budget; the least useful lines are cut first, and the cut is reported.'),
  }),
  output: {
    snapshot: z.string().describe('The page as text.'),
    tokens: z.number().describe('Size of the snapshot text in tokens.'),
    refs: z.number().describe('Number of elements with a ref in the text.'),
    scrolled: z.string().optional().describe('For a find that scrolled a grid or list to reach its text: which box, how far, and whether the text was drawn or the end reached.'),
    scrollSearch: z
      .object({
        found: z.boolean(),
        boxes: z.number(),
        steps: z.number(),
        px: z.number().describe('How far the box the search ended in moved (down is positive).'),
        reachedEnd: z.boolean(),
        stopped: z.enum(['time', 'steps']).optional(),
        skipped: z.number().describe('Boxes left alone because they hold the field being typed in.'),
      })
      .optional()
      .describe('The same search as data, for programs.'),
  },
  budget: 'page',
  describesBoundary: true,
  async handle({ scope, ref, find, maxTokens }, call) {
    const { tab, config } = call;
    const { refs } = tab;
    const subtree = ref === undefined ? undefined : normalizeRef(ref);
    const query = find?.trim() || undefined;
    const options = {
      scope: scope ?? 'viewport',
      maxTokens: maxTokens ?? (scope === 'page' && subtree === undefined && !query ? config.pageMaxTokens : config.snapshotMaxTokens),
      ref: subtree,
      find: query,
    } as const;
    let { capture, formatted } = await refs.snapshot(options);
    // Nothing matches: the text may be in a grid or list that has not drawn it yet (helpers/findByScrolling.ts).
    let search;
    if (query && formatted.matches === 0 && (formatted.text || !subtree)) {
      const scopeElement = subtree ? (await resolveTarget(call, subtree, 'find in')).locator : undefined;
      search = await findByScrolling(tab.page, scopeElement, query, call.deadline);
      // A ref inside the list (a row) stood for the list around it: the match is outside the ref, so the find looks page-wide.
      if (search && (search.found || search.stopped)) ({ capture, formatted } = await refs.snapshot(search.around ? { ...options, ref: undefined } : options));
      // Drawn in the box but in no line: text a person cannot see (hiddenText.ts) is left out of every snapshot.
      if (search?.found && formatted.matches === 0) search = { ...search, found: false, said: `${search.said}, but the text there is hidden from view and not listed` };
    }
    if (subtree && !formatted.text) {
      const whole = await refs.snapshot();
      throw new BrowserToolError('element_not_found', `There is no ${subtree} on this page.`, {
        hint: 'Use a ref from the snapshot included here.',
        snapshot: whole.formatted.text,
      });
    }
    noteRead(tab, capture.documentId, formatted.text);
    const scrolled = search ? (({ said, around, ...data }) => ({ scrolled: said, scrollSearch: data }))(search) : {};
    return { snapshot: formatted.text, tokens: formatted.tokens, refs: formatted.refsShown, ...scrolled };
  },
});
