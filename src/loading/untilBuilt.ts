/**
 * The first part of the load policy (settle.ts): until the page is built, that is parsed and able to render.
 * Two kinds of request can hold it there for as long as they go unanswered: a script or style sheet the parser
 * waits on (DOMContentLoaded does not come), and a style sheet linked in the head, which holds back rendering
 * after the page is parsed (Chromium paints nothing until it arrives, so no click, hover or screenshot can act
 * on the page; its snapshot still reads). Either is given up on after the cap, as an ad blocker would: a style
 * sheet is taken out of the document (sheetLinks.ts), and for a script the page is loaded again without it
 * (refusals.ts); a page that cannot be loaded again (a form's POST) is stopped where it is, which lets it render.
 */
import type { Page, Request } from 'playwright-core';
import type { SettlePolicy } from '../config.js';
import { warmCapture, type Loop } from '../snapshot/index.js';
import { stage } from '../stages.js';
import { sleep, type Deadline } from '../deadline.js';
import type { Refusals } from './refusals.js';
import { removeSheetLinks } from './sheetLinks.js';
import type { LoadingTab } from './tabLoading.js';
import { stopLoading } from './tabControl.js';
import { describeRequests, type Traffic } from './traffic.js';

/** Loads of the page, each refusing what was given up on before it: a page may hold its parser on more than one request that never answers. */
const MAX_RELOADS = 3;

/** How the first part ended: built (with what was given up on on the way), its document still arriving at the deadline, or the tab closed. */
export type Built = { kind: 'built'; giveUpMs: number; refused: string | undefined } | { kind: 'late' } | { kind: 'closed' };

/** Builds the capture's helpers while the renderer waits on the network (`warmUpWhileWaiting`). */
export interface WarmUp {
  now(): void;
  stop(): void;
}

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
  return { kind: 'built', giveUpMs, refused: describeRequests([...givenUp.values()].filter((request) => !newForms.has(request.url()))) };
}

/** How long no request has started or ended before a parser held by a script or style sheet counts as waiting on it. */
const PARSER_WAITING_MS = 10;

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
function blocking(traffic: Traffic): Request[] {
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

/**
 * When the page is loaded again anyway: the scripts and style sheets that went out and have waited the cap since
 * the page asked for them, though not yet that long on their server, and those the parser does not wait on (an
 * `async` one would hold the next load's settling instead). Refused with those given up on, they do not cost a
 * load, or a wait, of their own (a script held back behind the head's style sheet, and then stuck).
 */
export function overdueSinceRequested(traffic: Traffic, giveUpMs: number): Request[] {
  const kinds = new Set(['script', 'stylesheet']);
  return traffic.pendingRequests().filter((request) => kinds.has(request.resourceType()) && !traffic.waits.notSent(request) && traffic.waits.pendingFor(request) >= giveUpMs);
}

/**
 * How far short of the cap a script or style sheet still out may be, when others are given up on, for the page to
 * be loaded again only once it has reached the cap too (`reachingCapAlongside`).
 */
const ALONGSIDE_MS = 500;

/**
 * Before the page is loaded again without what was given up on: the scripts and style sheets still out whose cap
 * ends within `ALONGSIDE_MS` (they went out moments after the ones given up on: a connection still being opened,
 * the document's next part). Waits until their cap has passed (within the deadline) and returns those still
 * unanswered, to be refused by the same load. Asked for anew by the next load, each would wait a whole cap of its
 * own, and cost a load more.
 */
export async function reachingCapAlongside(traffic: Traffic, giveUpMs: number, givenUp: ReadonlySet<string>, deadline: Deadline): Promise<Request[]> {
  const near = blocking(traffic).filter((request) => !givenUp.has(request.url()) && !traffic.waits.notSent(request) && traffic.waits.outFor(request) >= giveUpMs - ALONGSIDE_MS);
  if (!near.length) return [];
  const until = Math.max(...near.map((request) => giveUpMs - traffic.waits.outFor(request)));
  await sleep(Math.min(until, deadline.forStep()));
  const pending = new Set(traffic.pendingRequests());
  return near.filter((request) => pending.has(request) && traffic.waits.outFor(request) >= giveUpMs);
}

/**
 * Builds the capture's helpers (warmUp.ts) while the renderer would sit idle: as soon as the parser waits on
 * a script or style sheet still on its way, or when `now()` is called (the page is parsed but the snapshot
 * must wait). Once per load: the ~60 ms it takes is then not spent by the capture.
 */
export function warmUpWhileWaiting(page: Page, traffic: Traffic): WarmUp {
  let warmed = false;
  let watching = true;
  const now = () => {
    if (warmed) return;
    warmed = true;
    warmCapture(page.mainFrame());
  };
  void (async () => {
    while (watching && !warmed) {
      if (traffic.documentArrived() && traffic.networkQuietFor() >= PARSER_WAITING_MS && blocking(traffic).length) now();
      await sleep(5);
    }
  })();
  return { now, stop: () => (watching = false) };
}
