/**
 * CSV and TSV files as tables in the snapshot's table grammar (docs/snapshot-format.md): a line naming the table
 * with its columns and rows, the header row, then one `| a | b |` line per row. Parsed by Papa Parse, which
 * finds the delimiter of a CSV (comma, semicolon, tab, pipe) and handles quoted cells with commas and line breaks.
 * Every part repeats the header row and says which rows it holds of how many.
 */
import Papa from 'papaparse';
import { quote } from '../snapshot/index.js';
import type { Section } from './parts.js';

export interface TableRead {
  section: Section;
  /** Rows that could not be parsed cleanly (an unclosed quote), said once. */
  problems: string[];
}

/** A cell as the snapshot writes one: its whitespace (line breaks in a quoted cell) as single spaces, `|` as `¦`. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '¦').trim();
}

function rowLine(cells: string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** `readPart`: the text is the file's start only (its size named), and the count of rows says so. */
export function tableOf(name: string, text: string, delimiter: ',' | '\t' | undefined, readPart?: string): TableRead {
  const parsed = Papa.parse<string[]>(text, { delimiter: delimiter ?? '', skipEmptyLines: true });
  const rows = parsed.data.filter((row) => Array.isArray(row));
  const columns = rows.reduce((most, row) => Math.max(most, row.length), 0);
  const [header, ...body] = rows;
  const count = body.length;
  const title = `table ${quote(name)} (${columns} col${columns === 1 ? '' : 's'}, ${count.toLocaleString('en-US')} row${count === 1 ? '' : 's'}${readPart ? ` in its first ${readPart}` : ''}`;
  const section: Section = {
    lines: body.map(rowLine),
    rows: true,
    heading: (from, to) => {
      const whole = from === 0 && to >= count;
      return [`${title}${whole ? '' : `; rows ${(from + 1).toLocaleString('en-US')}–${to.toLocaleString('en-US')}`}):`, ...(header ? [rowLine(header)] : [])];
    },
  };
  const problems = parsed.errors
    .filter((error) => error.code !== 'UndetectableDelimiter')
    .slice(0, 3)
    .map((error) => `${error.message}${error.row !== undefined ? ` (row ${error.row + 1})` : ''}`);
  return { section, problems };
}
