/**
 * The second part of the load policy (settle.ts), once the page is built: until the requests that shape it went
 * quiet for a moment, or `load` fired with nothing awaited in flight, or the cap passed. Requests the page is not
 * waited for (other sites' code, frames out of view, polls) do not count; what is still in flight is reported in
 * one line (settled.ts). The snapshot the caller returns may be taken meanwhile, and kept when the page did not
 * change while it was taken (`snapshotIfStill`). After an action that stayed on the page, the same rules wait for
 * what the action asked for (`settleAction`).
 */
import type { Frame, Page, Request } from 'playwright-core';
import type { SettlePolicy } from '../config.js';
import { sleep, type Deadline } from '../deadline.js';
import { changedSinceWatch, frameInView, watchChanges } from '../snapshot/index.js';
import { stage, stageSync } from '../stages.js';
import type { LoadingTab } from './tabLoading.js';
import { shapesThePage, type Traffic } from './traffic.js';
import type { WarmUp } from './captureWarmUp.js';

/** What the quiet part hands on: the early snapshot, when one was kept. */
export interface Quieted<T> {
  /** What `early` took during the quiet window, when the page did not change while it was taken. */
  snapshot?: T;
}

/**
 * Takes the snapshot the caller will return (without remembering it anywhere). Given to `settle`, it is taken
 * while the page settles, as soon as nothing but the page's own scripts is still arriving, or what is left has
 * gone silent (`mayTakeEarly`): when nothing changed while it was taken, the wait and the snapshot overlap
 * instead of adding up.
 */
export type EarlySnapshot<T> = () => Promise<T>;

/** What the quiet part is handed: the capture's warm-up begun while the page was built, and the snapshot to take meanwhile. */
export interface QuietOptions<T> {
  warmUp: WarmUp | undefined;
  early: EarlySnapshot<T> | undefined;
}

/** Waits until the built page is quiet (see above); the early snapshot, when one was kept, comes with it. */
export async function untilQuiet<T>(tab: LoadingTab, deadline: Deadline, policy: SettlePolicy, { warmUp, early }: QuietOptions<T>): Promise<Quieted<T>> {
  const page = tab.page;
  const traffic = tab.loading.traffic;
  // The snapshot cannot begin yet: build its helpers while the page waits.
  if (warmUp && !mayTakeEarly(traffic, policy, 0)) warmUp.now();
  const capEnds = Date.now() + Math.min(policy.maxMs, deadline.forStep());
  let loadedAt: number | undefined;
  let loadAwaited = true;
  const loaded = page
    .waitForLoadState('load', { timeout: Math.max(0, capEnds - Date.now()) })
    .then(() => void (loadedAt ??= Date.now()), () => {})
    .finally(() => (loadAwaited = false));
  // `load` ends the wait only with nothing awaited in flight and nothing started since: a page's own data
  // request (an app fetching what it shows once its shell has loaded) is waited for like any other.
  const settled = () => networkSettled(traffic, policy) || (loadedAt !== undefined && awaitedInFlight(traffic) === 0 && traffic.awaitedQuietFor() >= Date.now() - loadedAt);
  let attempts = 0;
  let taken: T | undefined;
  for (let round = 0; ; round++) {
    let quietWait = true;
    let taking: Promise<void> | undefined;
    let placing: Promise<void> | undefined;
    taken = undefined;
    const quiet = (async () => {
      while (quietWait && !settled() && taken === undefined) {
        // Frames found out of view are not waited for (FrameDocuments.place); each is looked up once.
        const toPlace = placing ? [] : framesToPlace(traffic);
        if (toPlace.length) placing = placeFrames(page, toPlace, traffic).finally(() => (placing = undefined));
        const begin = early && !taking && attempts < EARLY_ATTEMPTS ? mayTakeEarly(traffic, policy, attempts) : undefined;
        if (early && begin) {
          attempts++;
          stageSync(`load: early snapshot begun (${begin})`, () => {}); // when, for benchmarks and tests
          taking = snapshotIfStill(page, traffic, policy, early, () => !quietWait).then((value) => {
            taken = value;
            if (value === undefined) taking = undefined; // dropped: the next quiet moment may try again
          });
        }
        // Until the snapshot starts, look often: it should start the moment the last such request is answered.
        // Then wake when the quiet window would end, or at `load`, so the wait is not longer than the window.
        const nap = sleep(early && !taking ? 5 : Math.min(25, quietIn(traffic, policy)));
        await (loadAwaited ? Promise.race([nap, loaded]) : nap);
      }
    })();
    const ended = await stage('load: load or quiet', () => Promise.race([sleep(Math.max(0, capEnds - Date.now())).then(() => 'cap' as const), quiet]));
    quietWait = false;
    if (ended === 'cap') stageSync('load: cap reached', () => {}); // the page never settled: for benchmarks and tests
    // Begun before the page settled: it is the settled page's snapshot when nothing changed while it was taken.
    if (taking) await stage('load: early snapshot', () => taking!);
    // The page began an awaited request while the snapshot was taken (its app asking for its data): wait once more.
    if (round > 0 || settled() || Date.now() >= capEnds) break;
    stageSync('load: a request began during the snapshot', () => {});
  }
  if (taken !== undefined) stageSync('load: early snapshot kept', () => {});
  stageSync(`load: last waited for (${traffic.lastAwaitedKind()})`, () => {}); // what held the page, for benchmarks
  return taken !== undefined ? { snapshot: taken } : {};
}

/**
 * After an action that stayed on the page (a search button, "load more", a filter): waits for what the action
 * made the page ask for, by the rules above, so that the result shows what it brought: until each awaited
 * request begun since `since` has its answer and 50 ms passed, or those still out were silent for the quiet
 * window, or the cap. Requests begun before the action (a long poll) and polls are not waited for.
 */
export async function settleAction(tab: LoadingTab, since: number, deadline: Deadline, policy: SettlePolicy): Promise<void> {
  const traffic = tab.loading.traffic;
  if (!awaitedInFlightSince(traffic, since)) return;
  const capEnds = Date.now() + Math.min(policy.maxMs, deadline.forStep());
  await stage('action: its requests', async () => {
    while (Date.now() < capEnds && !networkSettled(traffic, policy, awaitedInFlightSince(traffic, since))) await sleep(10);
  });
}

/**
 * Early snapshots tried per load: the first may begin while the page's scripts are still arriving; one dropped
 * because the page changed or a slow request answered may be followed by two more.
 */
const EARLY_ATTEMPTS = 3;

/**
 * When the snapshot may start before the page has settled, so that the capture runs while the wait goes on
 * instead of after it:
 * - once every request that shapes the page and is waited for has answered (`networkSettled`);
 * - or once those still out have been silent for half the quiet window (slow or stuck);
 * - for the first try only, as soon as the only requests still out are the page's own scripts and data
 *   requests: what they do when they answer runs as script in the page, where the change watch sees it, and
 *   many (analytics sending beacons) change nothing there. Once one such try was dropped, the next waits for
 *   them.
 */
function mayTakeEarly(traffic: Traffic, policy: SettlePolicy, attempts: number): 'answered' | 'silent' | 'scripts out' | undefined {
  if (awaitedInFlight(traffic) === 0) return 'answered';
  if (traffic.awaitedQuietFor() >= policy.quietMs / 2) return 'silent';
  if (attempts === 0 && unseenInFlight(traffic) === 0) return 'scripts out';
  return undefined;
}

/**
 * Takes the snapshot while the page settles, and keeps it if nothing it shows moved: from before the capture
 * began until the page counted as settled (or `over()`: `load` fired, or the cap), the page changed nothing
 * (changes.ts) and no request answered whose effect the watch cannot see (a style sheet, a frame's).
 * Each time a script or data request of the page answers, the watch is read at once: a snapshot the page has
 * already changed is dropped then, so that the next one may begin.
 */
async function snapshotIfStill<T>(page: Page, traffic: Traffic, policy: SettlePolicy, take: EarlySnapshot<T>, over: () => boolean): Promise<T | undefined> {
  const began = Date.now();
  // Not awaited: the page runs our scripts in the order sent, so the watch starts before the capture does.
  const watching = watchChanges(page);
  const taken = await take().catch(() => undefined);
  if (!(await watching)) return undefined;
  let looked = began;
  while (taken !== undefined && !over() && !networkSettled(traffic, policy) && !traffic.unseenActivitySince(began)) {
    if (traffic.shapingActivitySince(looked)) {
      looked = Date.now();
      if (await changedSinceWatch(page, true)) break;
    }
    await sleep(Math.min(10, quietIn(traffic, policy)));
  }
  const changed = await changedSinceWatch(page);
  const dropped = taken === undefined ? 'capture failed' : changed ? 'page changed' : traffic.unseenActivitySince(began) ? 'a style sheet or frame answered' : undefined;
  if (!dropped) return taken;
  stageSync(`load: early snapshot dropped (${dropped})`, () => {}); // why, for benchmarks and tests
  return undefined;
}

/**
 * Every script, style sheet and data request the page waits for has its answer and nothing new started for a
 * moment; or, when one of them never answers, nothing started or ended for the whole window. What is left in
 * flight is not waited for: images and fonts fill in boxes the page already has, and scripts of other sites
 * (tag managers, ads, widgets: `Traffic.awaitedRequests`) arrive on their own schedule.
 */
function networkSettled(traffic: Traffic, policy: SettlePolicy, inFlight = awaitedInFlight(traffic)): boolean {
  return traffic.awaitedQuietFor() >= quietWindow(policy, inFlight);
}

/** Milliseconds until `networkSettled` would hold if no request started or ended meanwhile (at least 1). */
function quietIn(traffic: Traffic, policy: SettlePolicy): number {
  return Math.max(1, Math.ceil(quietWindow(policy, awaitedInFlight(traffic)) - traffic.awaitedQuietFor()));
}

/** How long the awaited requests must have been quiet: a tenth of the window once all have answered, else all of it. */
function quietWindow(policy: SettlePolicy, inFlight: number): number {
  return inFlight === 0 ? policy.quietMs / 10 : policy.quietMs;
}

/**
 * Shaping requests in flight that the load policy waits for (`Traffic.awaitedRequests`), a redirected one counted
 * once, by its next hop.
 */
function awaitedShaping(traffic: Traffic): Request[] {
  return traffic.awaitedRequests().filter((request) => shapesThePage(request) && !request.redirectedTo());
}

/** How many of them are in flight: none left is what lets the quiet window shrink to a tenth (`quietWindow`). */
export function awaitedInFlight(traffic: Traffic): number {
  return awaitedShaping(traffic).length;
}

/** Of those, the ones that started at `time` (Date.now()) or later: what an action made the page ask for. */
function awaitedInFlightSince(traffic: Traffic, time: number): number {
  return awaitedShaping(traffic).filter((request) => (traffic.waits.askedAtOf(request) ?? 0) >= time).length;
}

/** Of those, the ones whose effect the change watch could not see when they answer (`Traffic.unseenActivitySince`). */
function unseenInFlight(traffic: Traffic): number {
  return awaitedShaping(traffic).filter((request) => !traffic.actsThroughScript(request)).length;
}

/**
 * Frames of the tab's document not yet placed (`FrameDocuments.place`) that have a request in flight the page is
 * waited for: their document, or what it loads.
 */
function framesToPlace(traffic: Traffic): Frame[] {
  const frames = new Set<Frame>();
  for (const request of traffic.awaitedRequests()) {
    const frame = traffic.frames.ofDocument(request.frame());
    if (frame && !traffic.frames.placed(frame)) frames.add(frame);
  }
  return [...frames];
}

/** Looks up where each frame sits; one whose element cannot be read counts as in view, and is waited for. */
async function placeFrames(page: Page, frames: Frame[], traffic: Traffic): Promise<void> {
  await Promise.all(frames.map(async (frame) => traffic.frames.place(frame, await frameInView(page, frame).catch(() => true))));
}

