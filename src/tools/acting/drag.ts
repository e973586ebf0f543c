import type { Locator } from 'playwright-core';
import { z } from 'zod';
import type { Deadline } from '../../deadline.js';
import { BrowserToolError } from '../../errors.js';
import { elementNow, landing, placeAmong } from '../helpers/dragLanding.js';
import { dragLikeAPerson } from '../helpers/dragMoves.js';
import { ensureVisible } from '../helpers/preflight.js';
import { defineBrowserTool } from '../defineTool.js';
import { effectsShape, observeAction } from '../helpers/observe.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

const NOTHING_MOVED =
  'Nothing on the page changed after the drop. If the element should have moved: give its grip or "Move" handle as `from` if it has one, or use the other ways the page offers to move it (move buttons or menu items, or keys on the focused item).';

/**
 * Where the element is in its document (not the viewport: the drag may scroll), or null when it is gone. Read
 * as `placeAmong` reads: as the page stands, with the rest of the call's time.
 */
async function positionOf(locator: Locator, deadline: Deadline): Promise<{ x: number; y: number } | null> {
  const read = async () => {
    const el = await elementNow(locator);
    try {
      if (!el) return null;
      return await el.evaluate((node) => {
        const box = node.getBoundingClientRect();
        return { x: box.x + scrollX, y: box.y + scrollY };
      });
    } finally {
      await el?.dispose();
    }
  };
  return deadline.race(read(), 'reading where the dragged element stands', deadline.forStep()).catch(() => null);
}

/** The element is where it was: a grid that moves rows by their styles alone changes no text the diff sees. */
async function stayedPut(locator: Locator, before: { x: number; y: number } | null, deadline: Deadline): Promise<boolean> {
  const after = await positionOf(locator, deadline);
  return !!before && !!after && Math.abs(after.x - before.x) < 1 && Math.abs(after.y - before.y) < 1;
}

export const dragTool = defineBrowserTool({
  id: 'browser_drag',
  description:
    'Drag one element onto another by ref, as a person does with the mouse: reorders sortable lists, moves cards between columns, drops on drop zones. ' +
    'Dropped on a list item, it takes the item\'s place (lands after it when dragged down or right, before it when dragged up or left). Returns what changed.',
  input: z.object({
    from: refSchema.describe('Ref of the element to drag: an item, a card, or its grip.'),
    to: refSchema.describe('Ref of the item whose place it takes, or of a column or drop zone.'),
    position: z.enum(['before', 'after']).optional().describe("Land 'before' or 'after' `to` in its list instead."),
  }),
  output: {
    dragged: z.string().describe('What was dragged where.'),
    landed: z.string().optional().describe('Where the dragged element now stands among the items of its list, as the page shows them.'),
    ...effectsShape,
  },
  async handle({ from, to, position }, call) {
    const source = await resolveTarget(call, from, 'drag');
    const target = await resolveTarget(call, to, 'drop on');
    if (source.ref === target.ref) throw new BrowserToolError('invalid_input', `${source.label} cannot be dropped on itself.`, { hint: 'Pass as `to` the item whose place it should take, or the column or zone it should go to.' });
    await ensureVisible(source.locator, source.label);
    await ensureVisible(target.locator, target.label);
    const positionBefore = await positionOf(source.locator, call.deadline);
    const placeBefore = await placeAmong(source.locator, target.locator, call.deadline);
    let how = { released: '', byGrip: false };
    const effects = await observeAction(call, async () => {
      // A drag is dozens of moves at a hand's pace: its time runs from the last move the page took, so that a busy
      // machine makes it slower, while a page that stops answering still ends it within the action time.
      const progress = () => call.deadline.extend(call.config.timeout);
      how = await dragLikeAPerson(call.tab.page, source.locator, target.locator, { side: position, timeout: call.deadline.forStep(), progress });
    });
    const landed = effects.navigated ? undefined : landing(placeBefore, await placeAmong(source.locator, target.locator, call.deadline));
    const unchanged = !effects.navigated && !landed && !effects.changes?.split('\n').some((line) => !line.startsWith('~ scroll:'));
    if (unchanged && (await stayedPut(source.locator, positionBefore, call.deadline))) call.notices.push(NOTHING_MOVED);
    const held = how.byGrip ? ' (held by its grip)' : '';
    return { dragged: `${source.label}${held} onto ${target.label}, released over ${how.released}`, ...(landed ? { landed } : {}), ...effects };
  },
});
