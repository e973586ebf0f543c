/**
 * What a scroll brought into view (issue 56, DECISIONS 130). A scroll's new view mostly repeats lines the model
 * read a moment ago (a grid's rows overlap from one step to the next, the instruction above them stays); the
 * model reads the lines it has not read on this page, each with the lines it sits in (its sections, a table's
 * header row), and how many it had already. The typed result keeps the whole view.
 *
 * What the model read is kept per tab from the results that show a page's lines (navigate, snapshot, scroll, a
 * click that opened a page), for the document it read them on; a line is a repeat only when it is the same text
 * (its ref included), so a changed state or a new ref is shown again. Nothing kept means the whole view.
 */
import type { Tab } from '../../session/tab.js';

interface Read {
  documentId: number | undefined;
  lines: Set<string>;
}

/** Past this many lines read on one page, what was read is forgotten and views are shown whole again. */
const MAX_LINES = 5_000;

/** A line as compared: without the `new` mark of a ref shown for the first time (the last of its states). */
const keyOf = (line: string) => (/(?:^|\s)(?:f\d+)?e\d+ /.test(line) ? line.replace(/ new(?=$| \||:$| ->)/g, '') : line).trimEnd();
const indentOf = (line: string) => line.length - line.trimStart().length;
/** A table's first line: its rows follow, the header row first (docs/snapshot-format.md). */
const TABLE = / \(\d+ cols?(?:, [^)]*)?\):$/;

/** Notes that the model read `text`, a view of document `documentId` of `tab`. */
export function noteRead(tab: Tab, documentId: number | undefined, text: string): void {
  let read = tab.read;
  if (!read || read.documentId !== documentId || read.lines.size > MAX_LINES) {
    read = { documentId, lines: new Set() };
    tab.read = read;
  }
  for (const line of text.split('\n')) read.lines.add(keyOf(line));
}

export interface CameIntoView {
  /** The lines of the view the model had not read on this page, with the lines they sit in. */
  cameIntoView: string;
  /** Lines of the view left out because the model read them already. */
  unchanged: number;
}

/** The part of `text` (a view of `documentId`) the model has not read; undefined when it read nothing of this page. */
export function newPartOf(tab: Tab, documentId: number | undefined, text: string): CameIntoView | undefined {
  const read = tab.read;
  if (!read || read.documentId !== documentId) return undefined;
  const lines = text.split('\n');
  const keep = lines.map((line) => !read.lines.has(keyOf(line)));
  for (let i = 0; i < lines.length; i++) {
    if (!keep[i] || !lines[i]!.trim()) continue;
    // The lines it sits in: each nearest line above with less indent, and a table's header row.
    let indent = indentOf(lines[i]!);
    for (let j = i - 1; j >= 0 && indent > 0; j--) {
      if (!lines[j]!.trim() || indentOf(lines[j]!) >= indent) continue;
      keep[j] = true;
      indent = indentOf(lines[j]!);
      if (TABLE.test(lines[j]!) && j + 1 < lines.length) keep[j + 1] = true;
    }
  }
  // Every line shown here is new to the model: the `new` marks would say it again on each element.
  const shown = lines.filter((_, i) => keep[i]).map(keyOf);
  return { cameIntoView: shown.join('\n'), unchanged: lines.filter((line, i) => !keep[i] && line.trim()).length };
}
