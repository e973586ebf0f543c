/**
 * Compact: says things once. Long runs of list-item text shrink to a few lines and a count with the call
 * that lists them all; controls that read the same side by side share a line; an image repeating the name
 * beside it is left out. Nothing a control needs is dropped: every ref stays in the text.
 */
import { Priority } from './entry.js';
import type { Line } from './lineText.js';

const REPEAT_KEEP = 5;
const REPEAT_MIN = 9;

/** Long runs of list-item text (menus of 200 links are controls and stay) shrink to a few lines and a count. */
export function summariseRepeats(lines: Line[], keep: boolean[]): void {
  let start = -1;
  const flush = (end: number) => {
    const run: number[] = [];
    for (let i = start; i < end; i++) if (keep[i]) run.push(i);
    if (run.length >= REPEAT_MIN) {
      const hidden = run.slice(REPEAT_KEEP);
      for (const i of hidden) keep[i] = false;
      const first = lines[hidden[0]!]!;
      const expand = first.container ? ` (browser_snapshot ref ${first.container} lists them)` : '';
      lines[hidden[0]!] = { ...first, text: `- … ${hidden.length} more items${expand}`, kind: 'text' };
      keep[hidden[0]!] = true;
    }
    start = -1;
  };
  lines.forEach((line, i) => {
    const isItem = line.kind === 'text' && line.text.startsWith('- ');
    if (isItem && start === -1) start = i;
    else if (!isItem && start !== -1 && keep[i]) flush(i);
  });
  if (start !== -1) flush(lines.length);
}

const LEADING_REFS = /^((?:f\d+)?e\d+(?:, (?:f\d+)?e\d+)*) /;

/**
 * Controls said once when two read the same: links (the line shows the target wherever names repeat) and
 * buttons with a name. Fields, checks, cells and unnamed controls each hold or mean something of their own.
 */
const SAID_ONCE_KINDS = new Set(['link', 'button']);

/**
 * Says things once that the page shows twice side by side: two controls that read the same and do the same
 * (an icon link and a text link to one profile, a share button drawn twice) become one line with both refs
 * (`e53, e54 button "Share"`), and an image whose name the line next to it already says (a logo inside
 * its link) is left out. Returns how many refs went onto an earlier line.
 */
export function sayOnce(lines: Line[], keep: boolean[]): number {
  let merged = 0;
  let previous = -1;
  lines.forEach((line, i) => {
    if (!keep[i]) return;
    const before = previous >= 0 ? lines[previous]! : undefined;
    const twin = before?.ref && line.ref && line.priority === Priority.Control && before.priority === Priority.Control && before.depth === line.depth && SAID_ONCE_KINDS.has(line.kind) && line.text.includes('"');
    const refs = twin ? LEADING_REFS.exec(before.text) : null;
    if (refs && line.sectionEnd === undefined && before!.sectionEnd === undefined && before!.text.slice(refs[0].length) === line.text.slice(line.ref!.length + 1)) {
      lines[previous] = { ...before!, text: `${refs[1]}, ${line.ref} ${line.text.slice(line.ref!.length + 1)}` };
      keep[i] = false;
      merged++;
      return;
    }
    if (line.kind === 'img' && before?.text.includes(line.text.slice(4))) {
      keep[i] = false;
      return;
    }
    if (before?.kind === 'img' && line.text.includes(before.text.slice(4))) keep[previous] = false;
    previous = i;
  });
  return merged;
}
