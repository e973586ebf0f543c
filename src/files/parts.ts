/**
 * A file's text cut into parts the model reads one call at a time, each within a token budget, without losing a
 * character: parts end between lines, a section (a PDF page, a table) cut in two says so where it goes on, and a
 * line longer than a part is split, never shortened. Tokens are estimated from a sample of the text itself, so a
 * 10 MB file is cut in milliseconds; the part returned is counted exactly.
 */
import { countTokens } from '../snapshot/index.js';

/** Lines under a heading. The heading is written before the section's first line in a part, with the range shown. */
export interface Section {
  lines: string[];
  /** The lines to write above lines `from` to `to` (exclusive) of the section: a page's title, a table's header. */
  heading?: (from: number, to: number) => string[];
  /** The lines are table rows: a row too long for a line is split between cells (`splitLongLines`). */
  rows?: boolean;
}

/** A part: which lines of which sections it shows. */
export type Part = Array<{ section: number; from: number; to: number }>;

/** Characters per token in `text`, from a sample; a little low, so parts come out under budget rather than over. */
export function charsPerToken(text: string): number {
  const sample = text.length > 60_000 ? text.slice(0, 20_000) + text.slice(text.length / 2, text.length / 2 + 20_000) + text.slice(-20_000) : text;
  if (!sample.trim()) return 4;
  return Math.max(1, (sample.length / Math.max(1, countTokens(sample))) * 0.9);
}

/**
 * Splits lines longer than `maxChars` into pieces, so every line fits in a part: at the last space before the limit
 * (a word is never cut in two unless it alone is longer than half a line). A table row (`cells`) is split between
 * cells where it can, and each piece after the first is indented by two spaces, so it reads as the row going on,
 * never as a row of its own.
 */
export function splitLongLines(lines: string[], maxChars: number, cells = false): string[] {
  if (lines.every((line) => line.length <= maxChars)) return lines;
  return lines.flatMap((line) => {
    if (line.length <= maxChars) return [line];
    const pieces: string[] = [];
    let rest = line;
    const lead = cells ? '  ' : '';
    let room = maxChars;
    while (rest.length > room) {
      const cut = breakAt(rest, room, cells);
      pieces.push(rest.slice(0, cut));
      rest = rest.slice(cut).replace(/^ /, '');
      room = maxChars - lead.length;
    }
    pieces.push(rest);
    return pieces.map((piece, i) => (i ? lead + piece : piece));
  });
}

/** A table's rows with those too long for a line wrapped (`splitLongLines`), its heading still counting rows. */
export function wrapRows(section: Section, maxChars: number): Section {
  const lines: string[] = [];
  const rowOf: number[] = [];
  section.lines.forEach((line, row) => {
    for (const piece of splitLongLines([line], maxChars, true)) {
      lines.push(piece);
      rowOf.push(row);
    }
  });
  const { heading } = section;
  return { ...section, lines, heading: heading && ((from, to) => heading(rowOf[from] ?? from, (rowOf[to - 1] ?? to - 1) + 1)) };
}

/** Where to cut `text` to at most `room` characters: between cells, else at a space, else at the limit. */
function breakAt(text: string, room: number, cells: boolean): number {
  const head = text.slice(0, room + 1);
  if (cells) {
    const between = head.lastIndexOf(' | ');
    if (between > room / 4) return between;
  }
  const space = head.lastIndexOf(' ');
  return space > room / 2 ? space : room;
}

/** Cuts `sections` into parts of at most `maxTokens` (estimated at `ratio` characters a token). */
export function partsOf(sections: Section[], maxTokens: number, ratio: number): Part[] {
  const cost = (text: string) => Math.ceil(text.length / ratio) + 1;
  const parts: Part[] = [];
  let current: Part = [];
  let used = 0;
  const close = () => {
    if (current.length) parts.push(current);
    current = [];
    used = 0;
  };
  sections.forEach((section, index) => {
    let from = 0;
    const headingCost = () => (section.heading ? section.heading(from, from + 1).reduce((sum, line) => sum + cost(line), 0) : 0);
    if (!section.lines.length) {
      if (used + headingCost() > maxTokens) close();
      current.push({ section: index, from: 0, to: 0 });
      used += headingCost();
      return;
    }
    while (from < section.lines.length) {
      let budget = maxTokens - used - headingCost();
      let to = from;
      while (to < section.lines.length && cost(section.lines[to]!) <= budget) {
        budget -= cost(section.lines[to]!);
        to++;
      }
      if (section.rows) {
        // A table row wrapped onto more lines stays in one part: the part ends before the row, or the row starts
        // the next part; only a row longer than a whole part is split between parts.
        let keep = to;
        while (keep > from && keep < section.lines.length && section.lines[keep]!.startsWith('  ')) keep--;
        if (keep > from) to = keep;
        else if (to > from && to < section.lines.length && section.lines[to]!.startsWith('  ') && current.length) {
          close();
          continue;
        }
      }
      if (to === from) {
        // Not even one line fits after what the part holds: a new part; a line too long for any part goes alone.
        if (current.length) {
          close();
          continue;
        }
        to = from + 1;
      }
      current.push({ section: index, from, to });
      used = maxTokens - budget;
      from = to;
      if (from < section.lines.length) close();
    }
  });
  close();
  return parts.length ? parts : [[]];
}

/** The text of a part: each section's heading for its range, then its lines. */
export function partText(sections: Section[], part: Part): string {
  const out: string[] = [];
  for (const { section, from, to } of part) {
    const s = sections[section]!;
    if (s.heading) out.push(...s.heading(from, to));
    out.push(...s.lines.slice(from, to));
  }
  return out.join('\n');
}

export { countTokens };
