/**
 * The held-out file check (issue 54): each PDF, CSV or TSV is served from a local server as a download, opened
 * with browser_navigate through the real toolset, and read to its end by following the "next" call of each part
 * (browser_read { file }). Then every piece of text of each PDF page must be found in what was read under that
 * page's heading, and every cell of a CSV in its row of the table, at its column.
 *
 * Text is compared with its whitespace made single spaces (line ends too: a line too long for a part is split at a
 * space) and `|` as the table grammar writes it (`¦`); nothing else is forgiven.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { BrowserToolset } from '../../src/index.js';
import { serveFiles, type Served } from '../../test/helpers/files.js';
import { OFFLINE_ARGS } from '../../test/helpers/server.js';
import type { GeneratedFile } from './generate.js';
import { decodeText, delimiterOf, hasPdftotext, parseCsv, pdftotextPages, piecesOf } from './truth.js';

export interface FileResult {
  name: string;
  kind: 'pdf' | 'table';
  /** Where the truth came from: `pdftotext -layout`, the generator's own text, or the check's CSV parser. */
  truth: string;
  parts: number;
  /** PDF: pieces of text (a `-layout` line split at wide gaps); table: cells. */
  total: number;
  found: number;
  /** PDF: found, but under another page's heading; table: found in the table, but not in its row and column. */
  misplaced: number;
  /** PDF: not found as such, but found on its page when spaces are left out (a space more or less between pieces). */
  spacing: number;
  /** PDF: lines whose every piece was found on their page; table: rows whose every cell is in place. */
  lines: { total: number; whole: number };
  misses: string[];
  /** What went wrong besides misses (a row count that differs, a read error): the check fails on them. */
  remarks: string[];
  /** What is worth knowing and not wrong (rows wrapped onto more lines). */
  notes: string[];
}

/**
 * Text as compared: compatibility forms folded (NFKC: µ micro sign and μ, ligatures), the Symbol font's ∆ (its
 * glyph list names U+2206 where pdf-lib wrote Δ) as Δ, whitespace as single spaces.
 */
export const normalize = (text: string) => text.normalize('NFKC').replace(/\u2206/g, '\u0394').replace(/\s+/g, ' ').trim();
const unspaced = (text: string) => text.replace(/ /g, '');
const cellText = (text: string) => normalize(text).replace(/\|/g, '¦');

type Tool = { execute: (input: unknown, context: unknown) => Promise<any> };

/** Reads a downloaded file to its end: navigate's first part, then each part's "next" call. */
async function readAll(toolset: BrowserToolset, url: string, maxTokens?: number): Promise<{ name?: string; parts: string[]; error?: string }> {
  const tools = toolset.tools as unknown as Record<string, Tool>;
  const opened = await tools.browser_navigate!.execute({ url }, {});
  if (!opened.ok) return { parts: [], error: `navigate: ${opened.error?.code}: ${opened.error?.message}` };
  const name: string | undefined = opened.downloads?.[0]?.file;
  if (!name) return { parts: [], error: 'navigate listed no download' };
  const parts: string[] = [];
  let next: string | undefined;
  if (maxTokens) next = `browser_read ${JSON.stringify({ file: name, page: 1, maxTokens })}`;
  else {
    if (typeof opened.file !== 'string') return { name, parts, error: 'navigate gave no file text' };
    // The first part, without its footer (the part count and the next call).
    parts.push(opened.file.replace(/\n\[part 1 of \d+; next: (browser_read \{.*\})\]$/, (_: string, call: string) => ((next = call), '')));
  }
  while (next) {
    const input = JSON.parse(next.replace(/^browser_read /, ''));
    const part = await tools.browser_read!.execute(input, {});
    if (!part.ok) return { name, parts, error: `browser_read ${JSON.stringify(input)}: ${part.error?.code}: ${part.error?.message}` };
    parts.push(part.markdown);
    next = part.next;
    if (parts.length > 100_000) return { name, parts, error: 'more than 100,000 parts' };
  }
  return { name, parts };
}

/** The text read under each `## PDF page N of M` heading (continued parts joined), by page number. */
export function pagesRead(parts: string[]): Map<number, string[]> {
  const pages = new Map<number, string[]>();
  let current: number | undefined;
  for (const part of parts) {
    current = undefined;
    for (const line of part.split('\n')) {
      const heading = /^## PDF page (\d+) of \d+( \(continued\))?$/.exec(line);
      if (heading) {
        current = Number(heading[1]);
        if (!pages.has(current)) pages.set(current, []);
      } else if (current !== undefined) pages.get(current)!.push(line);
    }
  }
  return pages;
}

export function checkPdf(name: string, truthPages: string[][], truth: string, parts: string[], split: (line: string) => string[]): FileResult {
  const read = pagesRead(parts);
  const text = new Map([...read].map(([page, lines]) => [page, normalize(lines.join('\n'))]));
  const result: FileResult = { name, kind: 'pdf', truth, parts: parts.length, total: 0, found: 0, misplaced: 0, spacing: 0, lines: { total: 0, whole: 0 }, misses: [], remarks: [], notes: [] };
  if (read.size !== truthPages.length) result.remarks.push(`${read.size} pages read, ${truthPages.length} in the truth`);
  truthPages.forEach((lines, index) => {
    const page = index + 1;
    const own = text.get(page) ?? '';
    for (const line of lines) {
      const pieces = split(line).map(normalize).filter(Boolean);
      if (!pieces.length) continue;
      result.lines.total++;
      let whole = true;
      for (const piece of pieces) {
        result.total++;
        if (own.includes(piece)) {
          result.found++;
          continue;
        }
        whole = false;
        const elsewhere = [...text].find(([, t]) => t.includes(piece))?.[0];
        if (elsewhere !== undefined) result.misplaced++;
        const spaced = elsewhere === undefined && unspaced(own).includes(unspaced(piece));
        if (spaced) result.spacing++;
        if (result.misses.length < 8) result.misses.push(`page ${page}: ${JSON.stringify(piece)}${elsewhere !== undefined ? ` (found on page ${elsewhere})` : spaced ? ' (found with other spacing)' : ''}`);
      }
      if (whole) result.lines.whole++;
    }
  });
  return result;
}

/** The table's rows as read (header rows of later parts left out), each split into its cells. */
export function rowsRead(parts: string[]): { header?: string[]; rows: string[][]; broken: number; wrapped: number } {
  let header: string[] | undefined;
  const rows: string[][] = [];
  let broken = 0;
  let wrapped = 0;
  const cells = (line: string) => line.replace(/^\| /, '').replace(/ \|$/, '').split(' | ');
  // A row longer than a whole part goes on in the next part, after its heading.
  let last: string | undefined;
  const flush = () => {
    if (last !== undefined) rows.push(cells(last));
    last = undefined;
  };
  for (const part of parts) {
    const lines = part.split('\n');
    const start = lines.findIndex((line) => /^table ".*" \(\d+ cols?, [\d,]+ rows?.*\):$/.test(line));
    if (start < 0) continue;
    const headerLine = lines[start + 1];
    if (headerLine !== undefined && !header) header = cells(headerLine);
    for (const line of lines.slice(start + 2)) {
      if (line.startsWith('| ') || line === '|  |') {
        flush();
        last = line;
      } else if (last !== undefined && line.startsWith('  ')) {
        // A row too long for one line goes on, indented, on the next (split between cells or at a space).
        wrapped++;
        last += ' ' + line.trimStart();
      } else if (last !== undefined) {
        // A row written on more than one line: the check joins it back and counts it.
        broken++;
        last += line;
      }
    }
  }
  flush();
  return { header, rows, broken, wrapped };
}

export function checkTable(name: string, truthRows: string[][], truth: string, parts: string[]): FileResult {
  const { header, rows, broken, wrapped } = rowsRead(parts);
  const read = header ? [header, ...rows] : rows;
  const all = normalize(parts.join('\n'));
  const result: FileResult = { name, kind: 'table', truth, parts: parts.length, total: 0, found: 0, misplaced: 0, spacing: 0, lines: { total: 0, whole: 0 }, misses: [], remarks: [], notes: [] };
  if (broken) result.remarks.push(`${broken} lines of rows were cut where the grammar does not allow it`);
  if (wrapped) result.notes.push(`${wrapped} continuation lines of rows too long for one line`);
  if (read.length !== truthRows.length) result.remarks.push(`${read.length - 1} rows read, ${truthRows.length - 1} in the file`);
  truthRows.forEach((row, r) => {
    result.lines.total++;
    let whole = true;
    row.forEach((raw, c) => {
      const cell = cellText(raw);
      result.total++;
      if ((read[r]?.[c] ?? undefined) !== undefined && cellText(read[r]![c]!) === cell) {
        result.found++;
        return;
      }
      whole = false;
      const elsewhere = cell !== '' && all.includes(cell);
      if (elsewhere) result.misplaced++;
      if (result.misses.length < 8) result.misses.push(`row ${r} col ${c + 1}: ${JSON.stringify(cell)}, read ${JSON.stringify(read[r]?.[c])}${elsewhere ? ' (in the table elsewhere)' : ''}`);
    });
    if (whole) result.lines.whole++;
  });
  return result;
}

const TYPES: Record<string, string> = { pdf: 'application/pdf', csv: 'text/csv', tsv: 'text/tab-separated-values' };

/**
 * Serves `files` (from `dir`), reads each through a fresh toolset, and checks it. `generated` gives the
 * generator's own text (the truth when `pdftotext` is missing, and a second check when not).
 */
export async function runCheck(dir: string, names: string[], options: { generated?: GeneratedFile[]; maxTokens?: number; log?: (line: string) => void } = {}): Promise<FileResult[]> {
  const log = options.log ?? (() => {});
  const routes: Record<string, Served> = {};
  for (const name of names) {
    const ext = name.split('.').pop()!.toLowerCase();
    routes[`/${encodeURIComponent(name)}`] = { type: TYPES[ext] ?? 'application/octet-stream', attachment: name, body: readFileSync(join(dir, name)) };
  }
  const server = await serveFiles(routes);
  const toolset = new BrowserToolset({ args: OFFLINE_ARGS, downloadDir: mkdtempSync(join(tmpdir(), 'files-check-dl-')), navigationTimeout: 60_000, timeout: 60_000 });
  const poppler = hasPdftotext();
  const results: FileResult[] = [];
  try {
    for (const name of names) {
      const path = join(dir, name);
      const read = await readAll(toolset, server.url(`/${encodeURIComponent(name)}`), options.maxTokens);
      const generated = options.generated?.find((file) => file.name === name);
      const checked: FileResult[] = [];
      if (/\.pdf$/i.test(name)) {
        if (poppler) checked.push(checkPdf(name, pdftotextPages(path), 'pdftotext -layout', read.parts, piecesOf));
        if (generated?.pages) checked.push(checkPdf(name, generated.pages, 'generator', read.parts, (line) => [line]));
        if (!checked.length) log(`${name}: skipped, no truth (install poppler-utils for pdftotext)`);
      } else {
        const text = decodeText(readFileSync(path));
        checked.push(checkTable(name, parseCsv(text, delimiterOf(text, name)), 'own CSV parser', read.parts));
        if (generated?.rows) checked.push(checkTable(name, generated.rows, 'generator', read.parts));
      }
      for (const result of checked) {
        if (read.error) result.remarks.push(read.error);
        results.push(result);
        log(`${result.name} [${result.truth}]: ${result.found}/${result.total} ${result.kind === 'pdf' ? 'pieces' : 'cells'} found${result.misplaced ? `, ${result.misplaced} on another page or cell` : ''}${result.spacing ? `, ${result.spacing} with other spacing` : ''}; ${result.lines.whole}/${result.lines.total} ${result.kind === 'pdf' ? 'lines' : 'rows'} whole; ${result.parts} parts${[...result.remarks, ...result.notes].map((r) => `; ${r}`).join('')}`);
        for (const miss of result.misses) log(`    miss: ${miss}`);
      }
    }
  } finally {
    await toolset.close();
    await server.close();
  }
  return results;
}

/** Writes `files` into a new temporary folder; returns it. */
export function writeFiles(files: GeneratedFile[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'files-check-'));
  for (const file of files) writeFileSync(join(dir, basename(file.name)), file.body);
  return dir;
}
