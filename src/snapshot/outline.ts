/**
 * Lines: walks a captured aria tree and turns each element worth showing into one line of the snapshot
 * format (docs/snapshot-format.md), with its position, priority and kind (a line and the walk's context are
 * line.ts's). How a control's line reads is controls.ts's, a reacting element's reacting.ts's, a data table's
 * table.ts's, text joining and limits text.ts's; choosing which lines to show, and the budget, is format.ts's job.
 */
import type { AriaNode, Box, Capture } from './tree.js';
import { LEAF_CONTROLS, placed, Priority, type Line, type WalkContext } from './line.js';
import { controlLine, states } from './controls.js';
import { cellLabel, cellRows, cellRun, ITEM_ROLES } from './parts.js';
import { clickable, hasListedDescendant, ownFacts, part, wrapper } from './reacting.js';
import { TABLE_ROLES, tableLines } from './table.js';
import { collectText, isTextLeaf, joinPieces, NAME_LIMIT, quote, separator, shownWhole, TEXT_LIMIT, truncate, type Piece } from './text.js';

/** Interactive roles that hold other interactive elements: listed, then their children. */
const COMPOSITE_CONTROLS = new Set(['treeitem', 'listbox']);
/** Containers worth a header line so the model knows where a control sits. */
const SECTIONS = new Set([
  'dialog', 'alertdialog', 'iframe', 'navigation', 'form', 'search', 'menu', 'menubar', 'tablist', 'tree', 'table', 'grid', 'treegrid', 'banner', 'contentinfo', 'complementary', 'region',
]);
export const MODAL_ROLES = new Set(['dialog', 'alertdialog']);

export { quote, truncate, NAME_LIMIT };

const controlInside = new WeakMap<AriaNode, boolean>();

/** Whether a control with a ref sits somewhere below `node` (memoised: asked of many nested containers). */
function hasRefDescendant(node: AriaNode): boolean {
  const known = controlInside.get(node);
  if (known !== undefined) return known;
  let found = false;
  for (const child of node.children ?? []) {
    if (typeof child === 'string') continue;
    if ((child.ref && LEAF_CONTROLS.has(child.role)) || hasRefDescendant(child)) {
      found = true;
      break;
    }
  }
  controlInside.set(node, found);
  return found;
}

/** Text worth a line: it has a letter or a digit (not a lone "|" or "·"). */
const WORDY = /[\p{L}\p{N}]/u;

function textLine(text: string, prefix: string, ref: string | undefined, box: Box | undefined, ctx: WalkContext): Line {
  const { shown, rest } = shownWhole(text, ctx.textLimit, ref);
  return placed({ text: `${prefix}${shown}${rest ? ` ${rest}` : ''}`, depth: ctx.depth, priority: Priority.Text, kind: 'text' }, box, ctx);
}

/** A grid of alike cells (a month of days): a line per row, each cell by its ref, label and state. */
function gridLines(rows: AriaNode[][], ctx: WalkContext, out: Line[]): void {
  for (const row of rows) {
    const shown = row.map((cell) => [cell.ref, quote(truncate(cellLabel(cell), ctx.nameLimit)), ...states(cell, ownFacts(cell, ctx), ctx)].join(' '));
    const first = row[0]!.box!;
    const last = row[row.length - 1]!.box!;
    const box = { x: first.x, y: first.y, width: last.x + last.width - first.x, height: first.height };
    out.push(placed({ text: `| ${shown.join(' | ')} |`, depth: ctx.depth, priority: Priority.Control, kind: 'row' }, box, ctx));
  }
}

/**
 * Alike cells among `nodes` that are targets: inside a widget that reacts, or pointing of their own. Pieces
 * of one text (letters drawn one by one) are neither, and are joined as before.
 */
function targetCells(run: AriaNode[] | undefined, ctx: WalkContext): Set<AriaNode> | undefined {
  if (!run) return undefined;
  return ctx.inClickable || run.some((cell) => cell.cursor === 'pointer' || ownFacts(cell, ctx)?.clickable) ? new Set(run) : undefined;
}

export function walk(nodes: Array<AriaNode | string>, ctx: WalkContext, out: Line[], parentBox?: Box): void {
  const run = cellRun(nodes);
  const targets = targetCells(run, ctx);
  const rows = targets && cellRows([...targets]);
  // Cells one above the other are a list, not a grid: each is a part on its own line.
  const column = rows?.every((row) => row.length === 1) ? targets : undefined;
  const grid = column ? undefined : targets;
  // Alike cells that are no targets (a row of weekday names) are words side by side, even where they touch.
  const textCells = !targets && run?.some((cell) => cellLabel(cell).length > 1) ? new Set(run) : undefined;
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
    out.push(textLine(text, '', ctx.container, box, ctx));
  };

  for (const node of nodes) {
    if (typeof node === 'string') {
      if (pieces[pieces.length - 1]?.box) flushText();
      pieces.push({ text: node });
      continue;
    }
    const { role } = node;

    if (column?.has(node)) {
      flushText(node);
      if (part(node, ctx, out)) continue;
    }

    if (grid?.has(node)) {
      if (!gridWritten) {
        flushText(node);
        gridLines(rows!, ctx, out);
        gridWritten = true;
      }
      continue;
    }

    // A pointer cursor is reported on the outermost element that has it: one below another target is a target too.
    if (isTextLeaf(node) && !ownFacts(node, ctx)?.clickable && node.cursor !== 'pointer') {
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
      if (ownFacts(node, ctx)?.clickable && clickable(node, ctx, out)) continue;
      const level = Math.min(node.level ?? 2, 6);
      const name = node.name || node.text || '';
      if (name && !ctx.controlsOnly) out.push(placed({ ...textLine(name, `${'#'.repeat(level)} `, node.ref, undefined, ctx), priority: Priority.Heading, kind: 'heading' }, node.box, ctx));
      // A heading can hold a link; list it so it stays reachable.
      if (hasRefDescendant(node)) walk(node.children ?? [], ctx, out, node.box);
      continue;
    }

    if (node.ref && LEAF_CONTROLS.has(role) && hasListedDescendant(node, ctx)) {
      wrapper(node, role, ctx, out);
      continue;
    }
    if (node.ref && (LEAF_CONTROLS.has(role) || COMPOSITE_CONTROLS.has(role))) {
      out.push(placed({ text: controlLine(node, ctx), depth: ctx.depth, priority: Priority.Control, kind: role, ref: node.ref }, node.box, ctx));
      if (COMPOSITE_CONTROLS.has(role)) walk(node.children ?? [], { ...ctx, depth: ctx.depth + 1 }, out, node.box);
      continue;
    }

    if (LEAF_CONTROLS.has(role) && !node.ref) continue; // not visible or not receiving pointer events

    if (ctx.parts && node.ref && ITEM_ROLES.has(role) && part(node, ctx, out)) continue;

    if (TABLE_ROLES.has(role) && !ctx.controlsOnly && tableLines(node, ctx, out)) continue;

    if (role === 'iframe' || SECTIONS.has(role)) {
      // The ref lets the model expand the section (browser_snapshot ref) or scroll inside it.
      const header = `${node.ref ? `${node.ref} ` : ''}${role}${node.name ? ` ${quote(truncate(node.name, ctx.nameLimit))}` : ''}:`;
      const index = out.length;
      out.push(placed({ text: header, depth: ctx.depth, priority: MODAL_ROLES.has(role) ? Priority.Control : Priority.Section, kind: role, ref: node.ref }, node.box, ctx));
      const inner: WalkContext =
        role === 'iframe' && node.box
          ? { ...ctx, depth: ctx.depth + 1, offsetX: ctx.offsetX + node.box.x, offsetY: ctx.offsetY + node.box.y, container: node.ref ?? ctx.container, maskUnknownValues: ctx.unreadFrames }
          : { ...ctx, depth: ctx.depth + 1, container: node.ref ?? ctx.container };
      walk(node.children ?? [node.text ?? ''], inner, out, node.box);
      out[index]!.sectionEnd = out.length;
      continue;
    }

    if (node.ref && clickable(node, ctx, out)) continue;

    if (ctx.controlsOnly) {
      walk(node.children ?? [], node.ref ? { ...ctx, container: node.ref } : ctx, out, node.box);
      continue;
    }

    if (role === 'img') {
      if (node.name) out.push(placed({ text: `img ${quote(truncate(node.name, ctx.nameLimit))}`, depth: ctx.depth, priority: Priority.Text, kind: 'img' }, node.box, ctx));
      // An SVG drawing can hold text and links of its own (a chart's labels, a map's areas, an SVG file opened itself).
      if (node.children?.length) walk(node.children, { ...ctx, container: node.ref ?? ctx.container }, out, node.box);
      continue;
    }

    // Text-only elements, and table cells outside a data table (Playwright gives a text cell a name, no text).
    const own = node.text ?? (role === 'cell' && !node.children?.length ? node.name : undefined);
    if (own && !node.children?.length) {
      if (WORDY.test(own)) out.push(textLine(own, role === 'listitem' ? '- ' : '', node.ref ?? ctx.container, node.box, ctx));
      continue;
    }
    // cursor:pointer is inherited: below a clickable container, only real controls get a line.
    const inner: WalkContext = { ...ctx, container: node.ref ?? ctx.container, inListItem: role === 'listitem' };
    if (role === 'list' && ctx.inListItem) inner.depth = ctx.depth + 1;
    if (node.cursor === 'pointer' && node.ref) inner.inClickable = true;
    walk(node.children ?? [], inner, out, node.box);
  }
  flushText();
}

export { collectText };

export function findSubtree(nodes: Array<AriaNode | string>, ref: string): AriaNode | undefined {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref === ref) return node;
    const found = findSubtree(node.children ?? [], ref);
    if (found) return found;
  }
  return undefined;
}

/** Offset of a node inside iframes, so a subtree's boxes land in page coordinates. */
export function frameOffset(nodes: Array<AriaNode | string>, ref: string, x = 0, y = 0): { x: number; y: number } | undefined {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref === ref) return { x, y };
    const inner = node.role === 'iframe' && node.box ? { x: x + node.box.x, y: y + node.box.y } : { x, y };
    const found = frameOffset(node.children ?? [], ref, inner.x, inner.y);
    if (found) return found;
  }
  return undefined;
}

export function rootContext(capture: Capture): WalkContext {
  let pageUrl: URL | undefined;
  try {
    pageUrl = new URL(capture.url);
  } catch {
    pageUrl = undefined;
  }
  return { depth: 0, offsetX: 0, offsetY: 0, inClickable: false, fields: capture.fields, unreadFrames: capture.unreadFrames, pageUrl, textLimit: TEXT_LIMIT, nameLimit: NAME_LIMIT, walk };
}

/**
 * Every line of a capture, unindented, for comparing two captures of one document, with its vertical place in
 * page coordinates (a line without a box takes the place of the line before it).
 */
export type PageLine = { text: string; ref?: string; kind: string; top: number; bottom: number };
const pageLinesOf = new WeakMap<Capture, PageLine[]>();

/** Memoised: each capture is the "after" of one action's diff and the "before" of the next. */
export function pageLines(capture: Capture): PageLine[] {
  let result = pageLinesOf.get(capture);
  if (!result) {
    const lines: Line[] = [];
    walk(capture.tree, rootContext(capture), lines);
    const { scrollY } = capture.metrics;
    let top = scrollY;
    let bottom = scrollY;
    result = [];
    for (const line of lines) {
      if (line.sectionEnd !== undefined && !MODAL_ROLES.has(line.kind)) continue;
      if (line.top !== undefined && line.bottom !== undefined) {
        top = line.top + scrollY;
        bottom = line.bottom + scrollY;
      }
      result.push({ text: line.text, ref: line.ref, kind: line.kind, top, bottom });
    }
    pageLinesOf.set(capture, result);
  }
  return result;
}

/** Every ref in the tree with its role and name, for resolving and re-finding elements. */
export function indexRefs(nodes: Array<AriaNode | string>, into = new Map<string, { role: string; name: string }>()) {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref) into.set(node.ref, { role: node.role, name: node.name || node.text || '' });
    indexRefs(node.children ?? [], into);
  }
  return into;
}
