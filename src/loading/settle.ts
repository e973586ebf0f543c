/**
 * The load policy, made for agents on the real web: a navigation is done when its document is parsed and
 * either `load` fired or the page's own requests went quiet for a moment (or a short cap passed). A stuck ad,
 * tracker or font then costs half a second at most, not a timeout, and a tag manager's scripts from other sites
 * cost nothing; what is still in flight is reported in one line, not as an error. `timeout` is kept for the
 * document itself not arriving (arrive.ts). Two parts, one after the other: until the page is built (parsed and
 * able to render: untilBuilt.ts), then until what shapes it is quiet (quiet.ts).
 */
import type { SettlePolicy } from '../config.js';
import type { Deadline } from '../deadline.js';
import { holdIfLooping, markHeld, type Loop } from '../snapshot/index.js';
import { untilQuiet, type EarlySnapshot } from './quiet.js';
import { Refusals } from './refusals.js';
import { settledAs, type Settled } from './settled.js';
import type { LoadingTab } from './tabLoading.js';
import { warmUpWhileWaiting } from './captureWarmUp.js';
import { untilBuilt } from './untilBuilt.js';

export type { EarlySnapshot, SettlePolicy, Settled };

/**
 * Waits until the page that just committed is usable, by the policy above. A parser blocked by a script or
 * stylesheet that does not answer (the document has arrived, no answer within the cap, nothing else moves,
 * DOMContentLoaded does not come) would leave the page half-built, and a style sheet in its head that does not
 * answer leaves it unable to render (nothing can be clicked). Style sheets alone are taken out of the document,
 * which then renders and parses on; a script is refused by loading the page once more without it, as an ad
 * blocker would (untilBuilt.ts); a page that cannot be loaded again (a form's POST) is stopped where it is,
 * which lets it render. A page that keeps loading itself again (a reload or refresh loop) is held on one
 * document and read as it stands.
 */
export async function settle<T = never>(tab: LoadingTab, deadline: Deadline, policy: SettlePolicy, early?: EarlySnapshot<T>): Promise<Settled<T>> {
  const page = tab.page;
  // A page that keeps loading itself again would never be parsed for long: it is held on one document.
  const loop = holdIfLooping(page, tab.holds);
  try {
    const settled = await settleUnlessLooping(tab, deadline, policy, loop, early);
    if (!loop.held() || !settled.parsed || page.isClosed()) return settled;
    // Held: its snapshot is taken on the held document, once it is parsed (or stopped), and says that the page was stopped.
    await loop.parsedOrStopped(deadline.forStep());
    await markHeld(page);
    const { snapshot: _dropped, ...rest } = settled;
    const snapshot = early ? await early().catch(() => undefined) : undefined;
    return { ...rest, ...(snapshot !== undefined ? { snapshot } : {}) };
  } finally {
    await loop.release();
  }
}

/** Built (untilBuilt.ts), then quiet (quiet.ts), then what came of it (settled.ts); requests refused on the way stay refused until then. */
async function settleUnlessLooping<T>(tab: LoadingTab, deadline: Deadline, policy: SettlePolicy, loop: Loop, early?: EarlySnapshot<T>): Promise<Settled<T>> {
  const refusals = new Refusals();
  try {
    // Helpers of the snapshot to come are built while the page waits on the network.
    const warmUp = early ? warmUpWhileWaiting(tab.page, tab.loading.traffic) : undefined;
    const built = await untilBuilt(tab, deadline, policy, loop, refusals, warmUp);
    const quiet = built.kind === 'built' ? await untilQuiet(tab, deadline, policy, { warmUp, early }) : undefined;
    return settledAs(tab.loading.traffic, built, quiet);
  } finally {
    await refusals.end();
  }
}
