/**
 * Text pieces: page text drawn as separate boxes on one row (a word set letter by letter in inline-block spans,
 * the columns of a mail row) joined as the eye reads them, and the text an element shows, for naming it.
 */
import type { AriaNode, Box } from './tree.js';

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
