import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { normalizeRef } from '../../session/refs.js';
import { defineBrowserTool } from '../defineTool.js';
import { noteRead } from '../helpers/scrollView.js';

export const snapshotTool = defineBrowserTool({
  id: 'browser_snapshot',
  description:
    'Read the page as compact text: title, URL, scroll position, then one line per element you can act on (ref, role, name, value, states, link target) with headings and short text. The other tools take these refs (e12). By default only the visible part is listed, with counts of what lies above and below (scroll, or use scope "page").',
  input: z.object({
    scope: z
      .enum(['viewport', 'page'])
      .optional()
      .describe('"viewport" (default) or "page" (every control and heading, within maxTokens: 4,000 by default).'),
    ref: z.string().optional().describe('Only this element\'s part of the page (a dialog, form or list).'),
    find: z.string().optional().describe('Only elements and text containing this, with their section and heading.'),
    maxTokens: z.number().int().min(200).max(100_000).optional().describe('Token budget; the least useful lines are cut first, and the cut is reported.'),
  }),
  output: {
    snapshot: z.string().describe('The page as text.'),
    tokens: z.number().describe('Size of the snapshot text in tokens.'),
    refs: z.number().describe('Number of elements with a ref in the text.'),
  },
  budget: 'page',
  describesBoundary: true,
  async handle({ scope, ref, find, maxTokens }, { tab, config }) {
    const { refs } = tab;
    const subtree = ref === undefined ? undefined : normalizeRef(ref);
    const { capture, formatted } = await refs.snapshot({
      scope: scope ?? 'viewport',
      maxTokens: maxTokens ?? (scope === 'page' && subtree === undefined && !find ? config.pageMaxTokens : config.snapshotMaxTokens),
      ref: subtree,
      find: find?.trim() || undefined,
    });
    if (subtree && !formatted.text) {
      const whole = await refs.snapshot();
      throw new BrowserToolError('element_not_found', `There is no ${subtree} on this page.`, {
        hint: 'Use a ref from the snapshot included here.',
        snapshot: whole.formatted.text,
      });
    }
    noteRead(tab, capture.documentId, formatted.text);
    return { snapshot: formatted.text, tokens: formatted.tokens, refs: formatted.refsShown };
  },
});
