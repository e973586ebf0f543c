/**
 * Selection: which of a capture's lines a snapshot shows. A viewport snapshot keeps what is on screen plus a
 * margin and sets aside what lies above, below and beside; a whole page keeps controls and headings; a find
 * keeps the lines that match, with their sections and heading. Then table headers stay with their rows, empty
 * sections go, repeated things are said once (compact.ts), and what blocks the page comes first.
 */
import { Priority } from './entry.js';
import type { Line } from './lineText.js';
import { MODAL_ROLES } from './roles.js';
import { sayOnce, summariseRepeats } from './compact.js';
import type { PageMetrics } from './tree.js';

/** What a snapshot asks of the lines: its scope, and a ref's subtree or a find instead. */
export interface LinesWanted {
  scope: 'viewport' | 'page';
  ref?: string;
  find?: string;
  /** The viewport's margin in pixels (region.ts). */
  margin: number;
  /** Box keys of a covering overlay's controls (capture.overlay): listed first. */
  overlayControls?: string[];
}

/** The lines in the order shown, each kept or not, with those set aside beyond the screen. */
export interface Selection {
  lines: Line[];
  keep: boolean[];
  above: Line[];
  below: Line[];
  beside: Line[];
  /** Lines a find matched. */
  matches: number;
  /** Refs said once on a line they share with a twin (compact.ts): shown all the same. */
  twins: number;
}

export function selectLines(lines: Line[], metrics: PageMetrics, wanted: LinesWanted): Selection {
  const keep = lines.map(() => true);
  const above: Line[] = [];
  const below: Line[] = [];
  const beside: Line[] = [];
  // Viewport selection: keep lines that overlap the viewport plus a margin; lines with no box
  // inherit the decision of the line before them.
  const { margin } = wanted;
  if (wanted.scope === 'viewport' && !wanted.ref) {
    let previous = true;
    lines.forEach((line, i) => {
      if (line.top === undefined || line.bottom === undefined) {
        keep[i] = previous;
        return;
      }
      const vertically = line.bottom >= -margin && line.top <= metrics.viewportHeight + margin;
      const horizontally = line.right! > 0 && line.left! < metrics.viewportWidth;
      if (line.bottom < -margin) above.push(line);
      else if (line.top > metrics.viewportHeight + margin) below.push(line);
      else if (!horizontally) beside.push(line);
      keep[i] = vertically && horizontally;
      previous = keep[i]!;
    });
    // Open modal dialogs are always shown: they decide what can be clicked.
    lines.forEach((line, i) => {
      if (MODAL_ROLES.has(line.kind) && line.sectionEnd !== undefined) for (let j = i; j < line.sectionEnd; j++) keep[j] = true;
    });
  }
  // The whole page is for finding what to act on: controls and headings, not paragraphs (browser_read reads).
  if (wanted.scope === 'page' && !wanted.ref && !wanted.find) lines.forEach((line, i) => (keep[i] = keep[i]! && line.priority !== Priority.Text));
  let matches = 0;
  if (wanted.find) {
    const query = wanted.find.toLowerCase();
    lines.forEach((line, i) => {
      keep[i] = line.text.toLowerCase().includes(query) && line.sectionEnd === undefined;
      if (keep[i]) matches++;
    });
    addContext(lines, keep);
  }
  keepTableHeaders(lines, keep);
  dropEmptySections(lines, keep);
  // Saying things once (compact.ts) changes no line's kind, ref or box: the order can be chosen before.
  const order = blockersFirst(lines, wanted.overlayControls);
  if (!wanted.ref && !wanted.find) summariseRepeats(lines, keep);
  const twins = sayOnce(lines, keep);
  if (!order) return { lines, keep, above, below, beside, matches, twins };
  return { lines: order.map((i) => lines[i]!), keep: order.map((i) => keep[i]!), above, below, beside, matches, twins };
}

/** Removes section headers that ended up with nothing inside. */
function dropEmptySections(lines: Line[], keep: boolean[]): void {
  for (let i = lines.length - 1; i >= 0; i--) {
    const end = lines[i]!.sectionEnd;
    // Named sections stay even when empty here: a drop zone or a labelled panel is a target in itself.
    if (end === undefined || !keep[i] || MODAL_ROLES.has(lines[i]!.kind) || lines[i]!.text.includes('"')) continue;
    let any = false;
    for (let j = i + 1; j < end; j++) if (keep[j]) any = true;
    if (!any) keep[i] = false;
  }
}

/** A table's header row stays whenever a row of its table does: cells mean nothing without their column. */
function keepTableHeaders(lines: Line[], keep: boolean[]): void {
  lines.forEach((line, i) => {
    if (line.sectionEnd === undefined || !line.text.includes(' col')) return;
    let header = -1;
    let any = false;
    for (let j = i + 1; j < line.sectionEnd; j++) {
      if (lines[j]!.header) header = j;
      else if (keep[j]) any = true;
    }
    if (header >= 0 && any) keep[header] = true;
  });
}

/** For find: keep the section headers around a match and the heading before it. */
function addContext(lines: Line[], keep: boolean[]): void {
  const matched = keep.map((k, i) => (k ? i : -1)).filter((i) => i >= 0);
  for (const i of matched) {
    for (let j = i - 1; j >= 0; j--) {
      if (lines[j]!.kind === 'heading') {
        keep[j] = true;
        break;
      }
    }
    lines.forEach((line, j) => {
      if (line.sectionEnd !== undefined && j < i && line.sectionEnd > i) keep[j] = true;
    });
  }
}

/**
 * Modal dialogs and the controls of a covering overlay come first: they decide what can be clicked. The order
 * of the lines with them first, or undefined when there are none.
 */
function blockersFirst(lines: Line[], overlayControls: string[] | undefined): number[] | undefined {
  const first = new Set<number>();
  lines.forEach((line, i) => {
    if (MODAL_ROLES.has(line.kind) && line.sectionEnd !== undefined) for (let j = i; j < line.sectionEnd; j++) first.add(j);
  });
  if (first.size === 0 && overlayControls?.length) {
    const boxes = new Set(overlayControls);
    lines.forEach((line, i) => {
      if (line.boxKey && boxes.has(line.boxKey) && line.ref) first.add(i);
    });
  }
  if (first.size === 0) return undefined;
  return [...first, ...lines.map((_, i) => i).filter((i) => !first.has(i))];
}
