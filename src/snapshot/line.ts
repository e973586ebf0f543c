/**
 * One line of the snapshot, and what a walk over the aria tree carries: the context of the element being
 * listed and how a line gets its place on the page. The walk itself is lines.ts's; the modules that write one
 * kind of element (controls.ts, reacting.ts, table.ts) build on these.
 */
import type { AriaNode, Box, ElementFacts } from './tree.js';

/** Roles an agent acts on directly; their own children are not listed (their text is the name). */
export const LEAF_CONTROLS = new Set([
  'button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton',
  'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'gridcell', 'columnheader', 'rowheader', 'scrollbar',
]);
/** Value of lines when the budget forces a cut: lower goes first. */
export const Priority = { Text: 0, Section: 1, Heading: 2, Control: 3 } as const;
export type Priority = (typeof Priority)[keyof typeof Priority];

export interface Line {
  text: string;
  depth: number;
  priority: Priority;
  /** Role, for the "what was cut or is off screen" summaries. */
  kind: string;
  ref?: string;
  /** Vertical extent in page coordinates (for viewport selection); undefined when unknown. */
  top?: number;
  bottom?: number;
  left?: number;
  right?: number;
  /** Section headers are kept only when something inside them is kept. */
  sectionEnd?: number;
  /** A table's header row: kept whenever a row of its table is. */
  header?: boolean;
  /** The element's box in its own frame, to match facts collected in the page. */
  boxKey?: string;
  /** Ref of the nearest enclosing element that has one, for "expand with ref" hints. */
  container?: string;
}

/** Lists the lines of `nodes` into `out` (lines.ts's `walk`). */
export type Walk = (nodes: Array<AriaNode | string>, ctx: WalkContext, out: Line[], parentBox?: Box) => void;

export interface WalkContext {
  depth: number;
  /** Offset from frame coordinates to page viewport coordinates. */
  offsetX: number;
  offsetY: number;
  /** Inside an element listed as clickable: only controls and elements with handlers of their own get a line. */
  inClickable: boolean;
  /** Box key of the clickable being listed: a child with the same box does not take its facts again. */
  claimed?: string;
  /** Inside a clickable whose text is its name: list its controls, not its text again. */
  controlsOnly?: boolean;
  /** Inside a widget that serves its parts (a sortable list): each item with a ref is a target of its own (parts.ts). */
  parts?: boolean;
  /** Directly inside a list item: a nested list is indented (trees drawn with lists). */
  inListItem?: boolean;
  fields: Map<string, ElementFacts>;
  /** Some frame did not answer for its facts (`Capture.unreadFrames`). */
  unreadFrames?: boolean;
  /** Inside an iframe whose facts may be missing (`Capture.unreadFrames`): a value without facts is masked. */
  maskUnknownValues?: boolean;
  /** Frame-local boxes are matched against field facts; main-frame and frame boxes share the map. */
  pageUrl: URL | undefined;
  newRefs?: Set<string>;
  container?: string;
  /**
   * Which link targets to print. `all`: every one (subtrees, find). `useful`: where the name alone does not
   * tell links apart (generic or repeated names). `none`: whole-page listings.
   */
  linkTargets?: 'all' | 'useful' | 'none';
  /** Link names used by more than one link on the page. */
  repeatedLinkNames?: Set<string>;
  /** Characters of text and values shown before the rest is counted (Infinity in a `ref` snapshot). */
  textLimit: number;
  nameLimit: number;
  /**
   * Lists the lines of child nodes. Carried here so that the modules that write one kind of element (reacting.ts)
   * can list what it holds without importing the walk that calls them.
   */
  walk: Walk;
}

/** Gives a new line its position; mutates the fresh object rather than copying it (hot path on big pages). */
export function placed(line: Line, box: Box | undefined, ctx: WalkContext): Line {
  line.container = ctx.container;
  if (!box || (box.width === 0 && box.height === 0)) return line;
  line.left = box.x + ctx.offsetX;
  line.top = box.y + ctx.offsetY;
  line.right = line.left + box.width;
  line.bottom = line.top + box.height;
  line.boxKey = `${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)},${Math.round(box.height)}`;
  return line;
}
