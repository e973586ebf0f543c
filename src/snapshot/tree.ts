/**
 * The shapes of a capture: the aria tree Playwright gives, element boxes, and the capture that carries them
 * with the page's facts. Every snapshot module reads these; only capture.ts makes them.
 */
import type { ElementFacts, Overlay, PageMetrics } from './facts.js';
import type { HiddenSpot } from './hiddenText.js';
import type { PortionRest } from './portion.js';
import type { RegionTallies } from './region.js';
import type { WallSignals } from './walls.js';

export type { ElementFacts, Overlay, PageMetrics };

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

/** What a regional capture left out, counted in the page. */
export interface CaptureRegion {
  tallies: RegionTallies;
  /** Subtrees captured. */
  roots: number;
  /** Elements in the whole document. */
  elements: number;
  /** Set when a portion of a large page was taken instead of the viewport band (portion.ts): what it left out. */
  rest?: PortionRest;
  /** The stretch of the page (page y, px) a portion holds all of; none for find and ref portions, which hold scattered parts. */
  span?: [number, number];
}

export interface Capture {
  url: string;
  title: string;
  tree: AriaNode[];
  metrics: PageMetrics;
  /** Facts about elements, keyed by box (facts.ts). */
  fields: Map<string, ElementFacts>;
  overlay?: Overlay;
  /** What stands between the agent and the page's content, if anything (walls.ts). */
  walls?: WallSignals;
  /** Identifies the document: a new value means a navigation replaced the page and its refs. */
  documentId: number;
  /** A frame with controls did not answer for its facts: values inside frames are masked, as secrets could not be told apart. */
  unreadFrames?: boolean;
  /** Set when only the part of the page around the viewport was captured. */
  region?: CaptureRegion;
  /** Frames left out because their document had not begun to arrive (loadingFrames.ts). */
  loadingFrames?: LoadingFrame[];
  /** Frames captured as far as their parser had reached: their document was still arriving or held (loadingFrames.ts). */
  partFrames?: LoadingFrame[];
  /** The page kept replacing its document by itself (a reload loop), so its loading was stopped to read it. */
  stoppedLoop?: boolean;
  /** Where text a person cannot see was left out of the capture (hiddenText.ts). */
  hiddenText?: HiddenSpot[];
}

/** A frame the capture left out, as the snapshot names it. */
export interface LoadingFrame {
  /** Its element's label or title, as its accessible name would be; "" when it has none. */
  name: string;
  /** Where its document is asked from. */
  host: string;
  /** Its box in the page's viewport; unknown when it could not be read. */
  box?: Box;
}

/** Facts are keyed by an element's box in its own frame, rounded to whole pixels. */
export function boxKey(box: Box): string {
  return `${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)},${Math.round(box.height)}`;
}

/** The facts collected for a node's element, found by its box. */
export function factsOf(node: AriaNode, fields: Map<string, ElementFacts>): ElementFacts | undefined {
  return node.box ? fields.get(boxKey(node.box)) : undefined;
}
