import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { runAction, settle, settleAction } from '../../loading/index.js';
import type { DialogEvent } from '../../session/tab.js';
import { defineBrowserTool } from '../defineTool.js';
import { documentNeverCame } from '../helpers/observe.js';

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
  async handle({ accept, text }, { tab, config, deadline, notices }) {
    if (!tab.pendingDialog) throw new BrowserToolError('invalid_input', 'No dialog is waiting for an answer.', { hint: 'Take browser_snapshot to see the page.' });
    const { page, refs } = tab;
    let answered: DialogEvent | undefined;
    // The script that opened the dialog resumes once it is answered: what it does then (a page it loads, requests
    // it makes, another dialog) is waited for as after any action.
    const run = await runAction(tab, async () => (answered = await tab.answer(accept, text)), { deadline, navigationTimeout: config.navigationTimeout });
    const dialog = { type: answered!.type, message: answered!.message, handled: answered!.handled };
    if (run.kind === 'neverCame') throw documentNeverCame(run.url, run.seconds, run.inNewTab);
    if (run.kind === 'dialog') {
      const next = tab.pendingDialog!;
      notices.push(`The page opened another ${next.type} dialog: ${JSON.stringify(next.message)}. Answer it with browser_dialog.`);
      return { dialog, url: page.url(), snapshot: '' };
    }
    const early = run.navigated ? (await settle(tab, deadline, config.settle, () => refs.capture())).snapshot : undefined;
    if (!run.navigated) await settleAction(tab, run.began, deadline, config.settle);
    const { formatted } = await refs.snapshot({}, early);
    return { dialog, url: page.url(), snapshot: formatted.text };
  },
});
