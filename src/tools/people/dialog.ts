import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { defineBrowserTool } from '../defineTool.js';

export const dialogTool = defineBrowserTool({
  id: 'browser_dialog',
  description:
    'Answer a confirm() or prompt() dialog that an action left open (its result lists it as "pending"). accept=true presses OK (with text for a prompt), false presses Cancel. Returns the page afterwards.',
  input: z.object({
    accept: z.boolean().describe('true for OK, false for Cancel.'),
    text: z.string().optional().describe('The answer to type into a prompt() dialog.'),
  }),
  output: {
    dialog: z.object({ type: z.string(), message: z.string(), handled: z.enum(['accepted', 'dismissed', 'pending']) }),
    url: z.string(),
    snapshot: z.string().describe('The page after the dialog closed.'),
  },
  runsWhileDialogOpen: true,
  async handle({ accept, text }, { page, tab, refs }) {
    const answered = await tab.answer(accept, text);
    if (!answered) throw new BrowserToolError('invalid_input', 'No dialog is waiting for an answer.', { hint: 'Take browser_snapshot to see the page.' });
    // The action that opened the dialog resumes now; let its effects land before looking.
    await page.waitForLoadState('domcontentloaded').catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { formatted } = await refs.snapshot(page);
    return { dialog: { type: answered.type, message: answered.message, handled: answered.handled }, url: page.url(), snapshot: formatted.text };
  },
});
