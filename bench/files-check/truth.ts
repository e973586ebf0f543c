/**
 * What a file holds, found without the reader under test: a PDF's lines per page from Poppler's `pdftotext
 * -layout` (Debian's poppler-utils), a CSV's cells from a small RFC 4180 parser of its own (not Papa Parse,
 * which the reader uses).
 */
import { execFileSync, spawnSync } from 'node:child_process';

/** Whether `pdftotext` is installed. */
export function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Poppler's version, as `pdftotext -v` gives it (on stderr), if installed. */
export function popplerVersion(): string | undefined {
  const run = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  return run.error ? undefined : /version ([\d.]+)/.exec(`${run.stdout}${run.stderr}`)?.[1];
}

/** The lines of each page of the PDF at `path`, as `pdftotext -layout` lays them out (columns kept apart by spaces). */
export function pdftotextPages(path: string): string[][] {
  const out = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const pages = out.split('\f');
  // pdftotext ends the last page with a form feed too.
  if (pages.length > 1 && !pages[pages.length - 1]!.trim()) pages.pop();
  return pages.map((page) => page.split('\n').filter((line) => line.trim()));
}

/** The pieces of a `-layout` line: runs of text kept apart by two spaces or more (columns, table cells). */
export function piecesOf(line: string): string[] {
  return line
    .split(/\s{2,}/)
    .map((piece) => piece.trim())
    .filter(Boolean);
}

/** Bytes as text: UTF-8 (a BOM dropped), else Windows-1252. */
export function decodeText(bytes: Buffer): string {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    // Not TextDecoder('windows-1252'): Node decodes that label as ISO-8859-1 (0x80 a control, not €).
    const high = [0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178];
    return Array.from(body, (byte) => String.fromCharCode(byte >= 0x80 && byte < 0xa0 ? high[byte - 0x80]! : byte)).join('');
  }
}

/** The delimiter of a CSV: of comma, semicolon, tab and pipe, the one most often outside quotes in its first line. */
export function delimiterOf(text: string, name: string): string {
  if (/\.tsv$/i.test(name)) return '\t';
  const counts = new Map<string, number>();
  let inQuotes = false;
  for (const ch of text) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) break;
    else if (!inQuotes && ',;\t|'.includes(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ',';
}

/** Rows of cells (RFC 4180: a quoted cell may hold the delimiter, quotes doubled, line breaks); blank lines skipped. */
export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let started = false; // the row has a character, so a line end closes a row
  const endRow = () => {
    if (started) rows.push([...row, cell]);
    row = [];
    cell = '';
    started = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') {
      quoted = true;
      started = true;
    } else if (ch === delimiter) {
      row.push(cell);
      cell = '';
      started = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else {
      cell += ch;
      started = true;
    }
  }
  endRow();
  return rows;
}
