import { z } from 'zod';
import { BrowserToolError } from '../errors.js';
import { normalizeRef } from '../refs.js';
import { defineBrowserTool } from './defineTool.js';

export const snapshotTool = defineBrowserTool({
  id: 'browser_snapshot',
  description:
    'Read the current page as compact text: a header with title, URL and scroll position, then one line per element you can act on (ref, role, name, value, states such as checked/disabled/focused/required, link targets) with headings and short text for context. Refs like e12 are what browser_click, browser_type and browser_scroll take. By default only the visible part of the page (plus a margin) is listed, with a count of what lies above and below.',
  input: z.object({
    scope: z
      .enum(['viewport', 'page'])
      .optional()
      .describe('"viewport" (default): what is on screen. "page": the whole page, within the token budget.'),
    ref: z.string().max(64).optional().describe('Only list the part of the page inside this element, e.g. a dialog, form or long list.'),
    maxTokens: z.number().int().min(200).max(100_000).optional().describe('Token budget for the snapshot text. Lowest-value lines are cut first and the cut is reported.'),
  }),
  output: {
    snapshot: z.string().describe('The page as text.'),
    tokens: z.number().describe('Size of the snapshot text in tokens.'),
    refs: z.number().describe('Number of elements with a ref in the text.'),
  },
  async handle({ scope, ref, maxTokens }, { page, refs, config }) {
    const subtree = ref === undefined ? undefined : normalizeRef(ref);
    const { formatted } = await refs.snapshot(page, {
      scope: scope ?? 'viewport',
      maxTokens: maxTokens ?? config.snapshotMaxTokens,
      ref: subtree,
    });
    if (subtree && !formatted.text) {
      const whole = await refs.snapshot(page);
      throw new BrowserToolError('element_not_found', `There is no ${subtree} on this page.`, {
        hint: 'Use a ref from the snapshot included here.',
        snapshot: whole.formatted.text,
      });
    }
    return { snapshot: formatted.text, tokens: formatted.tokens, refs: formatted.refsShown };
  },
});
