import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { ensureVisible } from '../helpers/preflight.js';
import { defineBrowserTool } from '../defineTool.js';
import { effectsShape, observeAction } from '../helpers/observe.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

export const selectTool = defineBrowserTool({
  id: 'browser_select',
  description:
    'Choose options in a select, combobox or listbox by ref: by visible labels (preferred), option values, or 0-based index. Returns the selected options and what changed.',
  input: z.object({
    ref: refSchema,
    labels: z.array(z.string()).min(1).max(100).optional(),
    values: z.array(z.string()).min(1).max(100).optional(),
    index: z.number().int().min(0).max(10_000).optional(),
  }),
  output: {
    ref: z.string(),
    selected: z.array(z.string()).describe('Labels of the options selected after the action.'),
    ...effectsShape,
  },
  async handle({ ref, labels, values, index }, call) {
    const given = [labels, values, index].filter((x) => x !== undefined).length;
    if (given !== 1) throw new BrowserToolError('invalid_input', 'Give exactly one of labels, values or index.');
    const target = await resolveTarget(call, ref, 'select in');
    const { locator } = target;
    await ensureVisible(locator, target.label);
    const timeout = call.deadline.forStep();
    // Options by value, read before acting: a page may redraw the select on change (a date picker's month list),
    // and the old element is gone when the selection is reported.
    const optionLabels = await locator.evaluate((el) => (el instanceof HTMLSelectElement ? [...el.options].map((o) => [o.value, o.label] as [string, string]) : undefined));
    const native = optionLabels !== undefined;
    let chosen: string[] = [];

    const effects = await observeAction(call, async () => {
      if (native) {
        const choice = labels ? labels.map((label) => ({ label })) : values ? values.map((value) => ({ value })) : [{ index: index! }];
        try {
          chosen = await locator.selectOption(choice, { timeout });
        } catch (error) {
          // When every option asked for exists, the failure is elsewhere (a jump menu whose page did not come).
          const exists = (c: { index?: number; label?: string; value?: string }) =>
            c.index !== undefined ? c.index < optionLabels!.length : optionLabels!.some(([value, label]) => (c.label !== undefined ? label === c.label : value === c.value));
          if (choice.every(exists)) throw error;
          const options = optionLabels!.map(([, label]) => label);
          throw new BrowserToolError('invalid_input', `No such option in ${target.label}. Its options are: ${options.map((o) => JSON.stringify(o)).join(', ')}.`, {
            hint: 'Use one of the listed labels exactly.',
          });
        }
        return;
      }
      // ARIA widgets: open the combobox if needed, then click each option by its accessible name.
      if (values) throw new BrowserToolError('invalid_input', `${target.label} is not a native <select>; choose by labels or index.`);
      if (target.role === 'combobox' && (await locator.getAttribute('aria-expanded')) !== 'true') await locator.click({ timeout });
      const controlled = await locator.getAttribute('aria-controls');
      const scope = controlled ? call.tab.page.locator(`[id="${controlled}"]`) : target.role === 'listbox' ? locator : call.tab.page;
      const options = scope.getByRole('option');
      const picks = labels ? labels.map((label) => options.filter({ hasText: label }).first()) : [options.nth(index!)];
      for (const option of picks) {
        if ((await option.count()) === 0) {
          const names = await options.allInnerTexts().catch(() => []);
          throw new BrowserToolError('invalid_input', `No such option in ${target.label}. Visible options: ${names.slice(0, 30).map((n) => JSON.stringify(n.trim())).join(', ') || 'none'}.`, {
            hint: 'Use one of the listed labels exactly, or type into the combobox to filter it first.',
          });
        }
        await option.click({ timeout });
      }
    });

    const byValue = new Map(optionLabels);
    const selected = native ? chosen.map((value) => byValue.get(value) ?? value) : labels ?? [];
    return { ref: target.ref, selected, ...effects };
  },
});
