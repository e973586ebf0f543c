import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { defineBrowserTool } from '../defineTool.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

const MAX_WAIT_MS = 60_000;
/** `seconds: 0` means "is it there now?": one look, not Playwright's "no timeout". */
const MIN_WAIT_MS = 100;

function waitMs(seconds: number | undefined): number {
  return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, (seconds ?? 10) * 1000));
}

export const waitTool = defineBrowserTool({
  id: 'browser_wait',
  description:
    'Wait for text to appear, text to disappear, an element (ref) to reach a state, or a number of seconds. Returns what was seen and a snapshot.',
  input: z.object({
    text: z.string().min(1).optional(),
    textGone: z.string().min(1).optional(),
    ref: refSchema.optional(),
    state: z.enum(['visible', 'hidden', 'enabled']).optional().describe('For ref; default "visible".'),
    seconds: z.number().min(0).max(60).optional().describe('Time to wait, or the limit for a condition (default 10).'),
  }),
  output: {
    seen: z.string().describe('What happened.'),
    snapshot: z.string(),
  },
  // The wait itself, and a moment for the snapshot after it.
  budget: ({ seconds }) => waitMs(seconds) + 500,
  waits: true,
  async handle({ text, textGone, ref, state, seconds }, call) {
    const { page } = call.tab;
    const conditions = [text, textGone, ref].filter((x) => x !== undefined).length;
    if (conditions > 1) throw new BrowserToolError('invalid_input', 'Give one condition: text, textGone or ref.');
    if (conditions === 0 && seconds === undefined) throw new BrowserToolError('invalid_input', 'Give a condition (text, textGone or ref) or a number of seconds.');
    const timeout = waitMs(seconds);
    let seen: string;
    try {
      if (text !== undefined) {
        await page.getByText(text).first().waitFor({ state: 'visible', timeout });
        seen = `The text ${JSON.stringify(text)} is visible.`;
      } else if (textGone !== undefined) {
        await page.getByText(textGone).first().waitFor({ state: 'hidden', timeout });
        seen = `The text ${JSON.stringify(textGone)} is gone.`;
      } else if (ref !== undefined) {
        const target = await resolveTarget(call, ref, 'wait for');
        const wanted = state ?? 'visible';
        if (wanted === 'enabled') {
          const deadline = Date.now() + timeout;
          while (!(await target.locator.isEnabled())) {
            if (Date.now() > deadline) throw new BrowserToolError('timeout', `${target.label} was still disabled after ${timeout / 1000} s.`);
            await page.waitForTimeout(100);
          }
        } else {
          await target.locator.waitFor({ state: wanted, timeout });
        }
        seen = `${target.label} is ${wanted}.`;
      } else {
        await page.waitForTimeout(timeout);
        seen = `Waited ${timeout / 1000} s.`;
      }
    } catch (error) {
      if (error instanceof BrowserToolError) throw error;
      if (error instanceof Error && error.name === 'TimeoutError') {
        const { formatted } = await call.tab.refs.snapshot();
        throw new BrowserToolError('timeout', `The condition did not happen within ${timeout / 1000} s.`, {
          hint: 'The page as it is now is in the snapshot. Wait longer, or act on what is there.',
          snapshot: formatted.text,
        });
      }
      throw error;
    }
    const { formatted } = await call.tab.refs.snapshot();
    return { seen, snapshot: formatted.text };
  },
});
