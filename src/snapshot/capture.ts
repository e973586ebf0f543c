/**
 * Capture: Playwright's ai-mode aria snapshot (with element boxes) plus the page facts it does not carry
 * (facts.ts: scroll position, field kinds, elements that react to script handlers, icons, overlays).
 */
import type { Frame, Page } from 'playwright-core';
import { evaluateInPage } from '../inPage.js';
import { collectPageFacts, releaseElements, type ElementFacts, type Overlay, type PageFacts, type PageMetrics } from './facts.js';
import { LISTENERS_KEY } from './listeners.js';

export type { ElementFacts, Overlay, PageMetrics } from './facts.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One node of `page.ariaSnapshotJSON({ mode: 'ai', boxes: true })`. Strings are text runs. */
export interface AriaNode {
  role: string;
  name?: string;
  ref?: string;
  box?: Box;
  children?: Array<AriaNode | string>;
  /** Text content, or the current value of a text field. */
  text?: string;
  url?: string;
  level?: number;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  expanded?: boolean;
  selected?: boolean;
  pressed?: boolean | 'mixed';
  /** The focused element. */
  active?: boolean;
  cursor?: string;
}

export interface Capture {
  url: string;
  title: string;
  tree: AriaNode[];
  metrics: PageMetrics;
  /** Facts about elements, keyed by box (facts.ts). */
  fields: Map<string, ElementFacts>;
  overlay?: Overlay;
  /** Identifies the document: a new value means a navigation replaced the page and its refs. */
  documentId: number;
  /** A frame with controls did not answer for its facts: values inside frames are masked, as secrets could not be told apart. */
  unreadFrames?: boolean;
}

const CAPTURE_TIMEOUT_MS = 60_000;

export function boxKey(box: Box): string {
  return `${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)},${Math.round(box.height)}`;
}

const MARKERS_KEY = 'mastra-browser-toolset.markers';

function factsArgs(secretSelector: string, mark: boolean) {
  return { secretSelector, listenersKey: LISTENERS_KEY, markersKey: MARKERS_KEY, mark };
}

/** The frame's facts, or undefined when it does not answer in time (a stuck script or a document that never came). */
async function frameFields(frame: Frame, secretSelector: string): Promise<PageFacts['fields'] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<undefined>((done) => (timer = setTimeout(() => done(undefined), FRAME_FACTS_TIMEOUT_MS)));
  try {
    return await Promise.race([evaluateInPage(frame, collectPageFacts, factsArgs(secretSelector, false)).then((facts) => facts.fields), gaveUp]);
  } catch {
    return frame.isDetached() ? [] : undefined; // a frame that detached mid-capture has nothing to add
  } finally {
    clearTimeout(timer);
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

/** A snapshot taken while the page navigates loses its execution context; wait for the new document and retry. */
export interface CaptureOptions {
  /** CSS selector of fields whose values must never be shown (besides password inputs). */
  secretSelector?: string;
}

export async function capturePage(page: Page, options: CaptureOptions = {}): Promise<Capture> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await captureOnce(page, options.secretSelector ?? '');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 2 || !/Execution context was destroyed|Cannot find context|navigat/i.test(message)) throw error;
      await page.waitForLoadState('domcontentloaded', { timeout: 5_000 }).catch(() => {});
    }
  }
}

async function captureOnce(page: Page, secretSelector: string): Promise<Capture> {
  // Facts first: the script also prepares elements Playwright would otherwise give no node (facts.ts). Both run
  // on the page's one main thread, so doing them in turn costs only a round trip.
  const facts = await evaluateInPage(page, collectPageFacts, factsArgs(secretSelector, true));
  let tree: unknown;
  try {
    // Huge pages take seconds; the action timeout would cut them off, a hung page must not block forever.
    tree = await page.ariaSnapshotJSON({ mode: 'ai', boxes: true, timeout: CAPTURE_TIMEOUT_MS });
  } finally {
    if (facts.marked) await evaluateInPage(page, releaseElements, MARKERS_KEY).catch(() => {});
  }
  const nodes = (Array.isArray(tree) ? tree : [tree]) as AriaNode[];
  const fields = new Map(facts.fields);
  let unreadFrames = false;
  if (hasIframeWithControls(nodes)) {
    // Boxes inside an iframe are relative to that frame, so its fields are matched in its own coordinates.
    const childFrames = page.frames().filter((f) => f !== page.mainFrame());
    for (const entries of await Promise.all(childFrames.map((frame) => frameFields(frame, secretSelector)))) {
      if (!entries) unreadFrames = true;
      for (const [key, value] of entries ?? []) if (!fields.has(key)) fields.set(key, value);
    }
  }
  return { url: page.url(), title: facts.title, tree: nodes, metrics: facts.metrics, fields, overlay: facts.overlay, documentId: facts.documentId, ...(unreadFrames ? { unreadFrames } : {}) };
}

/** Cheap check used before acting on a ref: has a navigation replaced the document? */
export async function currentDocumentId(page: Page): Promise<number | undefined> {
  try {
    return await page.evaluate(() => performance.timeOrigin);
  } catch {
    return undefined; // mid-navigation: treat as changed
  }
}
