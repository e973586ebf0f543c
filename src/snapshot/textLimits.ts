/**
 * Text: how page text becomes snapshot text. Lines and values are shown whole up to a generous limit; past
 * it they end with how much is left and the exact call that shows it. Pieces of text drawn as separate boxes
 * on one row (a word set letter by letter in inline-block spans, the columns of a mail row) are joined as the
 * eye reads them.
 */
import type { AriaNode, Box } from './tree.js';

/** Characters of a text line, field value or name shown before the rest is left to a `ref` snapshot. */
export const TEXT_LIMIT = 400;
/** Names (of links, buttons, sections) are labels, not content: a shorter limit. */
export const NAME_LIMIT = 150;

export function quote(text: string): string {
  return JSON.stringify(text);
}

/** Whitespace collapsed. With a limit, only the part that can be shown is normalised: page text can run to megabytes. */
export function clean(text: string, limit = Infinity): string {
  const head = limit !== Infinity && text.length > limit * 4 + 100 ? text.slice(0, limit * 4 + 100) : text;
  return head.replace(/\s+/g, ' ').trim();
}

/** Cut to `limit` characters with '…' (titles and names: their rest is rarely needed). */
export function truncate(text: string, limit: number): string {
  const shown = clean(text, limit);
  return shown.length > limit ? `${shown.slice(0, limit - 1)}…` : shown;
}

/**
 * Text shown whole up to `limit`; past it, cut at a word boundary with the count of characters left and the
 * call that shows them all (`browser_snapshot` of the element's ref lists its text without limit).
 */
export function shownWhole(text: string, limit: number, ref: string | undefined, keepLines = false): { shown: string; rest: string } {
  // A multi-line field's value keeps its line breaks (written "\n" in the quoted value): they are part of it.
  const full = keepLines ? text.split(/\r?\n/).map((line) => clean(line)).join('\n').trim() : clean(text);
  if (full.length <= limit) return { shown: full, rest: '' };
  let cut = full.lastIndexOf(' ', limit);
  if (cut < limit * 0.8) cut = limit;
  const left = full.length - cut;
  // About three to four characters a token: ask for a budget that holds the whole text when the default would not.
  const tokens = Math.ceil(full.length / 3) + 300;
  const call = ref ? `: browser_snapshot {"ref":"${ref}"${tokens > 1800 ? `,"maxTokens":${Math.ceil(tokens / 1000) * 1000}` : ''}}` : '';
  return { shown: `${full.slice(0, cut)}…`, rest: `(+${left.toLocaleString('en-US')} chars${call})` };
}

export interface Piece {
  text: string;
  box?: Box;
  /** One of alike cells side by side (parts.ts): never joined into a word with the next. */
  cell?: boolean;
}

function sameRow(a: Box, b: Box): boolean {
  const overlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return overlap > Math.min(a.height, b.height) * 0.5;
}

/** Pixels between two boxes that still touch: Playwright rounds each box's place and size on its own. */
const TOUCHING = 1;
/**
 * A gap separates columns (a mail row's sender and subject) rather than words when it is at least COLUMN_PX
 * and this many heights of the lower piece: a space is 3 to 5 px in body text, and fonts change a row's height.
 */
const COLUMN_GAP = 0.4;
const COLUMN_PX = 8;

/**
 * How two pieces side by side read: touching boxes are one word (letters drawn one by one), a gap is a
 * space, a wide one separates columns. Pieces on different rows are separate. Each threshold sits far from
 * where fonts put letters and words, so the same page reads the same in any font.
 */
export function separator(previous: Box | undefined, next: Box | undefined): string | undefined {
  if (!previous || !next) return ' ';
  if (!sameRow(previous, next)) return undefined;
  if (next.x < previous.x - 2) return undefined; // back to the left: a new line
  // Skewed or overlapping letters have boxes that overlap: a negative gap still joins them.
  const gap = next.x - (previous.x + previous.width);
  const height = Math.min(previous.height, next.height) || 1;
  if (gap <= TOUCHING) return '';
  return gap > height * COLUMN_GAP && gap >= COLUMN_PX ? ' · ' : ' ';
}

/** Joins pieces that sit on one row; '·' marks a wide gap (columns). */
export function joinPieces(pieces: Piece[]): string {
  let out = '';
  let previous: Piece | undefined;
  for (const piece of pieces) {
    const text = piece.text.replace(/\u2060/g, '').trim();
    if (!text) continue;
    if (out) {
      const between = separator(previous?.box, piece.box) ?? ' · ';
      out += between === '' && previous?.cell && piece.cell ? ' ' : between;
    }
    out += text;
    previous = piece;
  }
  return out.replace(/\s+/g, ' ');
}

/** A node whose whole content is one text: a candidate piece of a row of text. */
export function isTextLeaf(node: AriaNode): boolean {
  return (node.role === 'generic' || node.role === 'text') && !!node.text && !node.children?.length && !!node.box;
}

/**
 * The text an element shows, for naming it: its children's names and texts, boxed pieces joined as they sit
 * on screen. `skip` leaves out parts listed on their own (controls inside a clickable row).
 */
export function collectText(node: AriaNode, skip?: (child: AriaNode) => boolean): string {
  const pieces: Piece[] = [];
  // Logos often repeat the same alt text in several images; say it once.
  const push = (text: string, box?: Box) => {
    if (text.trim() && pieces[pieces.length - 1]?.text !== text) pieces.push({ text, box });
  };
  const visit = (n: AriaNode | string) => {
    if (typeof n === 'string') push(n);
    else if (skip?.(n)) return;
    else if (n.name) push(n.name, n.box);
    else if (n.text) push(n.text, n.box);
    else for (const child of n.children ?? []) visit(child);
  };
  for (const child of node.children ?? []) visit(child);
  return joinPieces(pieces);
}
