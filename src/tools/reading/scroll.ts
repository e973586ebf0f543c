import { z } from 'zod';
import { defineBrowserTool } from '../defineTool.js';
import { refSchema, resolveTarget } from '../helpers/target.js';
import { newPartOf, noteRead } from '../helpers/scrollView.js';

interface ScrollState {
  x: number;
  y: number;
  maxX: number;
  maxY: number;
  scrollable: boolean;
}

export const scrollTool = defineBrowserTool({
  id: 'browser_scroll',
  description:
    'Scroll the page, or inside an element (ref): a scrollable box, or a widget whose content scrolls inside it (a grid or list that shows only some rows at a time). A ref with nothing to scroll is brought into view. Returns the position, whether top or bottom was reached, and the lines that came into view (lines read before on this page are counted, not repeated; browser_snapshot shows the whole view).',
  input: z.object({
    direction: z.enum(['down', 'up', 'right', 'left']).optional().describe('Default "down".'),
    amount: z
      .union([z.enum(['page', 'half']), z.number().int().min(1).max(100_000)])
      .optional()
      .describe('"page" (default), "half", or pixels.'),
    ref: refSchema.optional(),
  }),
  output: {
    scrolled: z.string().describe('What moved: "page", or the element ref.'),
    x: z.number(),
    y: z.number().describe('Scroll offset from the top, in px.'),
    atTop: z.boolean(),
    atBottom: z.boolean(),
    snapshot: z.string().describe('What is visible after scrolling.'),
    cameIntoView: z
      .string()
      .optional()
      .describe('The lines of the view not read before on this page, each with the lines it sits in (its section, a table\'s header row). The model reads these in place of the whole view.'),
    unchanged: z.number().optional().describe('Lines of the view left out of cameIntoView because they were read before.'),
  },
  async handle({ direction, amount, ref }, call) {
    const dir = direction ?? 'down';
    const size = amount ?? 'page';
    const vertical = dir === 'down' || dir === 'up';
    const sign = dir === 'down' || dir === 'right' ? 1 : -1;
    let scrolled = 'page';
    let state: ScrollState;

    if (ref !== undefined) {
      const target = await resolveTarget(call, ref, 'scroll');
      scrolled = target.label;
      state = await target.locator.evaluate(
        (target, { vertical, sign, size }) => {
          // A widget often scrolls a part of itself (a grid's body under its header): the largest such part.
          // No inner functions: the page has no helper for the names bundlers give them.
          let el: Element | undefined;
          let largest = -1;
          for (const node of [target, ...target.querySelectorAll('*')]) {
            if (!(vertical ? node.scrollHeight > node.clientHeight : node.scrollWidth > node.clientWidth)) continue;
            const style = getComputedStyle(node);
            if (!/(auto|scroll|overlay)/.test(vertical ? style.overflowY : style.overflowX)) continue;
            if (node === target) {
              el = target;
              break;
            }
            if (node.clientWidth * node.clientHeight > largest) {
              largest = node.clientWidth * node.clientHeight;
              el = node;
            }
          }
          if (!el) {
            target.scrollIntoView({ block: 'center', inline: 'nearest' });
            const root = document.scrollingElement ?? document.documentElement;
            return { x: scrollX, y: scrollY, maxX: root.scrollWidth - innerWidth, maxY: root.scrollHeight - innerHeight, scrollable: false };
          }
          const extent = vertical ? el.clientHeight : el.clientWidth;
          const step = size === 'page' ? extent * 0.9 : size === 'half' ? extent / 2 : Number(size);
          el.scrollBy({ left: vertical ? 0 : sign * step, top: vertical ? sign * step : 0, behavior: 'instant' });
          return { x: el.scrollLeft, y: el.scrollTop, maxX: el.scrollWidth - el.clientWidth, maxY: el.scrollHeight - el.clientHeight, scrollable: true };
        },
        { vertical, sign, size },
      );
      if (!state.scrollable) scrolled = `page (to bring ${scrolled} into view)`;
    } else {
      state = await call.tab.page.evaluate(
        ({ vertical, sign, size }) => {
          const extent = vertical ? innerHeight : innerWidth;
          // A page step keeps a little overlap so no line is skipped between two snapshots.
          const step = size === 'page' ? extent * 0.9 : size === 'half' ? extent / 2 : Number(size);
          scrollBy({ left: vertical ? 0 : sign * step, top: vertical ? sign * step : 0, behavior: 'instant' });
          const root = document.scrollingElement ?? document.documentElement;
          return { x: scrollX, y: scrollY, maxX: root.scrollWidth - innerWidth, maxY: root.scrollHeight - innerHeight, scrollable: true };
        },
        { vertical, sign, size },
      );
    }
    // Let scroll listeners (lazy loading, sticky headers) react before the snapshot.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { capture, formatted } = await call.tab.refs.snapshot();
    const part = newPartOf(call.tab, capture.documentId, formatted.text);
    noteRead(call.tab, capture.documentId, formatted.text);
    return {
      scrolled,
      x: Math.round(state.x),
      y: Math.round(state.y),
      atTop: state.y <= 0,
      atBottom: state.y >= state.maxY - 1,
      snapshot: formatted.text,
      ...part,
    };
  },
});
