import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { defineBrowserTool } from '../defineTool.js';
import { effectsShape, observeAction } from '../helpers/observe.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

export const pressTool = defineBrowserTool({
  id: 'browser_press',
  description:
    'Press a key or chord ("Enter", "Escape", "ArrowDown", "Control+A") on the element with ref, or on whatever has focus. Returns what changed.',
  input: z.object({
    key: z.string().min(1),
    ref: refSchema.optional(),
  }),
  output: { pressed: z.string(), ...effectsShape },
  async handle({ key, ref }, call) {
    const timeout = call.deadline.forStep();
    const target = ref === undefined ? undefined : await resolveTarget(call, ref, 'press on');
    try {
      const effects = await observeAction(call, () => (target ? target.locator.press(key, { timeout }) : call.tab.page.keyboard.press(key)), {
        checkValidation: /Enter$/.test(key),
      });
      return { pressed: target ? `${key} on ${target.label}` : key, ...effects };
    } catch (error) {
      if (error instanceof Error && /Unknown key|Unknown keyCode/.test(error.message)) {
        throw new BrowserToolError('invalid_input', `"${key}" is not a key name.`, {
          hint: 'Use names like Enter, Escape, Tab, ArrowDown, PageDown, Backspace, or a single character; join modifiers with + (Control+A).',
        });
      }
      throw error;
    }
  },
});
