/**
 * Entry: one line of the snapshot as the outline decides it (outline.ts), before its text is written
 * (lineText.ts): what it says, as data, how much it is worth, and where its element sits. Also the context the
 * outline reads an element in, and the facts a control's line shows.
 */
import { editableKey } from './editables.js';
import { factsOf, type AriaNode, type Box, type ElementFacts } from './tree.js';

/** Value of lines when the budget forces a cut: lower goes first. */
export const Priority = { Text: 0, Section: 1, Heading: 2, Control: 3 } as const;
export type Priority = (typeof Priority)[keyof typeof Priority];

/** A line of the outline: what it says, what it is worth, and where its element sits. */
export interface Entry {
  say: Say;
  depth: number;
  priority: Priority;
  /** Role, for the "what was cut or is off screen" summaries. */
  kind: string;
  ref?: string;
  /** The element's box in its own frame; none when unknown. */
  box?: Box;
  /** The context it was read in: its frame's offset on the page, the nearest enclosing ref. */
  at: OutlineContext;
  /** Section headers are kept only when something inside them is kept: the index after their last line. */
  sectionEnd?: number;
  /** A table's header row: kept whenever a row of its table is. */
  header?: boolean;
}

/** A control's line: its element, and the facts it shows (its states, an editing host's text). */
export interface ControlSay {
  as: 'control';
  node: AriaNode;
  facts: ElementFacts | undefined;
  /** Its value is never shown: a password or secret field, or one in a frame whose facts are missing. */
  masked: boolean;
  /** Ends with ':': a control around other controls, listed below it. */
  holds?: boolean;
}

/** An element that is no control but reacts (`clickable`, `draggable`, ...): its label, or its icon hint. */
export interface ReactingSay {
  as: 'reacting';
  node: AriaNode;
  kind: string;
  label: string;
  facts: ElementFacts | undefined;
}

/** What a table cell says: its text, the controls in it as in their own lines, and its ref when it reacts. */
export interface CellSay {
  ref?: string;
  /** A cell that reacts and holds no control: it is the target, said by its label and states. */
  own?: { node: AriaNode; label: string; facts: ElementFacts | undefined };
  /** What it holds, in order: text, and the lines of the controls in it. */
  parts: Array<string | ControlSay | ReactingSay>;
}

/** What a line says, as data; lineText.ts writes it in the snapshot format. */
export type Say =
  /** Text shown whole up to the limit, after `prefix` ("- ", "## "); `ref` shows the rest. */
  | { as: 'text'; text: string; prefix: string; ref: string | undefined }
  | ControlSay
  | ReactingSay
  /** An element that holds what is listed below it, by ref and kind: `e5 clickable:`. */
  | { as: 'holder'; ref: string; kind: string }
  /** A control around one other line: `e5 menuitem > e6 link "Home"`. */
  | { as: 'around'; ref: string; kind: string; inner: Say }
  | { as: 'section'; ref?: string; role: string; name?: string }
  | { as: 'img'; name: string }
  /** One row of alike cells of a widget (a week of days). */
  | { as: 'grid'; cells: Array<{ node: AriaNode; label: string; facts: ElementFacts | undefined }> }
  | { as: 'table'; ref?: string; role: string; name?: string; columns: number; grips: string[] }
  | { as: 'row'; ref?: string; cells: CellSay[] };

/** What the outline knows of where it is in the tree, handed down from an element to its children. */
export interface OutlineContext {
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
  /** Ref of the nearest enclosing element that has one: the `ref` snapshot that shows what a line leaves out. */
  container?: string;
}

/** An editing host's facts (editables.ts), keyed by its box in the page's coordinates: frames' bodies often share their own. */
function editableFacts(node: AriaNode, ctx: OutlineContext): ElementFacts | undefined {
  return node.box && node.role === 'textbox' ? ctx.fields.get(editableKey(node.box.x + ctx.offsetX, node.box.y + ctx.offsetY, node.box.width, node.box.height)) : undefined;
}

/** What a control's line says: its element, and the facts that show (its states, whether its value is secret). */
export function controlSay(node: AriaNode, ctx: OutlineContext): ControlSay {
  const editable = editableFacts(node, ctx);
  const facts = editable ? { ...factsOf(node, ctx.fields), ...editable } : factsOf(node, ctx.fields);
  const masked = !!(facts?.password || facts?.secret || (!facts && ctx.maskUnknownValues));
  return { as: 'control', node, facts, masked };
}
