/**
 * Tables: a data table reads as rows of cells, the header once: `e3 table "Prices" (3 cols):`, then
 * `| Product | Price |` and one `| Kettle | 24.90 |` line per row. A control in a cell is written in the cell
 * as in its own line (`e16 button "Buy"`); a cell or row that reacts to clicks starts with its ref. A table
 * whose cells hold structure (lists, headings, nested tables: a layout table) is walked like any container.
 * This module reads a data table for the survey (survey.ts); the outline lists its lines, lineText.ts writes them.
 */
import { factsOf, type AriaNode, type ElementFacts } from './tree.js';
import type { CellSay } from './entry.js';
import type { DataTable, NodeFacts } from './nodeFacts.js';
import { LEAF_CONTROLS } from './roles.js';
import { collectText } from './textPieces.js';

type Fields = Map<string, ElementFacts>;

const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
/** Roles a plain data cell does not hold: their presence makes the table a layout table. */
const STRUCTURE = new Set(['table', 'grid', 'treegrid', 'list', 'listitem', 'heading', 'paragraph', 'form', 'navigation', 'region', 'article', 'textbox', 'combobox', 'listbox', 'tree', 'dialog']);
const CELL_TEXT_LIMIT = 200;

function rowsOf(table: AriaNode): AriaNode[] {
  const rows: AriaNode[] = [];
  const visit = (list: Array<AriaNode | string>) => {
    for (const node of list) {
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
function isGrip(node: AriaNode | string, fields: Fields): node is AriaNode {
  if (typeof node === 'string' || CELL_ROLES.has(node.role) || node.text || node.children?.length) return false;
  const facts = factsOf(node, fields);
  return !node.name || node.name === facts?.icon;
}

function holdsStructure(node: AriaNode): boolean {
  return (node.children ?? []).some((c) => typeof c !== 'string' && (STRUCTURE.has(c.role) || holdsStructure(c)));
}

/** Rows of cells with short, flat content: a table of data rather than a page laid out in a table. */
function isDataTable(table: AriaNode, rows: AriaNode[], fields: Fields): boolean {
  if (!rows.length) return false;
  for (const row of rows) {
    const cells = cellsOf(row);
    const others = (row.children ?? []).filter((c) => typeof c !== 'string' && !CELL_ROLES.has(c.role));
    if (!cells.length || !others.every((c) => isGrip(c, fields))) return false;
    for (const cell of cells) {
      if (holdsStructure(cell)) return false;
      if ((cell.name ?? cell.text ?? '').length > CELL_TEXT_LIMIT) return false;
    }
  }
  return table.role !== 'treegrid';
}

/**
 * What a cell says: its text, its controls as in their own lines, and its ref when it reacts. `shows` is
 * false when it says nothing at all; `control` when it holds a target.
 */
function cellSay(cell: AriaNode, fields: Fields, nodes: Map<AriaNode, NodeFacts>): { say: CellSay; shows: boolean; control: boolean } {
  let control = false;
  const parts: CellSay['parts'] = [];
  const facts = factsOf(cell, fields);
  // A cell that reacts is written by its ref, unless it holds a control: then that control is the target.
  const reacts = cell.ref && !hasControl(cell) && (facts?.clickable || cell.role === 'gridcell');
  // What a reacting cell is named by is said once; what else it holds (a calendar day's events) follows it.
  const label = (reacts && (cell.name || cell.text || collectText(cell))) || undefined;
  const own = label !== undefined;
  const visit = (list: Array<AriaNode | string>) => {
    for (const node of list) {
      if (typeof node === 'string') {
        if (node.trim() !== label) parts.push(node);
      } else if (label !== undefined && (node.name || node.text) === label) continue;
      else if (node.ref && LEAF_CONTROLS.has(node.role) && !CELL_ROLES.has(node.role)) {
        parts.push(nodes.get(node)!.control!);
        control = true;
      } else if (node.ref && factsOf(node, fields)?.clickable) {
        parts.push({ as: 'reacting', node, kind: 'clickable', label: node.name || node.text || collectText(node), facts: factsOf(node, fields) });
        control = true;
      } else if (node.children?.length) visit(node.children);
      else if (node.name || node.text) parts.push(node.name || node.text || '');
    }
  };
  if (!own && !cell.children?.length) parts.push(cell.name || cell.text || '');
  else visit(cell.children ?? []);
  if (own) return { say: { ref: cell.ref, own: { node: cell, label: label!, facts }, parts }, shows: true, control: true };
  // A control's line is never empty; text is, when it is all blanks.
  const shows = control || parts.some((part) => typeof part !== 'string' || part.trim() !== '');
  return { say: { ref: cell.ref, parts }, shows, control };
}

function hasControl(node: AriaNode): boolean {
  return (node.children ?? []).some((c) => typeof c !== 'string' && ((!!c.ref && LEAF_CONTROLS.has(c.role)) || hasControl(c)));
}

/**
 * A data table read into its lines, or undefined for a layout table (the outline walks it as a container).
 * The header row is marked so that viewport selection keeps it with any row shown. The controls in its cells
 * are said as the survey found them (`nodes`).
 */
export function readTable(table: AriaNode, fields: Fields, nodes: Map<AriaNode, NodeFacts>): DataTable | undefined {
  const rows = rowsOf(table);
  if (!isDataTable(table, rows, fields)) return undefined;
  const columns = Math.max(...rows.map((row) => cellsOf(row).length));
  // The rows' grips (a column's resize handle) are named once, on the table's line, not in every cell.
  const grips: string[] = [];
  const read: DataTable = { say: { as: 'table', ref: table.ref, role: table.role, name: table.name || undefined, columns, grips }, rows: [] };
  for (const row of rows) {
    const cells = cellsOf(row);
    const said = cells.map((cell) => cellSay(cell, fields, nodes));
    for (const child of row.children ?? []) if (isGrip(child, fields) && child.ref) grips.push(child.ref);
    if (said.every((c) => !c.shows)) continue;
    const rowReacts = row.ref && factsOf(row, fields)?.clickable;
    const ref = rowReacts ? row.ref : undefined;
    read.rows.push({
      say: { as: 'row', ref, cells: said.map((c) => c.say) },
      control: said.some((c) => c.control) || !!rowReacts,
      header: cells.every((c) => c.role === 'columnheader'),
      ref,
      box: row.box,
    });
  }
  return read;
}
