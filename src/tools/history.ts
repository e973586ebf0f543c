import { z } from 'zod';
import { moveInHistory } from '../session/freshFrame.js';
import { defineBrowserTool } from './defineTool.js';
import { effectsShape, observeAction } from './observe.js';

export const historyTool = defineBrowserTool({
  id: 'browser_history',
  description: 'Go back or forward in the tab history, or reload the page. Returns the page you land on (URL and snapshot).',
  input: z.object({ action: z.enum(['back', 'forward', 'reload']) }),
  output: { moved: z.boolean().describe('False when there was no page to go back or forward to.'), ...effectsShape },
  budget: 'page',
  async handle({ action }, call) {
    const { page, deadline } = call;
    // The load policy (observeAction) decides when the page is usable; here only the move itself is waited for.
    const options = () => ({ waitUntil: 'commit' as const, timeout: deadline.forStep() });
    let moved = true;
    const urlBefore = page.url();
    const effects = await observeAction(call, async () => {
      if (action === 'reload') await page.reload(options());
      else {
        // Steps over the empty page a fresh frame left between two pages (freshFrame.ts).
        const response = await moveInHistory(page, action, options);
        // Playwright answers null both for "no history entry" and for same-document moves; the URL tells them apart.
        moved = response !== null || page.url() !== urlBefore;
      }
    });
    if (!moved && !effects.navigated) call.notices.push(`There is no page to go ${action} to.`);
    return { moved: moved || effects.navigated, ...effects };
  },
});
