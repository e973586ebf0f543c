/**
 * Outline: reads a capture's aria tree into the snapshot's entries, one per line, in page order: what each
 * element worth showing is (text, a heading, a control, a reacting element, a part of a widget, a data table,
 * a section) and where it sits. What each node is was worked out before, by the survey (survey.ts); the outline
 * looks it up, and knows what the tree alone does not: where it is (depth, frame, the clickable it is inside
 * and the box that clickable claimed). Writing each entry's text is lineText.ts's, after the whole outline is read.
 */
import { boxKey, type AriaNode, type Box, type ElementFacts } from './tree.js';
import { Priority, type Entry } from './entry.js';
import type { Claimed, NodeFacts, Survey } from './nodeFacts.js';
import { COMPOSITE_CONTROLS, ITEM_ROLES, LEAF_CONTROLS, MODAL_ROLES, SECTIONS, TABLE_ROLES } from './roles.js';
import { joinPieces, separator, type Piece } from './textPieces.js';

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
  /** What each node is, worked out before the outline (survey.ts). */
  survey: Survey;
  /** Ref of the nearest enclosing element that has one: the `ref` snapshot that shows what a line leaves out. */
  container?: string;
}


/** A node's own facts, unless the clickable being listed claimed its box. */
function ownFacts(known: NodeFacts, ctx: OutlineContext): ElementFacts | undefined {
  return known.key === ctx.claimed ? undefined : known.facts;
}

/** The answer under the claim in force: most claims change nothing. */
function underClaim<T>(answer: Claimed<T>, ctx: OutlineContext): T {
  return ctx.claimed !== undefined && answer.under?.has(ctx.claimed) ? answer.under.get(ctx.claimed)! : answer.free;
}

/** Text worth a line: it has a letter or a digit (not a lone "|" or "·"). */
const WORDY = /[\p{L}\p{N}]/u;

function textEntry(text: string, prefix: string, ref: string | undefined, box: Box | undefined, ctx: OutlineContext): Entry {
  return { say: { as: 'text', text, prefix, ref }, depth: ctx.depth, priority: Priority.Text, kind: 'text', box, at: ctx };
}

/** A grid of alike cells (a month of days): an entry per row, each cell by its ref, label and state. */
function gridEntries(rows: AriaNode[][], labels: Map<AriaNode, string>, ctx: OutlineContext, out: Entry[]): void {
  for (const row of rows) {
    const cells = row.map((cell) => ({ node: cell, label: labels.get(cell)!, facts: ownFacts(ctx.survey.nodes.get(cell)!, ctx) }));
    const first = row[0]!.box!;
    const last = row[row.length - 1]!.box!;
    const box = { x: first.x, y: first.y, width: last.x + last.width - first.x, height: first.height };
    out.push({ say: { as: 'grid', cells }, depth: ctx.depth, priority: Priority.Control, kind: 'row', box, at: ctx });
  }
}

/**
 * Alike cells among `nodes` that are targets: inside a widget that reacts, or pointing of their own. Pieces
 * of one text (letters drawn one by one) are neither, and are joined as before.
 */
function targetCells(run: AriaNode[] | undefined, ctx: OutlineContext): Set<AriaNode> | undefined {
  if (!run) return undefined;
  return ctx.inClickable || run.some((cell) => cell.cursor === 'pointer' || ownFacts(ctx.survey.nodes.get(cell)!, ctx)?.clickable) ? new Set(run) : undefined;
}

/** The entries of `nodes` and everything below them, appended to `out` in page order. */
export function outline(nodes: Array<AriaNode | string>, ctx: OutlineContext, out: Entry[], parentBox?: Box): void {
  const run = ctx.survey.runs.get(nodes);
  const targets = targetCells(run?.cells, ctx);
  const rows = targets && run!.rows;
  // Cells one above the other are a list, not a grid: each is a part on its own line.
  const column = rows?.every((row) => row.length === 1) ? targets : undefined;
  const grid = column ? undefined : targets;
  // Alike cells that are no targets (a row of weekday names) are words side by side, even where they touch.
  const textCells = !targets && run?.cells.some((cell) => run.labels.get(cell)!.length > 1) ? new Set(run.cells) : undefined;
  let gridWritten = false;
  // Label text next to its control repeats the control's name: say it once.
  const siblingNames = new Set<string>();
  for (const node of nodes) if (typeof node !== 'string' && node.ref && LEAF_CONTROLS.has(node.role) && node.name) siblingNames.add(node.name);
  // A run of text: strings, and text pieces drawn side by side on one row (joined as the eye reads them).
  let pieces: Piece[] = [];
  let runBox: Box | undefined;
  // Strings have no box. A run of them lies between the sibling before it and the one after it, which is
  // much closer than "somewhere in the parent" when the parent is a whole article.
  let previousBottom: number | undefined;
  const flushText = (next?: AriaNode) => {
    if (!pieces.length) return;
    const text = joinPieces(pieces);
    pieces = [];
    let box = runBox;
    runBox = undefined;
    if (!box && parentBox) {
      const top = previousBottom ?? parentBox.y;
      const bottom = next?.box && next.box.height > 0 ? Math.max(top, next.box.y) : parentBox.y + parentBox.height;
      box = { x: parentBox.x, y: top, width: parentBox.width, height: Math.max(1, bottom - top) };
    }
    if (ctx.controlsOnly || siblingNames.has(text) || !WORDY.test(text)) return;
    out.push(textEntry(text, '', ctx.container, box, ctx));
  };

  for (const node of nodes) {
    if (typeof node === 'string') {
      if (pieces[pieces.length - 1]?.box) flushText();
      pieces.push({ text: node });
      continue;
    }
    const { role } = node;
    const known = ctx.survey.nodes.get(node)!;

    if (column?.has(node)) {
      flushText(node);
      if (part(node, ctx, out)) continue;
    }

    if (grid?.has(node)) {
      if (!gridWritten) {
        flushText(node);
        gridEntries(rows!, run!.labels, ctx, out);
        gridWritten = true;
      }
      continue;
    }

    // A pointer cursor is reported on the outermost element that has it: one below another target is a target too.
    if (known.textLeaf && !ownFacts(known, ctx)?.clickable && node.cursor !== 'pointer') {
      // Boxed pieces join each other, not the strings around them: where a string sits on screen is unknown.
      const last = pieces[pieces.length - 1];
      if (last && (!last.box || separator(last.box, node.box) === undefined)) flushText();
      pieces.push({ text: node.text!, box: node.box, cell: textCells?.has(node) });
      runBox ??= node.box;
      previousBottom = node.box!.y + node.box!.height;
      continue;
    }
    flushText(node);
    if (node.box && node.box.height > 0) previousBottom = node.box.y + node.box.height;

    if (role === 'heading') {
      // A heading that reacts (an accordion's section title) is a control first.
      if (ownFacts(known, ctx)?.clickable && reactingEntries(node, ctx, out)) continue;
      const level = Math.min(node.level ?? 2, 6);
      const name = node.name || node.text || '';
      if (name && !ctx.controlsOnly) out.push({ say: { as: 'text', text: name, prefix: `${'#'.repeat(level)} `, ref: node.ref }, depth: ctx.depth, priority: Priority.Heading, kind: 'heading', box: node.box, at: ctx });
      // A heading can hold a link; list it so it stays reachable.
      if (known.controlBelow) outline(node.children ?? [], ctx, out, node.box);
      continue;
    }

    if (node.ref && LEAF_CONTROLS.has(role) && (known.below.listed || known.below.keys.some((key) => key !== ctx.claimed))) {
      wrapper(node, role, ctx, out);
      continue;
    }
    if (node.ref && (LEAF_CONTROLS.has(role) || COMPOSITE_CONTROLS.has(role))) {
      out.push({ say: known.control!, depth: ctx.depth, priority: Priority.Control, kind: role, ref: node.ref, box: node.box, at: ctx });
      if (COMPOSITE_CONTROLS.has(role)) outline(node.children ?? [], { ...ctx, depth: ctx.depth + 1 }, out, node.box);
      continue;
    }

    if (LEAF_CONTROLS.has(role) && !node.ref) continue; // not visible or not receiving pointer events

    if (ctx.parts && node.ref && ITEM_ROLES.has(role) && part(node, ctx, out)) continue;

    if (TABLE_ROLES.has(role) && !ctx.controlsOnly && known.table) {
      tableEntries(node, known.table, ctx, out);
      continue;
    }

    if (role === 'iframe' || SECTIONS.has(role)) {
      // The ref lets the model expand the section (browser_snapshot ref) or scroll inside it.
      const index = out.length;
      const say = { as: 'section' as const, ref: node.ref, role, name: node.name || undefined };
      out.push({ say, depth: ctx.depth, priority: MODAL_ROLES.has(role) ? Priority.Control : Priority.Section, kind: role, ref: node.ref, box: node.box, at: ctx });
      const inner: OutlineContext =
        role === 'iframe' && node.box
          ? { ...ctx, depth: ctx.depth + 1, offsetX: ctx.offsetX + node.box.x, offsetY: ctx.offsetY + node.box.y, container: node.ref ?? ctx.container }
          : { ...ctx, depth: ctx.depth + 1, container: node.ref ?? ctx.container };
      outline(node.children ?? [node.text ?? ''], inner, out, node.box);
      out[index]!.sectionEnd = out.length;
      continue;
    }

    if (node.ref && reactingEntries(node, ctx, out)) continue;

    if (ctx.controlsOnly) {
      outline(node.children ?? [], node.ref ? { ...ctx, container: node.ref } : ctx, out, node.box);
      continue;
    }

    if (role === 'img') {
      if (node.name) out.push({ say: { as: 'img', name: node.name }, depth: ctx.depth, priority: Priority.Text, kind: 'img', box: node.box, at: ctx });
      // An SVG drawing can hold text and links of its own (a chart's labels, a map's areas, an SVG file opened itself).
      if (node.children?.length) outline(node.children, { ...ctx, container: node.ref ?? ctx.container }, out, node.box);
      continue;
    }

    // Text-only elements, and table cells outside a data table (Playwright gives a text cell a name, no text).
    const own = node.text ?? (role === 'cell' && !node.children?.length ? node.name : undefined);
    if (own && !node.children?.length) {
      if (WORDY.test(own)) out.push(textEntry(own, role === 'listitem' ? '- ' : '', node.ref ?? ctx.container, node.box, ctx));
      continue;
    }
    // cursor:pointer is inherited: below a clickable container, only real controls get a line.
    const inner: OutlineContext = { ...ctx, container: node.ref ?? ctx.container, inListItem: role === 'listitem' };
    if (role === 'list' && ctx.inListItem) inner.depth = ctx.depth + 1;
    if (node.cursor === 'pointer' && node.ref) inner.inClickable = true;
    outline(node.children ?? [], inner, out, node.box);
  }
  flushText();
}

/**
 * An element that is no control but reacts (reacting.ts decides how it is listed): its entries, and those of
 * what it holds. False, writing nothing, when it is better listed as a container.
 */
function reactingEntries(node: AriaNode, outer: OutlineContext, out: Entry[]): boolean {
  const answer = outer.survey.nodes.get(node)!.reaction;
  const found = answer && underClaim(answer, outer);
  if (!found) return false;
  const ctx: OutlineContext = found.claims ? { ...outer, claimed: found.claims } : outer;
  switch (found.form) {
    case 'parts':
      holder(node, found.kind, { ...ctx, parts: true }, out);
      return true;
    case 'card':
      holder(node, found.kind, ctx, out);
      return true;
    case 'wrapper':
      return wrapper(node, found.kind, ctx, out, true);
    case 'line':
      reactingLine(node, found.kind, found.label, found.facts, found.inside, ctx, out);
      return true;
  }
}

/** One line for a reacting element; the controls it holds (a mail row's trash icon) indented below it. */
function reactingLine(node: AriaNode, kind: string, label: string, facts: ElementFacts | undefined, inside: boolean, ctx: OutlineContext, out: Entry[]): void {
  const ref = node.ref!;
  out.push({ say: { as: 'reacting', node, kind, label, facts }, depth: ctx.depth, priority: Priority.Control, kind, ref, box: node.box, at: ctx });
  if (inside) outline(node.children ?? [], { ...ctx, depth: ctx.depth + 1, container: ref, inClickable: true, controlsOnly: true }, out, node.box);
}

/** A reacting element as a header, with what it holds listed below it. */
function holder(node: AriaNode, kind: string, ctx: OutlineContext, out: Entry[]): void {
  const ref = node.ref!;
  const index = out.length;
  out.push({ say: { as: 'holder', ref, kind }, depth: ctx.depth, priority: Priority.Control, kind, ref, box: node.box, at: ctx });
  outline(node.children ?? [], { ...ctx, depth: ctx.depth + 1, container: ref, inClickable: true }, out, node.box);
  out[index]!.sectionEnd = out.length;
}

/** An item of a widget that serves its parts: a target of its own. False when it shows nothing to name it by. */
function part(node: AriaNode, outer: OutlineContext, out: Entry[]): boolean {
  const ctx: OutlineContext = { ...outer, parts: false };
  const found = underClaim(ctx.survey.nodes.get(node)!.part!, ctx);
  if (!found) return false;
  reactingLine(node, found.kind, found.label, found.facts, found.inside, ctx, out);
  return true;
}

/**
 * A control around other controls (a menu item around its link, a link around a button, a focusable list
 * item): both are targets, so both keep their refs. Around one control: `e5 menuitem > e6 link "Home"`; around
 * several: the wrapper's line as a header, its controls indented below. With `onlyOne`, returns false (and
 * lists nothing) when there are several: the caller lists the node as a container.
 */
function wrapper(node: AriaNode, kind: string, ctx: OutlineContext, out: Entry[], onlyOne = false): boolean {
  const inner: Entry[] = [];
  outline(node.children ?? [], { ...ctx, container: node.ref, claimed: node.box && boxKey(node.box) }, inner, node.box);
  const ref = node.ref!;
  const append = (entries: Entry[], deeper: number) => {
    const offset = out.length;
    for (const entry of entries) out.push({ ...entry, depth: entry.depth + deeper, sectionEnd: entry.sectionEnd === undefined ? undefined : entry.sectionEnd + offset });
  };
  if (inner.length === 1 && inner[0]!.ref && inner[0]!.priority === Priority.Control) {
    append([{ ...inner[0]!, say: { as: 'around', ref, kind, inner: inner[0]!.say } }], 0);
    return true;
  }
  if (onlyOne) return false;
  // A name made of what it holds (a calendar day named by its events) is said by the lines below it.
  const known = ctx.survey.nodes.get(node)!;
  const say = !inner.length || (node.name && !known.namedByContent) ? { ...known.control!, holds: inner.length > 0 } : { as: 'holder' as const, ref, kind };
  const index = out.length;
  out.push({ say, depth: ctx.depth, priority: Priority.Control, kind, ref: node.ref, box: node.box, at: ctx });
  append(inner, 1);
  if (inner.length) out[index]!.sectionEnd = out.length;
  return true;
}

/** A data table's lines (table.ts read it): its header line, then a line per row, the header row marked. */
function tableEntries(node: AriaNode, table: NonNullable<NodeFacts['table']>, ctx: OutlineContext, out: Entry[]): void {
  const index = out.length;
  out.push({ say: table.say, depth: ctx.depth, priority: Priority.Section, kind: node.role, ref: node.ref, box: node.box, at: ctx });
  for (const row of table.rows) {
    const entry: Entry = { say: row.say, depth: ctx.depth + 1, priority: row.control ? Priority.Control : Priority.Text, kind: row.control ? 'row' : 'text', ref: row.ref, box: row.box, at: ctx };
    if (row.header) entry.header = true;
    out.push(entry);
  }
  out[index]!.sectionEnd = out.length;
}
