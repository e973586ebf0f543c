/**
 * Tally: what a snapshot left out, in words: "12 links, 3 buttons, 1 textbox", what a group of lines held by
 * kind, and how far away in pixels. Said of what lies off screen (header.ts) and of what the budget cut (budget.ts).
 */
import { Priority } from './entry.js';
import type { Line } from './lineText.js';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : word.endsWith('x') ? 'es' : 's'}`;
}

/** How many left-out lines there are of each kind (sections never, text only when asked). */
export function countKinds(lines: Line[], withText = false, into = new Map<string, number>()): Map<string, number> {
  for (const line of lines) {
    if (line.priority === Priority.Section || (line.priority === Priority.Text && !withText)) continue;
    into.set(line.kind, (into.get(line.kind) ?? 0) + 1);
  }
  return into;
}

/** "12 links, 3 buttons, 1 textbox": what a group of left-out lines held, most common first. */
export function tallyText(counts: Map<string, number>): string {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([kind, count]) => (kind === 'text' ? `${count} text` : plural(count, kind)))
    .join(', ');
}

/** Lines left out of a viewport snapshot, with what a regional capture counted in the page (region.ts). */
export function offScreenTally(lines: Line[], counted: Record<string, number> | undefined): string {
  const counts = countKinds(lines);
  for (const [kind, count] of Object.entries(counted ?? {})) counts.set(kind, (counts.get(kind) ?? 0) + count);
  return tallyText(counts);
}

export function tally(lines: Line[], withText = false): string {
  return tallyText(countKinds(lines, withText));
}

export function px(n: number): string {
  return `${Math.max(0, Math.round(n))}px`;
}
