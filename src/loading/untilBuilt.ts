/**
 * The first part of the load policy (settle.ts): until the page is built, that is parsed and able to render.
 * Two kinds of request can hold it there for as long as they go unanswered: a script or style sheet the parser
 * waits on (DOMContentLoaded does not come), and a style sheet linked in the head, which holds back rendering
 * after the page is parsed (Chromium paints nothing until it arrives, so no click, hover or screenshot can act
 * on the page; its snapshot still reads). Either is given up on after the cap, as an ad blocker would: a style
 * sheet is taken out of the document (sheetLinks.ts), and for a script the page is loaded again without it
 * (refusals.ts); a page that cannot be loaded again (a form's POST) is stopped where it is, which lets it render.
 * This file decides; what holds the page is read by builtOrBlocked.ts, and what a second load refuses besides by
 * refusedAlongside.ts.
 */
import type { Request } from 'playwright-core';
import type { SettlePolicy } from '../config.js';
import type { Loop } from '../snapshot/index.js';
import { stage } from '../stages.js';
import type { Deadline } from '../deadline.js';
import { blockingStuck, untilBuiltOrBlocked } from './builtOrBlocked.js';
import type { WarmUp } from './captureWarmUp.js';
import { overdueSinceRequested, reachingCapAlongside } from './refusedAlongside.js';
import type { Refusals } from './refusals.js';
import { removeSheetLinks } from './sheetLinks.js';
import type { LoadingTab } from './tabLoading.js';
import { stopLoading } from './tabControl.js';

/** Loads of the page, each refusing what was given up on before it: a page may hold its parser on more than one request that never answers. */
const MAX_RELOADS = 3;

/** How the first part ended: built (with what was given up on on the way), its document still arriving at the deadline, or the tab closed. */
export type Built = { kind: 'built'; giveUpMs: number; refused: Request[] } | { kind: 'late' } | { kind: 'closed' };

/**
 * Waits until the page that just committed is built. A script or style sheet the parser or rendering waits on is
 * given up on after the cap, or half the call's time if less: a style sheet is taken out of the page; for a script
 * the page is loaded again without it (by `refusals`), in the time left. The page loaded again may be held by
 * another one it had not reached before. A page held on one document (`loop`) is not loaded again.
 */
export async function untilBuilt(tab: LoadingTab, deadline: Deadline, policy: SettlePolicy, loop: Loop, refusals: Refusals, warmUp: WarmUp | undefined): Promise<Built> {
  const page = tab.page;
  const traffic = tab.loading.traffic;
  const giveUpMs = Math.min(policy.maxMs, deadline.forStep() / 2);
  const givenUp = new Map<string, Request>();
  // Another form of an address already given up on (a cache-busting query) is refused too, but is one request to the model.
  const newForms = new Set<string>();
  for (;;) {
    const outcome = await stage('load: until parsed', () => untilBuiltOrBlocked(page, traffic, deadline, policy.quietMs, giveUpMs, loop.stopped, refusals.refusedBefore)).finally(() => warmUp?.stop());
    if (page.isClosed()) return { kind: 'closed' };
    if (outcome === 'late') return { kind: 'late' };
    if (outcome === 'built') break;
    const stuck = blockingStuck(traffic, giveUpMs, refusals.refusedBefore);
    for (const request of stuck) {
      if (refusals.refusedBefore(request)) newForms.add(request.url());
      givenUp.set(request.url(), request);
    }
    // Style sheets alone: taken out of the document, which then renders (and its parser goes on) without a second
    // load. Not when other requests to their server wait for a connection they hold: taking a <link> out does
    // not end its request, so those would go on waiting behind it.
    const sheetsAlone = stuck.every((request) => request.resourceType() === 'stylesheet' && request.frame() === page.mainFrame() && !traffic.waits.connectionsFull(request.url()));
    if (stuck.length && sheetsAlone && (await removeSheetLinks(page.mainFrame(), stuck))) {
      traffic.giveUp(stuck);
      continue;
    }
    if ((refusals.reloads === 0 || (refusals.reloads < MAX_RELOADS && deadline.forStep() > 2 * giveUpMs)) && traffic.documentMethod() === 'GET' && !loop.held()) {
      for (const request of overdueSinceRequested(traffic, giveUpMs)) givenUp.set(request.url(), request);
      for (const request of await reachingCapAlongside(traffic, giveUpMs, new Set(givenUp.keys()), deadline)) givenUp.set(request.url(), request);
      loop.ownLoad();
      await stage('load: again, refusing', () => refusals.reload(page, [...givenUp.keys()], deadline));
      continue;
    }
    await stopLoading(page);
    break;
  }
  return { kind: 'built', giveUpMs, refused: [...givenUp.values()].filter((request) => !newForms.has(request.url())) };
}
