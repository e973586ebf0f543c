/**
 * Tables: a data table reads as rows of cells, the header once: `e3 table "Prices" (3 cols):`, then
 * `| Product | Price |` and one `| Kettle | 24.90 |` line per row. A control in a cell is written in the cell
 * as in its own line (`e16 button "Buy"`); a cell or row that reacts to clicks starts with its ref. A table
 * whose cells hold structure (lists, headings, nested tables: a layout table) is walked like any container.
 */
import type { AriaNode } from './tree.js';
import { clickableLine, controlLine, factsOf, states } from './controls.js';
import { Priority, LEAF_CONTROLS, placed, type Line, type WalkContext } from './line.js';
import { collectText, quote, shownWhole } from './text.js';

export const TABLE_ROLES = new Set(['table', 'grid', 'treegrid']);
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
/** Roles a plain data cell does not hold: their presence makes the table a layout table. */
const STRUCTURE = new Set(['table', 'grid', 'treegrid', 'list', 'listitem', 'heading', 'paragraph', 'form', 'navigation', 'region', 'article', 'textbox', 'combobox', 'listbox', 'tree', 'dialog']);
const CELL_TEXT_LIMIT = 200;

function rowsOf(table: AriaNode): AriaNode[] {
  const rows: AriaNode[] = [];
  const visit = (nodes: Array<AriaNode | string>) => {
    for (const node of nodes) {
      if (typeof node === 'string') continue;
      if (node.role === 'row') rows.push(node);
      else if (node.role === 'rowgroup' || node.role === 'generic' || node.role === 'group') visit(node.children ?? []);
    }
  };
  visit(table.children ?? []);
  return rows;
}

function cellsOf(row: AriaNode): AriaNode[] {
  return (row.children ?? []).filter((c): c is AriaNode => typeof c !== 'string' && CELL_ROLES.has(c.role));
}

/** A part of a row that shows nothing but a mark of its own (a column's resize grip): named on the table's line. */
function isGrip(node: AriaNode | string, ctx: WalkContext): node is AriaNode {
  if (typeof node === 'string' || CELL_ROLES.has(node.role) || node.text || node.children?.length) return false;
  const facts = factsOf(node, ctx);
  return !node.name || node.name === facts?.icon;
}

function holdsStructure(node: AriaNode): boolean {
  return (node.children ?? []).some((c) => typeof c !== 'string' && (STRUCTURE.has(c.role) || holdsStructure(c)));
}

/** Rows of cells with short, flat content: a table of data rather than a page laid out in a table. */
function isDataTable(table: AriaNode, rows: AriaNode[], ctx: WalkContext): boolean {
  if (!rows.length) return false;
  for (const row of rows) {
    const cells = cellsOf(row);
    const others = (row.children ?? []).filter((c) => typeof c !== 'string' && !CELL_ROLES.has(c.role));
    if (!cells.length || !others.every((c) => isGrip(c, ctx))) return false;
    for (const cell of cells) {
      if (holdsStructure(cell)) return false;
      if ((cell.name ?? cell.text ?? '').length > CELL_TEXT_LIMIT) return false;
    }
  }
  return table.role !== 'treegrid';
}

/** A cell's content: its text, its controls written as in their own lines, and its ref when it reacts. */
function cellText(cell: AriaNode, ctx: WalkContext): { text: string; control: boolean } {
  let control = false;
  const parts: string[] = [];
  const facts = factsOf(cell, ctx);
  // A cell that reacts is written by its ref, unless it holds a control: then that control is the target.
  const reacts = cell.ref && !hasControl(cell) && (facts?.clickable || cell.role === 'gridcell');
  // What a reacting cell is named by is said once; what else it holds (a calendar day's events) follows it.
  const label = (reacts && (cell.name || cell.text || collectText(cell))) || undefined;
  const own = label !== undefined;
  const visit = (nodes: Array<AriaNode | string>) => {
    for (const node of nodes) {
      if (typeof node === 'string') {
        if (node.trim() !== label) parts.push(node);
      } else if (label !== undefined && (node.name || node.text) === label) continue;
      else if (node.ref && LEAF_CONTROLS.has(node.role) && !CELL_ROLES.has(node.role)) {
        parts.push(controlLine(node, ctx));
        control = true;
      } else if (node.ref && factsOf(node, ctx)?.clickable) {
        parts.push(clickableLine(node, 'clickable', node.name || node.text || collectText(node), factsOf(node, ctx), ctx));
        control = true;
      } else if (node.children?.length) visit(node.children);
      else if (node.name || node.text) parts.push(node.name || node.text || '');
    }
  };
  if (!own && !cell.children?.length) parts.push(cell.name || cell.text || '');
  else visit(cell.children ?? []);
  const content = parts.join(' ').replace(/\s+/g, ' ').replace(/\|/g, '¦').trim();
  if (own) {
    const said = [cell.ref, quote(label!), ...states(cell, facts, ctx)].join(' ');
    return { text: `${said}${content ? ` ${shownWhole(content, ctx.textLimit, cell.ref).shown}` : ''}`, control: true };
  }
  return { text: shownWhole(content, ctx.textLimit, cell.ref).shown, control };
}

function hasControl(node: AriaNode): boolean {
  return (node.children ?? []).some((c) => typeof c !== 'string' && ((!!c.ref && LEAF_CONTROLS.has(c.role)) || hasControl(c)));
}

/**
 * Writes a data table's lines into `out` and returns true, or returns false for a layout table (the caller
 * walks it as a container). The header row is marked so that viewport selection keeps it with any row shown.
 */
export function tableLines(table: AriaNode, ctx: WalkContext, out: Line[]): boolean {
  const rows = rowsOf(table);
  if (!isDataTable(table, rows, ctx)) return false;
  const columns = Math.max(...rows.map((row) => cellsOf(row).length));
  const name = table.name ? ` ${quote(table.name)}` : '';
  const headerIndex = out.length;
  out.push(placed({ text: `${table.ref ? `${table.ref} ` : ''}${table.role}${name} (${columns} col${columns === 1 ? '' : 's'}):`, depth: ctx.depth, priority: Priority.Section, kind: table.role, ref: table.ref }, table.box, ctx));
  // The rows' grips (a column's resize handle) are named once, on the table's line, not in every cell.
  const grips: string[] = [];
  for (const row of rows) {
    const cells = cellsOf(row);
    const rendered = cells.map((cell) => cellText(cell, ctx));
    for (const child of row.children ?? []) if (isGrip(child, ctx) && child.ref) grips.push(child.ref);
    if (rendered.every((c) => !c.text)) continue;
    const heading = cells.every((c) => c.role === 'columnheader');
    const rowReacts = row.ref && factsOf(row, ctx)?.clickable;
    const text = `${rowReacts ? `${row.ref} ` : ''}| ${rendered.map((c) => c.text).join(' | ')} |`;
    const control = rendered.some((c) => c.control) || !!rowReacts;
    const line = placed({ text, depth: ctx.depth + 1, priority: control ? Priority.Control : Priority.Text, kind: control ? 'row' : 'text', ref: rowReacts ? row.ref : undefined }, row.box, ctx);
    if (heading) line.header = true;
    out.push(line);
  }
  if (grips.length) out[headerIndex]!.text = out[headerIndex]!.text.replace(/\):$/, `, resize grips ${grips.join(' ')}):`);
  out[headerIndex]!.sectionEnd = out.length;
  return true;
}
