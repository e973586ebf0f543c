/**
 * Format: chooses which lines of a capture the model reads (viewport, page, subtree or find), puts what blocks
 * the page first, summarises long lists and keeps the text within its token budget.
 * The grammar is documented in docs/snapshot-format.md; keep the two in step.
 */
import type { Capture } from './tree.js';
import { Priority } from './entry.js';
import { linesOf, refBox } from './lines.js';
import type { Line } from './lineText.js';
import { MODAL_ROLES } from './roles.js';
import { NAME_LIMIT, quote, truncate } from './textLimits.js';
import { stageSync } from '../stages.js';
import { sayOnce, summariseRepeats } from './compact.js';
import { bandMargin, bandSpan } from './region.js';
import { hiddenTextLine } from './hiddenText.js';
import { markAddressed } from './addressed.js';
import { framesToName, loadingFramesLine } from './loadingFrames.js';
import { countTokens } from './tokens.js';
import { wallLine } from './wallLine.js';


export type SnapshotScope = 'viewport' | 'page';

export interface FormatOptions {
  /** `viewport`: what is on screen plus a margin, with what lies above and below summarised. `page`: the whole page. */
  scope: SnapshotScope;
  /** Token budget for the whole text (o200k_base). Lowest-value lines are cut first, and the cut is reported. */
  maxTokens: number;
  /** Only the subtree of this ref, whatever the scope. */
  ref?: string;
  /** Only lines containing this text (case-insensitive), with their section and heading for context, from the whole page. */
  find?: string;
  /** Refs first seen in this snapshot: marked `new`. */
  newRefs?: Set<string>;
  /** Names of the secrets browser_type may type into this page (its origin or a frame's): said in the header. */
  secrets?: string[];
}

export interface FormattedSnapshot {
  text: string;
  tokens: number;
  /** Refs listed in the text. */
  refsShown: number;
  /** Lines left out to respect the budget. */
  linesCut: number;
  /** For a find: how many lines hold the text. */
  matches?: number;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : word.endsWith('x') ? 'es' : 's'}`;
}

/** How many left-out lines there are of each kind (sections never, text only when asked). */
function countKinds(lines: Line[], withText = false, into = new Map<string, number>()): Map<string, number> {
  for (const line of lines) {
    if (line.priority === Priority.Section || (line.priority === Priority.Text && !withText)) continue;
    into.set(line.kind, (into.get(line.kind) ?? 0) + 1);
  }
  return into;
}

/** "12 links, 3 buttons, 1 textbox": what a group of left-out lines held, most common first. */
function tallyText(counts: Map<string, number>): string {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([kind, count]) => (kind === 'text' ? `${count} text` : plural(count, kind)))
    .join(', ');
}

export function tally(lines: Line[], withText = false): string {
  return tallyText(countKinds(lines, withText));
}

/** Lines left out of a viewport snapshot, with what a regional capture counted in the page (region.ts). */
function offScreen(lines: Line[], counted: Record<string, number> | undefined): string {
  const counts = countKinds(lines);
  for (const [kind, count] of Object.entries(counted ?? {})) counts.set(kind, (counts.get(kind) ?? 0) + count);
  return tallyText(counts);
}

function px(n: number): string {
  return `${Math.max(0, Math.round(n))}px`;
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

/** Modal dialogs and the controls of a covering overlay come first: they decide what can be clicked. */
function blockersFirst(lines: Line[], keep: boolean[], overlayControls: string[] | undefined): [Line[], boolean[]] {
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
  if (first.size === 0) return [lines, keep];
  const order = [...first, ...lines.map((_, i) => i).filter((i) => !first.has(i))];
  return [order.map((i) => lines[i]!), order.map((i) => keep[i]!)];
}

/** Where a snapshot looks, for the count of hidden text (page coordinates): the band, a subtree's box, or everywhere. */
function hiddenBand(capture: Capture, options: FormatOptions): { span: [number, number]; width?: number } | undefined {
  const { scrollY, viewportWidth } = capture.metrics;
  if (options.ref) {
    const box = refBox(capture, options.ref);
    return box ? { span: [box.y + scrollY, box.y + box.height + scrollY] } : undefined;
  }
  return options.scope === 'viewport' && !options.find ? { span: bandSpan(capture.metrics), width: viewportWidth } : undefined;
}

export function formatSnapshot(capture: Capture, options: FormatOptions): FormattedSnapshot {
  const { metrics } = capture;
  const wholePage = options.scope === 'page' && !options.ref && !options.find;
  const linkTargets = wholePage ? 'none' : options.ref || options.find ? 'all' : 'useful';
  const lines = linesOf(capture, { ref: options.ref, linkTargets, newRefs: options.newRefs });
  if (!lines) return { text: '', tokens: 0, refsShown: 0, linesCut: 0 };
  const subtreeNote = options.ref ? ` | subtree of ${options.ref}` : '';

  // Viewport selection: keep lines that overlap the viewport plus a margin; lines with no box
  // inherit the decision of the line before them.
  const margin = bandMargin(metrics.viewportHeight);
  const keep = lines.map(() => true);
  const above: Line[] = [];
  const below: Line[] = [];
  const beside: Line[] = [];
  if (options.scope === 'viewport' && !options.ref) {
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
  if (wholePage) lines.forEach((line, i) => (keep[i] = keep[i]! && line.priority !== Priority.Text));
  let findNote = '';
  let matches = 0;
  if (options.find) {
    const query = options.find.toLowerCase();
    lines.forEach((line, i) => {
      keep[i] = line.text.toLowerCase().includes(query) && line.sectionEnd === undefined;
      if (keep[i]) matches++;
    });
    addContext(lines, keep);
    findNote = ` | find ${quote(options.find)}: ${matches} ${matches === 1 ? 'match' : 'matches'}`;
    // On a large page only the first matches were captured (portion.ts): say how many more the page holds.
    const found = capture.region?.rest?.matches;
    if (found && found.found > found.captured) {
      findNote += `; ${found.found - found.captured} more on the page not listed (${tallyText(new Map(Object.entries(capture.region!.rest!.tally)))}): make the text longer to narrow it`;
    }
  }
  keepTableHeaders(lines, keep);
  dropEmptySections(lines, keep);
  if (!options.ref && !options.find) summariseRepeats(lines, keep);
  const twins = sayOnce(lines, keep);

  const header: string[] = [];
  const title = capture.title ? ` ${quote(truncate(capture.title, NAME_LIMIT))}` : '';
  const belowPx = metrics.scrollHeight - metrics.scrollY - metrics.viewportHeight;
  header.push(`page${title} ${capture.url}${subtreeNote}${findNote}`);
  // Where the page is scrolled and what lies beyond the screen, one line each way: "above 648px: 5 links"
  // at the top, "below 7085px: 120 links, 3 buttons" at the end. No "above" line means the top of the page.
  const beyond = (where: string, distance: number, counts: string) =>
    distance > 1 ? `${where} ${px(distance)}${counts ? `: ${counts}` : ''}` : counts ? `${where}: ${counts}` : '';
  if (metrics.scrollY <= 0 && belowPx <= 1) header.push('whole page in view');
  const hidden = hiddenTextLine(capture.hiddenText, hiddenBand(capture, options), !!options.find);
  if (hidden) header.push(hidden);
  if (capture.stoppedLoop) header.push('! the page kept reloading or redirecting by itself; it was stopped to be read, so it may be incomplete');
  const wall = options.ref || options.find ? undefined : wallLine(capture, options.secrets);
  if (wall) header.push(...wall.lines);
  const modal = lines.find((l) => MODAL_ROLES.has(l.kind));
  if (wall?.namesCover) {
    // The wall's line says what covers the page.
  } else if (modal) header.push(`! a ${modal.kind} is open and may block the page: ${modal.text.replace(/:$/, '')}`);
  else if (capture.overlay && !options.ref) {
    header.push(`! an overlay covers ${Math.round(capture.overlay.coverage * 100)}% of the screen and may block clicks: ${quote(truncate(capture.overlay.text, 80))}${capture.overlay.controls.length ? ' (its controls are listed first)' : ''}`);
  }
  const counted = options.find ? undefined : capture.region?.tallies;
  const aboveLine = beyond('above', metrics.scrollY, options.find ? '' : offScreen(above, counted?.above));
  if (aboveLine) header.push(aboveLine);
  const band = options.scope === 'viewport' ? margin : undefined;
  const loading = options.ref || options.find ? [] : framesToName(capture.loadingFrames, metrics, band);
  if (loading.length) header.push(loadingFramesLine(loading));
  const inPart = options.ref || options.find ? [] : framesToName(capture.partFrames, metrics, band);
  if (inPart.length) header.push(loadingFramesLine(inPart, 'shown in part so far'));
  const [ordered, orderedKeep] = blockersFirst(lines, keep, capture.overlay?.controls);

  const footer: string[] = [];
  const belowLine = beyond('below', belowPx, options.find ? '' : offScreen(below, counted?.below));
  if (belowLine) footer.push(belowLine);
  const besideTally = options.find ? '' : offScreen(beside, counted?.beside);
  if (besideTally) footer.push(`beside: ${besideTally} (scrolled out sideways)`);

  const formatted = stageSync('snapshot: token budget', () => applyBudget(ordered, orderedKeep, header, footer, options.maxTokens, leftUnread(capture, options)));
  return { ...formatted, refsShown: formatted.refsShown + twins, ...(options.find ? { matches } : {}) };
}

/**
 * What a page-scope snapshot of a large page did not read at all: it captured the page from the top as far as
 * its budget could show (portion.ts) and counted the rest by kind. Said with the budget's cut, as one tally.
 */
function leftUnread(capture: Capture, options: FormatOptions): Unread | undefined {
  const rest = capture.region?.rest;
  if (options.scope !== 'page' || options.ref || options.find || !rest || rest.top === undefined) return undefined;
  return {
    counts: new Map(Object.entries(rest.tally)),
    note: `read from the top to ${px(rest.top)}, the rest counted. Use find to search the whole page, or scroll there, a ref to expand one part, a larger maxTokens`,
  };
}

interface Unread {
  /** Controls and headings left unread, by kind. */
  counts: Map<string, number>;
  /** Where the reading stopped and how to get the rest. */
  note: string;
}

function render(line: Line): string {
  return ' '.repeat(line.depth) + line.text;
}

/**
 * Cuts the lowest-priority lines (text, then section headers, headings, controls; later lines first
 * within a priority) until the text fits, and says what was cut.
 */
function applyBudget(lines: Line[], keep: boolean[], header: string[], footer: string[], maxTokens: number, unread?: Unread): FormattedSnapshot {
  const cut: Line[] = [];
  // A token is at least one byte, so text no longer in bytes than the budget fits: skip counting line by line.
  const bytes = lines.reduce((sum, line, i) => sum + (keep[i] ? Buffer.byteLength(render(line)) + 1 : 0), 0);
  const fits = bytes + Buffer.byteLength(header.join('\n')) + Buffer.byteLength(footer.join('\n')) + 2 <= maxTokens;
  if (!fits) {
    // Lines are kept from the most useful down (priority, then page order) while they fit, so only the lines
    // returned and the first one that does not fit are tokenized, however long the page is.
    const fixed = countTokens(header.join('\n')) + countTokens(footer.join('\n')) + 2;
    const noteReserve = unread ? 70 : 40;
    const order = lines
      .map((line, i) => ({ line, i }))
      .filter(({ i }) => keep[i])
      .sort((a, b) => b.line.priority - a.line.priority || a.i - b.i);
    let total = fixed;
    let kept = 0;
    // While everything seen so far fits with room for the note, it stays whatever comes after.
    let safe = 0;
    for (; kept < order.length; kept++) {
      total += countTokens(render(order[kept]!.line)) + 1;
      if (total + noteReserve <= maxTokens) safe = kept + 1;
      if (total > maxTokens) break;
    }
    // All of it fits without a note; otherwise keep what fits with the note's room, cut the rest.
    if (kept < order.length) {
      for (const { line, i } of order.slice(safe)) {
        keep[i] = false;
        cut.push(line);
      }
      cut.reverse();
    }
  }

  // Text that speaks to the agent is the page's, and the line before it says so (addressed.ts).
  const body = markAddressed(lines.filter((_, i) => keep[i]).map(render));
  const parts = [...header, ...body, ...footer];
  if (unread) {
    parts.push(`[cut to fit ${maxTokens} tokens: ${tallyText(countKinds(cut, true, new Map(unread.counts)))}; ${unread.note}]`);
  } else if (cut.length) {
    parts.push(`[cut to fit ${maxTokens} tokens: ${tally(cut, true)}. Ask browser_snapshot with a larger maxTokens, a ref to expand one part, or scope "viewport"]`);
  }
  let text = parts.join('\n');
  let tokens = countTokens(text);
  // Per-line counts are an estimate of the joined text; trim further on the rare overshoot.
  while (tokens > maxTokens && parts.length > header.length + 1) {
    parts.splice(parts.length - 2, 1);
    text = parts.join('\n');
    tokens = countTokens(text);
  }
  const refsShown = lines.filter((l, i) => keep[i] && l.ref && l.priority === Priority.Control).length;
  return { text, tokens, refsShown, linesCut: cut.length };
}

