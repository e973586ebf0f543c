/**
 * Entry: one line of the snapshot as the outline decides it (outline.ts), before its text is written
 * (lineText.ts): what it says, as data, how much it is worth, and where its element sits. Also the facts a
 * control's line shows.
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
  /** Where it was read: its frame's offset on the page, the nearest enclosing ref. */
  at: Placement;
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
  | TableSay
  | RowSay;

/** A data table's header line: its ref, role, name, columns and the grips of its columns. */
export type TableSay = { as: 'table'; ref?: string; role: string; name?: string; columns: number; grips: string[] };
/** One row of a data table, cell by cell; its ref when the row reacts. */
export type RowSay = { as: 'row'; ref?: string; cells: CellSay[] };

/** Where an entry's element sits: its frame's offset on the page, and the nearest enclosing ref. */
export interface Placement {
  /** Offset from frame coordinates to page viewport coordinates. */
  offsetX: number;
  offsetY: number;
  /** Ref of the nearest enclosing element that has one: the `ref` snapshot that shows what a line leaves out. */
  container?: string;
}

/** Where a node sits among frames, for reading its facts: its frame's offset on the page, and whether its frame's facts may be missing. */
export interface FrameAt {
  offsetX: number;
  offsetY: number;
  /** Inside an iframe whose facts may be missing (`Capture.unreadFrames`): a value without facts is masked. */
  maskUnknownValues?: boolean;
}

/** An editing host's facts (editables.ts), keyed by its box in the page's coordinates: frames' bodies often share their own. */
function editableFacts(node: AriaNode, fields: Map<string, ElementFacts>, at: FrameAt): ElementFacts | undefined {
  return node.box && node.role === 'textbox' ? fields.get(editableKey(node.box.x + at.offsetX, node.box.y + at.offsetY, node.box.width, node.box.height)) : undefined;
}

/** What a control's line says: its element, and the facts that show (its states, whether its value is secret). */
export function controlSay(node: AriaNode, fields: Map<string, ElementFacts>, at: FrameAt): ControlSay {
  const editable = editableFacts(node, fields, at);
  const facts = editable ? { ...factsOf(node, fields), ...editable } : factsOf(node, fields);
  const masked = !!(facts?.password || facts?.secret || (!facts && at.maskUnknownValues));
  return { as: 'control', node, facts, masked };
}
