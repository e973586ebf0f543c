import { z } from 'zod';
import { ensureEnabled, ensureNotBlocked, ensureVisible } from '../helpers/preflight.js';
import { defineBrowserTool } from '../defineTool.js';
import { effectsShape, observeAction } from '../helpers/observe.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

export const clickTool = defineBrowserTool({
  id: 'browser_click',
  description:
    'Click an element by ref. Returns what the click caused: a new page (with its snapshot), a new tab, a dialog, a download, or the changes on the page.',
  input: z.object({
    ref: refSchema,
    button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button. Default left.'),
    clickCount: z.number().int().min(1).max(3).optional().describe('2 for a double click. Default 1.'),
    modifiers: z
      .array(z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift']))
      .max(4)
      .optional()
      .describe('Keys held while clicking.'),
  }),
  output: {
    ref: z.string().describe('The ref that was clicked (differs from the one sent when the element was re-rendered).'),
    clicked: z.string().describe('Role and name of the clicked element.'),
    ...effectsShape,
  },
  async handle({ ref, button, clickCount, modifiers }, call) {
    const target = await resolveTarget(call, ref, 'click');
    const { label } = target;
    await ensureVisible(target.locator, label);
    await ensureEnabled(target.locator, label);
    await ensureNotBlocked(target.locator, label, call.deadline.forStep());
    // A link that targets another window opens a tab; wait for it even on a slow machine.
    const opensTab = await target.locator
      .evaluate((el) => {
        const link = el.closest('a[href]') as HTMLAnchorElement | null;
        return !!link && !!link.target && !['_self', '_top', '_parent'].includes(link.target.toLowerCase());
      })
      .catch(() => false);
    const effects = await observeAction(call, () => target.locator.click({ button, clickCount, modifiers, timeout: call.deadline.forStep() }), {
      checkValidation: true,
      expectPopup: opensTab && !modifiers?.length && (button ?? 'left') === 'left',
    });
    return { ref: target.ref, clicked: label, ...effects };
  },
});
