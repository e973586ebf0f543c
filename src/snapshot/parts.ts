/**
 * Parts: targets drawn side by side that are not text to be joined. A widget that serves its parts with one
 * listener (a date picker's days, a sortable list's items) repeats alike elements, and each of them is a
 * target of its own. Cells of one size in rows are a grid (a month of days); items of a list-like role are a
 * list. This module only recognises them from the capture's roles and boxes; the outline lists them.
 */
import { ITEM_ROLES } from './roles.js';
import type { AriaNode } from './tree.js';

/** Alike cells needed before a run of them is a grid rather than pieces of one text. */
const MIN_CELLS = 3;
/** Pixels two cells' widths or heights may differ by and still be of one size (borders, rounding). */
const SIZE_SLACK = 1;

/** A node showing one short text and nothing else, with a ref and a place on screen: a candidate cell. */
export function isCell(node: AriaNode | string): node is AriaNode {
  if (typeof node === 'string' || !node.ref || !node.box || node.box.width === 0 || node.box.height === 0) return false;
  if (node.role !== 'generic' && node.role !== 'text') return false;
  if (node.children?.some((child) => typeof child !== 'string')) return false;
  return !!(node.text || node.name);
}

/**
 * The cells among `nodes` that are of one size, when there are at least MIN_CELLS of them: a grid's cells in
 * reading order. Letters drawn one by one differ in width; days, weekdays and chips of a widget do not.
 */
export function cellRun(nodes: Array<AriaNode | string>): AriaNode[] | undefined {
  const cells = nodes.filter(isCell);
  if (cells.length < MIN_CELLS) return undefined;
  const first = cells[0]!.box!;
  const alike = cells.filter((cell) => Math.abs(cell.box!.width - first.width) <= SIZE_SLACK && Math.abs(cell.box!.height - first.height) <= SIZE_SLACK);
  // Every cell alike: a widget's run. A mixed run (a label among the cells) is read as text.
  return alike.length === cells.length ? cells : undefined;
}

/** Cells grouped into rows, top to bottom, each row left to right. */
export function cellRows(cells: AriaNode[]): AriaNode[][] {
  const rows: AriaNode[][] = [];
  for (const cell of cells) {
    const row = rows.find((r) => Math.abs(r[0]!.box!.y - cell.box!.y) < cell.box!.height / 2);
    if (row) row.push(cell);
    else rows.push([cell]);
  }
  rows.sort((a, b) => a[0]!.box!.y - b[0]!.box!.y);
  for (const row of rows) row.sort((a, b) => a.box!.x - b.box!.x);
  return rows;
}

/** Levels below a widget searched for its parts: a calendar's days sit in a body in a container. */
const PARTS_DEPTH = 4;

/**
 * Whether `node` holds parts a person acts on one by one: at least two items of a list-like role with refs
 * side by side, or a run of alike cells.
 */
export function holdsParts(node: AriaNode, depth = PARTS_DEPTH): boolean {
  const children = node.children ?? [];
  let items = 0;
  for (const child of children) if (typeof child !== 'string' && child.ref && ITEM_ROLES.has(child.role)) items++;
  if (items >= 2 || cellRun(children)) return true;
  return depth > 0 && children.some((child) => typeof child !== 'string' && holdsParts(child, depth - 1));
}

/** The label of a cell: its name when it says more than its text ("March 14, 2024" for "14"). */
export function cellLabel(cell: AriaNode): string {
  return (cell.name || cell.text || '').trim();
}
