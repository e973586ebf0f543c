import { z } from 'zod';
import { ensureEnabled, ensureVisible } from './preflight.js';
import { defineBrowserTool } from './defineTool.js';
import { effectsShape, observeAction } from './observe.js';
import { refSchema, resolveTarget } from './shared.js';

export const checkTool = defineBrowserTool({
  id: 'browser_check',
  description:
    'Set a checkbox, radio button or switch by ref to checked or unchecked. Safe to repeat: nothing happens if it is already in that state. Returns the state afterwards and what changed on the page.',
  input: z.object({
    ref: refSchema,
    checked: z.boolean().describe('true to check, false to uncheck.'),
  }),
  output: {
    ref: z.string(),
    checked: z.boolean().describe('The state after the action.'),
    ...effectsShape,
  },
  async handle({ ref, checked }, call) {
    const target = await resolveTarget(call, ref, 'check');
    await ensureVisible(target.locator, target.label);
    await ensureEnabled(target.locator, target.label);
    const effects = await observeAction(call, () => target.locator.setChecked(checked, { timeout: call.deadline.forStep() }));
    return { ref: target.ref, checked: await target.locator.isChecked().catch(() => checked), ...effects };
  },
});
