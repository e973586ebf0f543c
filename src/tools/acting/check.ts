import type { Locator } from 'playwright-core';
import { z } from 'zod';
import { ensureEnabled, ensureVisible } from '../helpers/preflight.js';
import { defineBrowserTool } from '../defineTool.js';
import { effectsShape, observeAction } from '../helpers/observe.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

/** How long a checkbox that did not change at once may take to show the state it was clicked into. */
const SETTLE_MS = 1_000;

async function settlesTo(locator: Locator, checked: boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  do {
    if ((await locator.isChecked().catch(() => !checked)) === checked) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (Date.now() < until);
  return false;
}

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
    const effects = await observeAction(call, async () => {
      try {
        await target.locator.setChecked(checked, { timeout: call.deadline.forStep() });
      } catch (error) {
        // A component (Ionic's toggle) takes the click and shows its new state a frame later; Playwright looks at once.
        if (!/did not change its state/.test(String(error)) || !(await settlesTo(target.locator, checked, Math.min(SETTLE_MS, call.deadline.forStep())))) throw error;
      }
    });
    return { ref: target.ref, checked: await target.locator.isChecked().catch(() => checked), ...effects };
  },
});
