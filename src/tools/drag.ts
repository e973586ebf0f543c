import { z } from 'zod';
import { ensureVisible } from './preflight.js';
import { defineBrowserTool } from './defineTool.js';
import { effectsShape, observeAction } from './observe.js';
import { refSchema, resolveTarget } from './shared.js';

export const dragTool = defineBrowserTool({
  id: 'browser_drag',
  description: 'Drag one element onto another, both by ref (sortable lists, kanban cards, sliders, file drop zones within the page). Returns what changed.',
  input: z.object({
    from: refSchema.describe('Ref of the element to drag.'),
    to: refSchema.describe('Ref of the element to drop it on.'),
  }),
  output: { dragged: z.string(), ...effectsShape },
  async handle({ from, to }, call) {
    const source = await resolveTarget(call, from, 'drag');
    const target = await resolveTarget(call, to, 'drop on');
    await ensureVisible(source.locator, source.label);
    await ensureVisible(target.locator, target.label);
    const effects = await observeAction(call, () => source.locator.dragTo(target.locator, { timeout: call.deadline.forStep() }));
    return { dragged: `${source.label} onto ${target.label}`, ...effects };
  },
});
