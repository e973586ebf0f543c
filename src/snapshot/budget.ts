/**
 * Budget: the snapshot's text within its token budget. The lowest-value lines are cut first (text, then
 * section headers, headings, controls; later lines first within a priority), and the cut is said, with what
 * a large page left unread (portion.ts).
 */
import { Priority } from './entry.js';
import type { Line } from './lineText.js';
import type { Capture } from './tree.js';
import { markAddressed } from './addressed.js';
import { countTokens } from './tokens.js';
import type { Frame } from './header.js';
import type { Selection } from './selection.js';
import { countKinds, px, tally, tallyText } from './tally.js';

/** The snapshot as the model reads it. */
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

/** The budget, and what the snapshot asked (a large page's unread rest is said only of a page scope). */
export interface BudgetWanted {
  maxTokens: number;
  scope: 'viewport' | 'page';
  ref?: string;
  find?: string;
}

interface Unread {
  /** Controls and headings left unread, by kind. */
  counts: Map<string, number>;
  /** Where the reading stopped and how to get the rest. */
  note: string;
}

/**
 * What a page-scope snapshot of a large page did not read at all: it captured the page from the top as far as
 * its budget could show (portion.ts) and counted the rest by kind. Said with the budget's cut, as one tally.
 */
function leftUnread(capture: Capture, wanted: BudgetWanted): Unread | undefined {
  const rest = capture.region?.rest;
  if (wanted.scope !== 'page' || wanted.ref || wanted.find || !rest || rest.top === undefined) return undefined;
  return {
    counts: new Map(Object.entries(rest.tally)),
    note: `read from the top to ${px(rest.top)}, the rest counted. Use find to search the whole page, or scroll there, a ref to expand one part, a larger maxTokens`,
  };
}

function render(line: Line): string {
  return ' '.repeat(line.depth) + line.text;
}

/**
 * Cuts the lowest-priority lines (text, then section headers, headings, controls; later lines first
 * within a priority) until the text fits, and says what was cut.
 */
export function applyBudget({ lines, keep, twins }: Selection, { header, footer }: Frame, capture: Capture, wanted: BudgetWanted): FormattedSnapshot {
  const { maxTokens } = wanted;
  const unread = leftUnread(capture, wanted);
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
  // Refs said once on a twin's line are shown all the same (compact.ts).
  const refsShown = lines.filter((l, i) => keep[i] && l.ref && l.priority === Priority.Control).length + twins;
  return { text, tokens, refsShown, linesCut: cut.length };
}
