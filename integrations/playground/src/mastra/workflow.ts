import { createStep, createWorkflow } from '@mastra/core/workflows';
import { z } from 'zod';
import { browser } from './browser.js';

const FIELD_ROLES = ['textbox', 'searchbox', 'combobox', 'spinbutton'];

/** The ref of the first field in a snapshot whose label contains `label` (case-insensitive), as an agent would pick it. */
export function findField(snapshot: string, label: string): string | undefined {
  const wanted = label.toLowerCase();
  for (const line of snapshot.split('\n')) {
    const match = /^\s*((?:f\d+)?e\d+) (\w+) "((?:[^"\\]|\\.)*)"/.exec(line);
    if (match && FIELD_ROLES.includes(match[2]!) && match[3]!.toLowerCase().includes(wanted)) return match[1];
  }
  return undefined;
}

const navigate = createStep(browser.tools.browser_navigate);

const typeIntoField = createStep({
  id: 'type-into-field',
  description: 'Finds the field named in the workflow input in the snapshot, and types the text into it.',
  inputSchema: z.any(),
  outputSchema: z.any(),
  execute: async ({ inputData, getInitData, requestContext }) => {
    const { field, text } = getInitData<{ field: string; text: string }>();
    if (!inputData.ok) return inputData; // navigate failed: its error says why
    const ref = findField(inputData.snapshot, field);
    if (!ref) {
      const message = `The page has no text field whose label contains "${field}".`;
      return { ok: false, error: { code: 'element_not_found', message, hint: 'Check the labels in the browser_navigate step\'s snapshot.', retryable: false } };
    }
    const type = browser.tools.browser_type.execute!;
    // The same requestContext as the navigate step: both run in the same browser session.
    return type({ ref, text }, { requestContext } as Parameters<typeof type>[1]);
  },
});

/** Opens a page and fills one field found by its label: `{ url, field, text }`. */
export const fillFieldWorkflow = createWorkflow({
  id: 'fill-field',
  description: 'Opens a page and types text into the field whose label contains `field`.',
  inputSchema: z.object({ url: z.string(), field: z.string(), text: z.string() }),
  outputSchema: z.any(),
})
  .map(async ({ inputData }) => ({ url: inputData.url }))
  .then(navigate)
  .then(typeIntoField)
  .commit();
