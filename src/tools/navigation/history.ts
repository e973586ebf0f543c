import { z } from 'zod';
import { historyTarget, moveInHistory, rescueTab } from '../../loading/index.js';
import { alsoHungNotice } from '../../session/tabs.js';
import { defineBrowserTool, type CallContext } from '../defineTool.js';
import { effectsShape, observeAction, type Effects } from '../helpers/observe.js';
import { openInPlaceOfHungTab } from '../helpers/opening.js';

type Action = 'back' | 'forward' | 'reload';

export const historyTool = defineBrowserTool({
  id: 'browser_history',
  description: 'Go back or forward in the tab history, or reload the page. Returns the page you land on (URL and snapshot).',
  input: z.object({ action: z.enum(['back', 'forward', 'reload']) }),
  output: { moved: z.boolean().describe('False when there was no page to go back or forward to.'), ...effectsShape },
  handlesHungTab: true,
  budget: 'page',
  async handle({ action }, call) {
    const { tab, deadline } = call;
    const { page } = tab;
    // A page whose script never ended after the last call keeps its renderer busy, and the page the move leads to
    // would be shown by that renderer: it is opened in a new tab instead, as navigate does.
    if ((await rescueTab(tab, { deadline })) === 'hung') return reopenInNewTab(action, call);
    // The load policy (observeAction) decides when the page is usable; here only the move itself is waited for.
    const options = () => ({ waitUntil: 'commit' as const, timeout: deadline.forStep() });
    let moved = true;
    const urlBefore = page.url();
    const effects = await observeAction(call, async () => {
      // Steps over the empty page a fresh frame left between two pages (loading/historyMoves.ts).
      const response = await moveInHistory(page, action, options);
      // Playwright answers null both for "no history entry" and for same-document moves; the URL tells them apart.
      if (action !== 'reload') moved = response !== null || page.url() !== urlBefore;
    });
    if (!moved && !effects.navigated) call.notices.push(`There is no page to go ${action} to.`);
    return { moved: moved || effects.navigated, ...effects };
  },
});

/** The tab does not answer: the page the move would land on is opened in a fresh tab in its place, cookies kept. */
async function reopenInNewTab(action: Action, call: CallContext): Promise<Effects & { moved: boolean }> {
  const target = await historyTarget(call.tab.page, action).catch(() => undefined);
  if (!target) {
    const { tab, alsoClosed } = await call.session.tabs.replace(call.tab);
    call.notices.push(
      `The tab stopped responding (a script of its page never ended) and was replaced by a new empty tab: the old page and its history are gone; cookies and logins were kept. There was no page to go ${action} to.${alsoHungNotice(alsoClosed)}`,
    );
    return { moved: false, url: tab.page.url(), navigated: true, urlChanged: true };
  }
  const what = action === 'reload' ? 'its page was loaded again' : `the page ${action === 'back' ? 'before' : 'after'} it was opened`;
  const opened: Pick<Effects, 'loading' | 'dialogs' | 'downloads'> & { url: string; snapshot: string } = await openInPlaceOfHungTab(target, undefined, call, what);
  const { url, snapshot, loading, dialogs, downloads } = opened;
  return { moved: true, url, navigated: true, urlChanged: true, snapshot, ...(loading ? { loading } : {}), ...(dialogs ? { dialogs } : {}), ...(downloads ? { downloads } : {}) };
}
