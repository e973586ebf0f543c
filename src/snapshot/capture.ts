/**
 * Capture: Playwright's ai-mode aria snapshot (with element boxes) plus the page facts it does not carry
 * (facts.ts: scroll position, field kinds, elements that react to script handlers, icons, overlays).
 * A viewport capture takes only the subtrees that reach the screen (region.ts) and counts the rest; on a large
 * page the other scopes take only what they can show (portion.ts), and on others the whole page. Three round
 * trips either way: prepare (region, facts), capture, release.
 */
import type { Frame, Locator, Page } from 'playwright-core';
import { HELD_KEY, leaving, readThroughNavigations, type DocumentHolds } from './navigating.js';
import { evaluateInPage } from '../inPage.js';
import { collectPageFacts, releaseElements, type FactsArgs, type PageFacts } from './facts.js';
import { CHANGES_KEY, ownChanges, readableFrameDocuments } from './changes.js';
import { LISTENERS_KEY } from './listeners.js';
import { stage } from '../stages.js';
import { within } from '../within.js';
import { chooseRegion, countedKinds, ownRoots, type RegionArgs } from './region.js';
import { chooseMatches, chooseTopOfPage, choosePortion, leaveElementInPage, type MatchArgs, type TopOfPageArgs, type PortionArgs } from './portion.js';
import { hideLoadingFrames, labelFrames } from './loadingFrames.js';
import type { AriaNode, Capture } from './tree.js';
import { hideBlankFrames, showBlankFrames, type BlankFramesArgs } from './blankFrames.js';
import { editableKey, markEditables, markFrameEditables, otherSiteFrames, releaseEditables } from './editables.js';
import { labelHostControls, releaseLabels } from './hostLabels.js';
import { foldFormulas, labelMath } from './mathText.js';
import { hideHiddenText, releaseHiddenText } from './hiddenText.js';
import { sight } from './sight.js';
import { readWalls } from './walls.js';

export type { AriaNode, Box, Capture, CaptureRegion, ElementFacts, LoadingFrame, Overlay, PageMetrics } from './tree.js';

const CAPTURE_TIMEOUT_MS = 60_000;

const MARKERS_KEY = 'mastra-browser-toolset.markers';

const OWNER_ID = 'mastra-browser-toolset-region';

const EDITABLES_KEY = 'mastra-browser-toolset.editables';

const HOST_LABELS_KEY = 'mastra-browser-toolset.hostLabels';
const MATH_KEY = 'mastra-browser-toolset.math';
const HIDDEN_TEXT_KEY = 'mastra-browser-toolset.hiddenText';
const ELEMENT_KEY = 'mastra-browser-toolset.element';

const BLANK_FRAMES: BlankFramesArgs = { attribute: 'data-mastra-browser-toolset-blank', key: 'mastra-browser-toolset.blankFrames' };

function factsArgs(secretSelector: string, mark: boolean): FactsArgs {
  return { secretSelector, listenersKey: LISTENERS_KEY, markersKey: MARKERS_KEY, mark };
}

interface PrepareArgs {
  facts: FactsArgs;
  region?: RegionArgs;
  portion?: PortionArgs;
  ownerId: string;
  changesKey: string;
  stoppedLoopKey: string;
  blankFrames: BlankFramesArgs;
  editablesKey: string;
  hostLabelsKey: string;
  mathKey: string;
  hiddenTextKey: string;
}

/** What the capture starts from: the body, the root element of a document without one (an SVG file), or nothing yet or at all. */
type CaptureRoot = 'body' | 'root' | 'unparsed' | 'none';

interface PrepareHelpers {
  chooseRegion: typeof chooseRegion;
  choosePortion: typeof choosePortion;
  chooseTopOfPage: typeof chooseTopOfPage;
  chooseMatches: typeof chooseMatches;
  countedKinds: typeof countedKinds;
  collectPageFacts: typeof collectPageFacts;
  ownRoots: typeof ownRoots;
  ownChanges: typeof ownChanges;
  hideBlankFrames: typeof hideBlankFrames;
  readableFrameDocuments: typeof readableFrameDocuments;
  markEditables: typeof markEditables;
  labelHostControls: typeof labelHostControls;
  labelMath: typeof labelMath;
  hideHiddenText: typeof hideHiddenText;
  sight: typeof sight;
  readWalls: typeof readWalls;
}

/**
 * Runs in the page: chooses the region, collects facts in it, and makes the owner that captures it. Its marks
 * are ours, not the page's changing (changes.ts).
 */
function prepareCapture(arg: PrepareArgs, helpers: PrepareHelpers) {
  return helpers.ownChanges(arg.changesKey, () => {
    // Editing hosts get their role first, so the facts below treat them as the controls they are.
    const editables = helpers.markEditables({ markersKey: arg.editablesKey, mark: true });
    const hostLabels = helpers.labelHostControls({ listenersKey: arg.facts.listenersKey, markersKey: arg.hostLabelsKey });
    const formulas = helpers.labelMath(arg.mathKey);
    const w = window as unknown as Record<symbol, unknown>;
    const portion = arg.portion ? helpers.choosePortion(arg.portion, helpers) : undefined;
    const region = portion?.roots ? portion : arg.region ? helpers.chooseRegion(arg.region, helpers) : undefined;
    const roots = region?.roots;
    // Text a person cannot see is hidden from the capture (hiddenText.ts).
    const hiddenText = helpers.hideHiddenText({ markersKey: arg.hiddenTextKey, mode: 'capture', query: arg.portion?.matches?.query, listenersKey: arg.facts.listenersKey }, helpers, roots);
    const pageFacts = helpers.collectPageFacts(arg.facts, roots);
    const facts = { ...pageFacts, editables, marked: pageFacts.marked + editables.length + hostLabels + formulas, walls: helpers.readWalls() };
    if (roots) w[Symbol.for(`${arg.facts.markersKey}.region`)] = helpers.ownRoots(roots, arg.ownerId);
    // The page-wide capture waits for a body: an SVG file has none (its root is captured instead), nor has a
    // document just begun (`unparsed`: captured once it is parsed) or one stopped before its first element.
    const root: CaptureRoot = document.body ? 'body' : document.documentElement ? 'root' : document.readyState === 'loading' ? 'unparsed' : 'none';
    const stoppedLoop = !!w[Symbol.for(arg.stoppedLoopKey)];
    // Frames that show nothing are hidden for the capture: Playwright would build its helper in each (blankFrames.ts).
    const blankFrames = helpers.hideBlankFrames(arg.blankFrames, helpers);
    const part = portion && region === portion ? { rest: portion.rest, span: portion.span } : {};
    return { ...facts, root, stoppedLoop, blankFrames, hiddenText, region: region && roots ? { tallies: region.tallies, roots: roots.length, elements: region.elements, ...part } : undefined };
  });
}

/** Runs in the page after the capture: takes our marks out again; true when the layout moved meanwhile (facts.ts). */
function releaseCapture(
  arg: { markersKey: string; changesKey: string; blankFrames: BlankFramesArgs; editablesKey: string; hostLabelsKey: string; mathKey: string; hiddenTextKey: string },
  helpers: { releaseElements: typeof releaseElements; ownChanges: typeof ownChanges; showBlankFrames: typeof showBlankFrames; releaseEditables: typeof releaseEditables; releaseLabels: typeof releaseLabels; releaseHiddenText: typeof releaseHiddenText },
): boolean {
  return helpers.ownChanges(arg.changesKey, () => {
    helpers.showBlankFrames(arg.blankFrames);
    helpers.releaseHiddenText(arg.hiddenTextKey);
    helpers.releaseEditables(arg.editablesKey);
    helpers.releaseLabels(arg.hostLabelsKey);
    helpers.releaseLabels(arg.mathKey);
    return helpers.releaseElements(arg.markersKey);
  });
}

/** The frame's facts, or undefined when it does not answer in time (a stuck script or a document that never came). */
async function frameFields(frame: Frame, secretSelector: string): Promise<PageFacts['fields'] | undefined> {
  try {
    return await within(evaluateInPage(frame, collectPageFacts, factsArgs(secretSelector, false)).then((facts) => facts.fields), FRAME_FACTS_TIMEOUT_MS);
  } catch {
    return frame.isDetached() ? [] : undefined; // a frame that detached mid-capture has nothing to add
  }
}

/** How long a frame's facts are waited for; its controls keep their refs without them, their values are masked. */
const FRAME_FACTS_TIMEOUT_MS = 2_000;

/** Roles a person clicks or types into: what makes a frame worth inspecting, and what screenshots label. */
export const INTERACTIVE_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'tab', 'menuitem', 'option', 'treeitem']);

function hasControl(nodes: Array<AriaNode | string>): boolean {
  return nodes.some((n) => typeof n !== 'string' && ((!!n.ref && (INTERACTIVE_ROLES.has(n.role) || n.cursor === 'pointer')) || hasControl(n.children ?? [])));
}

/**
 * Frames' facts cost a round trip per frame, and pages carry many ad and tracking frames with nothing to act
 * on; collect them only when some iframe in the snapshot holds a control.
 */
function hasIframeWithControls(nodes: Array<AriaNode | string>): boolean {
  return nodes.some((n) => typeof n !== 'string' && (n.role === 'iframe' ? hasControl(n.children ?? []) : hasIframeWithControls(n.children ?? [])));
}

export interface CaptureOptions {
  /** CSS selector of fields whose values must never be shown (besides password inputs). */
  secretSelector?: string;
  /** The tab's frames whose document has not begun to arrive, with the host it is asked from: left out (loadingFrames.ts). */
  framesAwaitingDocument?: (page: Page) => Array<{ frame: Frame; host: string }>;
  /** The tab's frames whose document has come but is not parsed yet: captured in part, and named (loadingFrames.ts). */
  framesBeingParsed?: (page: Page) => Array<{ frame: Frame; host: string }>;
  /** The tab's holds on its document (navigating.ts), when its owner keeps them. */
  holds?: DocumentHolds;
}

/**
 * Only the part of the page around the viewport (region.ts); on a large page, its top as far as a page-scope
 * budget shows, the parts a find matches, or one element's subtree (portion.ts); without any, the whole page.
 */
export type CaptureScope = { region?: RegionArgs; opening?: TopOfPageArgs; matches?: MatchArgs; element?: { locator: Locator; elements: number } };

/**
 * A snapshot taken while the page navigates loses its document; it is taken again on the next one, and a page
 * that keeps replacing itself is held and read as it stands (navigating.ts); the capture then says so.
 */
export async function capturePage(page: Page, options: CaptureOptions = {}, scope: CaptureScope = {}): Promise<Capture> {
  const { value, held } = await readThroughNavigations(page, options.holds ?? { count: 0 }, (watchLeaving) =>
    captureOnce(page, options.secretSelector ?? '', scope, options.framesAwaitingDocument?.(page) ?? [], options.framesBeingParsed?.(page) ?? [], watchLeaving),
  );
  return held ? { ...value, stoppedLoop: true } : value;
}

async function captureOnce(
  page: Page,
  secretSelector: string,
  scope: CaptureScope,
  awaiting: Array<{ frame: Frame; host: string }>,
  parsing: Array<{ frame: Frame; host: string }>,
  watchLeaving: boolean,
): Promise<Capture> {
  // Hidden while the facts are read (they do not depend on it), before the aria capture begins.
  const hiding = awaiting.length ? stage('snapshot: frames left out', () => hideLoadingFrames(awaiting, CHANGES_KEY)) : undefined;
  const leftOut = new Set(awaiting.map(({ frame }) => frame));
  // Named beside the capture, which they do not hold up; a frame left out is named as such, not twice.
  const shownInPart = parsing.filter(({ frame }) => !leftOut.has(frame));
  const naming = shownInPart.length ? labelFrames(shownInPart) : undefined;
  try {
    let { capture, moved } = await captureShown(page, secretSelector, scope, leftOut, hiding, watchLeaving);
    // Facts find their nodes by box: when the layout moved between the two reads, take both again, once.
    if (moved) ({ capture } = await stage('snapshot: again, the layout moved', () => captureShown(page, secretSelector, scope, leftOut, hiding, watchLeaving)));
    const left = await hiding;
    const part = await naming;
    return { ...capture, ...(left?.frames.length ? { loadingFrames: left.frames } : {}), ...(part?.length ? { partFrames: part } : {}) };
  } finally {
    void hiding?.then((left) => left.restore());
  }
}

/**
 * The capture itself, of everything but the frames in `leftOut`, once `hidden` (those frames hidden) has
 * resolved; `moved` when an element with facts was not where the facts saw it once the capture was done.
 */
async function captureShown(
  page: Page,
  secretSelector: string,
  scope: CaptureScope,
  leftOut: Set<Frame>,
  hidden: Promise<unknown> | undefined,
  watchLeaving: boolean,
): Promise<{ capture: Capture; moved: boolean }> {
  // Frames of other sites run in processes of their own: their editors are marked while the page's facts are read.
  const otherSites = otherSiteFrames(page, leftOut);
  const marking = otherSites.length ? stage('snapshot: editables in frames of other sites', () => markFrameEditables(otherSites, EDITABLES_KEY)) : undefined;
  // Facts first: the script also prepares elements Playwright would otherwise give no node (facts.ts), and
  // for a viewport capture chooses the subtrees to take. Everything runs on the page's one main thread, so
  // doing the steps in turn costs only round trips.
  const { region, opening, matches } = scope;
  const element = scope.element ? await leaveElementInPage(scope.element.locator, ELEMENT_KEY, scope.element.elements) : undefined;
  const portion: PortionArgs | undefined = opening || matches || element ? { top: opening, matches, element } : undefined;
  const facts = await stage('snapshot: region and facts (in page)', () =>
    evaluateInPage(
      page,
      prepareCapture,
      {
        facts: factsArgs(secretSelector, true),
        region,
        portion,
        ownerId: OWNER_ID,
        changesKey: CHANGES_KEY,
        stoppedLoopKey: HELD_KEY,
        blankFrames: BLANK_FRAMES,
        editablesKey: EDITABLES_KEY,
        hostLabelsKey: HOST_LABELS_KEY,
        mathKey: MATH_KEY,
        hiddenTextKey: HIDDEN_TEXT_KEY,
      },
      { chooseRegion, choosePortion, chooseTopOfPage, chooseMatches, countedKinds, collectPageFacts, ownRoots, ownChanges, hideBlankFrames, readableFrameDocuments, markEditables, labelHostControls, labelMath, hideHiddenText, sight, readWalls },
    ),
  );
  const frameEditables = (await marking) ?? [];
  await hidden;
  let tree: unknown;
  let released: Promise<boolean> | undefined;
  try {
    // Huge pages take seconds; the action timeout would cut them off, a hung page must not block forever.
    // `css:light` looks up the id without descending into every shadow root, a walk of the whole page.
    const target = facts.region ? page.locator(`css:light=#${OWNER_ID}`) : facts.root === 'root' ? page.locator(':root') : page;
    const away = watchLeaving ? leaving(page) : undefined;
    try {
      if (facts.root === 'unparsed') throw new Error('The page navigated: its new document has no element yet.');
      const capturing = facts.root === 'none' ? Promise.resolve([]) : target.ariaSnapshotJSON({ mode: 'ai', boxes: true, timeout: CAPTURE_TIMEOUT_MS });
      capturing.catch(() => {}); // when the page navigated first
      tree = await stage('snapshot: aria capture', () => (away ? Promise.race([capturing, away.promise]) : capturing));
    } finally {
      away?.dispose();
    }
  } finally {
    // The page gets its markup back while the frames are read. Its answer (did the layout move?) is awaited
    // last; the renderer runs the page's scripts in the order they were sent, so any later script or action of
    // ours comes after it. With no marks, no region and no facts there is nothing to take out or to check: no
    // round trip (the empty record of placed facts is replaced by the next capture's).
    const release = facts.marked || facts.region || facts.fields.length || facts.blankFrames || facts.hiddenText.length;
    released = release
      ? evaluateInPage(page, releaseCapture, { markersKey: MARKERS_KEY, changesKey: CHANGES_KEY, blankFrames: BLANK_FRAMES, editablesKey: EDITABLES_KEY, hostLabelsKey: HOST_LABELS_KEY, mathKey: MATH_KEY, hiddenTextKey: HIDDEN_TEXT_KEY }, { releaseElements, ownChanges, showBlankFrames, releaseEditables, releaseLabels, releaseHiddenText }).catch(() => false)
      : Promise.resolve(false);
    for (const { frame } of frameEditables) void evaluateInPage(frame, releaseEditables, EDITABLES_KEY).catch(() => {});
  }
  const nodes = (Array.isArray(tree) ? tree : [tree]) as AriaNode[];
  foldFormulas(nodes);
  const fields = new Map(facts.fields);
  for (const [[x, y, width, height], value] of facts.editables) fields.set(editableKey(x, y, width, height), value);
  for (const { offset, entries } of frameEditables) {
    if (!offset) continue;
    for (const [[x, y, width, height], value] of entries) fields.set(editableKey(x + offset.x, y + offset.y, width, height), value);
  }
  let unreadFrames = false;
  if (hasIframeWithControls(nodes)) {
    // Boxes inside an iframe are relative to that frame, so its fields are matched in its own coordinates.
    const childFrames = page.frames().filter((f) => f !== page.mainFrame() && !leftOut.has(f));
    const frameEntries = await stage('snapshot: frame facts', () => Promise.all(childFrames.map((frame) => frameFields(frame, secretSelector))));
    for (const entries of frameEntries) {
      if (!entries) unreadFrames = true;
      for (const [key, value] of entries ?? []) if (!fields.has(key)) fields.set(key, value);
    }
  }
  const capture = {
    url: page.url(),
    title: facts.title,
    tree: nodes,
    metrics: facts.metrics,
    fields,
    overlay: facts.overlay,
    walls: facts.walls,
    documentId: facts.documentId,
    ...(unreadFrames ? { unreadFrames } : {}),
    region: facts.region,
    ...(facts.stoppedLoop ? { stoppedLoop: true } : {}),
    ...(facts.hiddenText.length ? { hiddenText: facts.hiddenText } : {}),
  };
  return { capture, moved: await released };
}

/** Cheap check used before acting on a ref: has a navigation replaced the document? */
export async function currentDocumentId(page: Page): Promise<number | undefined> {
  try {
    return await page.evaluate(() => performance.timeOrigin);
  } catch {
    return undefined; // mid-navigation: treat as changed
  }
}
