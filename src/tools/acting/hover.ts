import { z } from 'zod';
import { ensureVisible } from '../helpers/preflight.js';
import { defineBrowserTool } from '../defineTool.js';
import { effectsShape, observeAction } from '../helpers/observe.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

export const hoverTool = defineBrowserTool({
  id: 'browser_hover',
  description: 'Move the mouse over an element by ref, to open a hover menu or show a tooltip. Returns what appeared on the page.',
  input: z.object({ ref: refSchema }),
  output: { hovered: z.string(), ...effectsShape },
  async handle({ ref }, call) {
    const target = await resolveTarget(call, ref, 'hover');
    await ensureVisible(target.locator, target.label);
    const effects = await observeAction(call, () => target.locator.hover({ timeout: call.deadline.forStep() }));
    return { hovered: target.label, ...effects };
  },
});
