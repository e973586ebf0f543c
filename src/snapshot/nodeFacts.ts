/**
 * Node facts: what the survey (survey.ts) works out of each node of a capture's tree before the outline reads
 * it, so that the outline only looks things up. One thing the tree alone does not say: which clickable above a
 * node took the facts of its box (the outline's claim, `OutlineContext.claimed`). Where a claim can change an
 * answer, the answer is kept for each such claim (`Claimed`); almost always there is none.
 */
import type { AriaNode, Box, ElementFacts } from './tree.js';
import type { ControlSay, RowSay, TableSay } from './entry.js';

/** An answer with no claim that matters, and the answers under the claims that change it (box keys above the node). */
export interface Claimed<T> {
  free: T;
  under?: Map<string, T>;
}

/**
 * What a reacting element is listed as:
 * - `parts`: a widget serving its parts with one listener (a date picker's days, a sortable list's items): its
 *   ref as a header, then each part as a target of its own;
 * - `card`: a card or panel that reacts as a whole, or a widget with many controls: its ref as a header, then
 *   its text, tables and controls as usual;
 * - `wrapper`: a focusable wrapper around controls (an `li tabindex` around its link): both refs on one line
 *   when it wraps one control, else a container;
 * - `line`: one line with its label, and the controls inside it (a mail row's trash icon) indented below.
 * `claims` is its box key when its facts are its own: a child with the same box does not react on its own.
 */
export type Reaction =
  | { form: 'parts' | 'card' | 'wrapper'; kind: string; claims?: string }
  | { form: 'line'; kind: string; claims?: string; label: string; facts: ElementFacts | undefined; inside: boolean };

/** An item of a widget that serves its parts, as its own line: undefined when it shows nothing to name it by. */
export type Part = { kind: string; label: string; facts: ElementFacts | undefined; inside: boolean } | undefined;

/** A data table read into its lines (table.ts). */
export interface DataTable {
  say: TableSay;
  rows: Array<{ say: RowSay; control: boolean; header: boolean; ref?: string; box?: Box }>;
}

/** A run of alike cells among a node's children (parts.ts): a widget's cells, rows of them, or words side by side. */
export interface CellRun {
  cells: AriaNode[];
  /** The cells in rows, top to bottom, each row left to right. */
  rows: AriaNode[][];
  /** Each cell's label (its name when it says more than its text). */
  labels: Map<AriaNode, string>;
}

export interface NodeFacts {
  /** Its box's key: facts are found by box. Made only where facts may be (or a claim may be compared). */
  key?: string;
  /**
   * The facts found by its box when they are its own: a parent and a child with the very same box share them,
   * and they go to the child unless the parent is one facts.ts made a "group" for the capture. A clickable above
   * with the same box takes them first (the outline's claim).
   */
  facts?: ElementFacts;
  /** Listed on its own inside a clickable by its role or cursor: a control with a ref, or a pointer where it starts. */
  listed: boolean;
  /** What is listed below it: something by role or cursor, and the box keys (two at most) of what reacts by its facts. */
  below: { listed: boolean; keys: string[] };
  /** A control with a ref sits somewhere below it. */
  controlBelow: boolean;
  /** Its whole content is one text: a candidate piece of a row of text (textPieces.ts). */
  textLeaf: boolean;
  /** A control's line: its facts, and whether its value is masked. */
  control?: ControlSay;
  /** A control's name is made of what it holds (a calendar day named by its events): the lines below say it. */
  namedByContent?: boolean;
  /** A table of data, read; none for a table that lays out a page. */
  table?: DataTable;
  /** How it is listed when it reacts (an element with a handler or a pointer cursor). */
  reaction?: Claimed<Reaction | undefined>;
  /** As an item of a widget that serves its parts. */
  part?: Claimed<Part>;
  /** Box keys of clickables above it whose claim would change an answer here. */
  claims?: Set<string>;
}

/** The survey of a capture's tree: each node's facts, and the runs of alike cells by the list of children holding them. */
export interface Survey {
  nodes: Map<AriaNode, NodeFacts>;
  runs: Map<Array<AriaNode | string>, CellRun>;
  /** Link names shared by links that go to different places: there, the target tells them apart (links.ts). */
  repeatedLinkNames: Set<string>;
}
