/**
 * Whether a page that just committed is built (parsed and able to render), or held there by a request that does
 * not answer: the scripts and style sheets that can hold the parser or rendering, those of them given up on, and
 * the wait that ends at whichever comes first (untilBuilt.ts acts on it).
 */
import type { Page, Request } from 'playwright-core';
import { sleep, type Deadline } from '../deadline.js';
import type { Traffic } from './traffic.js';

/**
 * DOMContentLoaded and the page able to render; or the sign of a parser or of rendering held by a request given
 * up on (`blockingStuck`); or the deadline. The parser counts as held by such a request once nothing else it could
 * be waiting on is out: no request moved for the quiet window, or every script and style sheet still out has gone
 * past its time too; on a page that keeps loading other things, once the request has been out for twice its time.
 * A script the markup has the parser run counts at once: the parser waits on it now or will when it gets there;
 * so does another form of an address an earlier load gave up on (`refusedBefore`, refusals.ts).
 * A held page whose next load was refused (`stopped`) counts as built: its document will not be parsed further.
 */
export async function untilBuiltOrBlocked(
  page: Page,
  traffic: Traffic,
  deadline: Deadline,
  quietMs: number,
  giveUpMs: number,
  stopped: Promise<void>,
  refusedBefore: RefusedBefore,
): Promise<'built' | 'blocked' | 'late'> {
  let waiting = true;
  const parsed = page.waitForLoadState('domcontentloaded', { timeout: deadline.forStep() }).then(
    () => rendersOrBlocked(page, traffic, giveUpMs, () => waiting),
    () => 'late' as const,
  );
  const blocked = (async () => {
    while (waiting) {
      if (traffic.documentArrived() && parserHeld(traffic, quietMs, giveUpMs, refusedBefore)) return 'blocked' as const;
      await sleep(50);
    }
    return 'late' as const;
  })();
  const outcome = await Promise.race([parsed, blocked, stopped.then(() => 'built' as const)]);
  waiting = false;
  return outcome;
}

function parserHeld(traffic: Traffic, quietMs: number, giveUpMs: number, refusedBefore: RefusedBefore): boolean {
  const pending = blocking(traffic);
  const stuck = blockingStuck(traffic, giveUpMs, refusedBefore, pending);
  if (!stuck.length) return false;
  // Another form of an address an earlier load gave up on: its server did not answer the first.
  if (stuck.some(refusedBefore)) return true;
  // A script the markup has the parser run holds the page unparsed once the parser reaches it, if it does not
  // already: the sooner the page is loaded without it, the less of the load is spent for nothing.
  if (stuck.some((request) => traffic.parserRuns(request) === true)) return true;
  if (traffic.networkQuietFor() >= quietMs) return true;
  const out = pending.filter((request) => !traffic.waits.notSent(request));
  return out.every((request) => traffic.waits.outFor(request) >= giveUpMs) || stuck.some((request) => traffic.waits.outFor(request) >= 2 * giveUpMs);
}

/**
 * After DOMContentLoaded: 'built' once the page runs an animation frame (it renders) or no style sheet of its
 * own document is on its way; 'blocked' when it does not render and one has gone unanswered for `giveUpMs`.
 * A sheet on its way that does not hold rendering back (added by script, or switched on when it arrives)
 * lets the frame run at once, and is left to the quiet window.
 */
async function rendersOrBlocked(page: Page, traffic: Traffic, giveUpMs: number, waiting: () => boolean): Promise<'built' | 'blocked'> {
  const sheets = () => traffic.pendingRequests().filter((request) => request.resourceType() === 'stylesheet' && request.frame() === page.mainFrame());
  if (!sheets().length) return 'built';
  let rendered = false;
  // A page that cannot answer (navigated away, closed) is not held here: the rest of the policy deals with it.
  const frame = page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => done()))).then(
    () => (rendered = true),
    () => (rendered = true),
  );
  while (waiting() && !rendered) {
    const pending = sheets();
    if (!pending.length) return 'built';
    if (pending.some((request) => traffic.waits.outFor(request) >= giveUpMs)) return 'blocked';
    await Promise.race([frame, sleep(20)]);
  }
  return 'built';
}

/** True for a request given up on at once: another form of an address refused in an earlier load (refusals.ts). */
export type RefusedBefore = (request: Request) => boolean;

/**
 * Pending requests that can hold up the parser or rendering: scripts and style sheets (an image never does), but
 * not a script the parser is known not to wait on (`async` in the markup, or inserted by script).
 */
export function blocking(traffic: Traffic): Request[] {
  return traffic.pendingRequests().filter((request) => (request.resourceType() === 'script' && traffic.parserRuns(request) !== false) || request.resourceType() === 'stylesheet');
}

/**
 * Of those, the ones given up on: unanswered for `giveUpMs` (the settle cap) since they went out to their server.
 * A slow server's script or style sheet (an answer after a second or two) is waited for: loading the page without
 * it would show it broken, or unstyled, to save a second. Time a request spent held back by the browser (behind a
 * server's six connections, behind the head's style sheets, behind more urgent requests) is not its server's and
 * does not count, unless the browser has sent nothing at all for as long: then it waits on a server that takes no
 * connection. One held behind six requests to its server that do not answer (an image among them) goes out once
 * they are given up on: they, not it, are the ones returned. Another form of an address an earlier load gave up on
 * counts at once (`refusedBefore`).
 */
export function blockingStuck(traffic: Traffic, giveUpMs: number, refusedBefore: RefusedBefore, pending = blocking(traffic)): Request[] {
  const stalled = !traffic.waits.sentWithin(giveUpMs);
  const stuck = new Set<Request>();
  for (const request of pending) {
    if (refusedBefore(request)) {
      stuck.add(request);
      continue;
    }
    for (const candidate of traffic.waits.heldBehind(request) ?? [request]) {
      const waited = stalled && traffic.waits.notSent(candidate) ? traffic.waits.pendingFor(candidate) : traffic.waits.outFor(candidate);
      if (waited >= giveUpMs) stuck.add(candidate);
    }
  }
  return [...stuck];
}

