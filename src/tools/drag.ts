import { z } from 'zod';
import { BrowserToolError } from '../errors.js';
import { dragLikeAPerson } from './dragMoves.js';
import { ensureVisible } from './preflight.js';
import { defineBrowserTool } from './defineTool.js';
import { effectsShape, observeAction } from './observe.js';
import { refSchema, resolveTarget } from './shared.js';

const NOTHING_MOVED =
  'Nothing on the page changed after the drop. If the element should have moved, drag it by its handle (a grip or "Move" button inside it) if it has one, or use the other ways the page offers to move it (move buttons or menu items, or keys on the focused item).';

export const dragTool = defineBrowserTool({
  id: 'browser_drag',
  description:
    'Drag one element onto another, both by ref, as a person drags with the mouse: reorders sortable lists, moves cards between kanban columns, drops onto drop zones. ' +
    'Dropped onto an item of a list, the dragged element takes its place (lands after it when dragged down or right, before it when dragged up or left) unless `position` says otherwise; dropped onto a column or zone, it moves there. Returns what changed.',
  input: z.object({
    from: refSchema.describe('Ref of the element to drag (a list item, a card, or its drag handle).'),
    to: refSchema.describe('Ref of the element to drop it on: an item whose place it should take, or a column, list or drop zone.'),
    position: z
      .enum(['before', 'after'])
      .optional()
      .describe("Where the dragged element should land next to `to` in a list: 'before' it or 'after' it (above or below in a vertical list, left or right in a row). Omit to take the target's place."),
  }),
  output: { dragged: z.string().describe('What was dragged where.'), ...effectsShape },
  async handle({ from, to, position }, call) {
    const source = await resolveTarget(call, from, 'drag');
    const target = await resolveTarget(call, to, 'drop on');
    if (source.ref === target.ref) throw new BrowserToolError('invalid_input', `${source.label} cannot be dropped on itself.`, { hint: 'Pass as `to` the item whose place it should take, or the column or zone it should go to.' });
    await ensureVisible(source.locator, source.label);
    await ensureVisible(target.locator, target.label);
    let released = '';
    const effects = await observeAction(call, async () => {
      released = await dragLikeAPerson(call.page, source.locator, target.locator, { side: position, timeout: call.deadline.forStep() });
    });
    if (!effects.navigated && !effects.changes?.split('\n').some((line) => !line.startsWith('~ scroll:'))) call.notices.push(NOTHING_MOVED);
    return { dragged: `${source.label} onto ${target.label}, released over ${released}`, ...effects };
  },
});
