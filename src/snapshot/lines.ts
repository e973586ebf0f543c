/**
 * Lines: a capture turned into lines of the snapshot format, in three steps that run one after the other. The
 * survey (survey.ts) works out what each node of the aria tree is; the outline (outline.ts) reads the tree with
 * it into entries, one per line: what each element worth showing is and where it sits. Then each entry's text
 * is written (lineText.ts). Format chooses among the lines; diff compares the lines of two captures.
 */
import type { AriaNode, Box, Capture } from './tree.js';
import type { Entry } from './entry.js';
import { writeLines, type Line, type Wording } from './lineText.js';
import type { LinkTargets } from './links.js';
import { surveyTree } from './survey.js';
import { outline } from './outline.js';
import { MODAL_ROLES } from './roles.js';
import { NAME_LIMIT, TEXT_LIMIT } from './textLimits.js';

/** Which lines of a capture, and how they read. */
export interface LinesView {
  /** Only the subtree of this ref, its text without limit: a subtree is what the model asks for to read something whole. */
  ref?: string;
  /** Which link targets are printed (links.ts); every one when left out. */
  linkTargets?: LinkTargets;
  /** Refs first seen in this snapshot: marked `new`. */
  newRefs?: Set<string>;
}

/** A capture's lines, and where the subtree asked for is drawn (in the top document's viewport). */
export interface CaptureLines {
  lines: Line[];
  box?: Box;
}

/** The lines of a capture, or of one ref's subtree: undefined when the capture does not hold that ref. */
export function linesOf(capture: Capture, view: LinesView = {}): CaptureLines | undefined {
  let roots: Array<AriaNode | string> = capture.tree;
  let offset = { x: 0, y: 0 };
  let box: Box | undefined;
  if (view.ref) {
    const subtree = findSubtree(capture.tree, view.ref);
    if (!subtree) return undefined;
    // Inside iframes, a subtree's boxes are in its frame's coordinates: placed on the page all the same.
    offset = frameOffset(capture.tree, view.ref) ?? offset;
    roots = [subtree];
    if (subtree.box) box = { x: subtree.box.x + offset.x, y: subtree.box.y + offset.y, width: subtree.box.width, height: subtree.box.height };
  }
  const survey = surveyTree(roots, { fields: capture.fields, at: { offsetX: offset.x, offsetY: offset.y }, unreadFrames: capture.unreadFrames });
  const entries: Entry[] = [];
  outline(roots, { depth: 0, offsetX: offset.x, offsetY: offset.y, inClickable: false, survey }, entries);
  // How the lines read: the limits (none in a subtree), and which link targets are printed (links.ts).
  let pageUrl: URL | undefined;
  try {
    pageUrl = new URL(capture.url);
  } catch {
    pageUrl = undefined;
  }
  const wording: Wording = {
    pageUrl,
    textLimit: view.ref ? Infinity : TEXT_LIMIT,
    nameLimit: view.ref ? Infinity : NAME_LIMIT,
    newRefs: view.newRefs,
    linkTargets: view.linkTargets,
    repeatedLinkNames: view.linkTargets === 'useful' ? survey.repeatedLinkNames : undefined,
  };
  return { lines: writeLines(entries, wording), box };
}

function findSubtree(nodes: Array<AriaNode | string>, ref: string): AriaNode | undefined {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref === ref) return node;
    const found = findSubtree(node.children ?? [], ref);
    if (found) return found;
  }
  return undefined;
}

/** Offset of a node inside iframes, so a subtree's boxes land in page coordinates. */
function frameOffset(nodes: Array<AriaNode | string>, ref: string, x = 0, y = 0): { x: number; y: number } | undefined {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref === ref) return { x, y };
    const inner = node.role === 'iframe' && node.box ? { x: x + node.box.x, y: y + node.box.y } : { x, y };
    const found = frameOffset(node.children ?? [], ref, inner.x, inner.y);
    if (found) return found;
  }
  return undefined;
}

/**
 * Every line of a capture, unindented, for comparing two captures of one document, with its vertical place in
 * page coordinates (a line without a box takes the place of the line before it).
 */
export type PageLine = { text: string; ref?: string; kind: string; top: number; bottom: number };
const pageLinesOf = new WeakMap<Capture, PageLine[]>();

/** Memoised: each capture is the "after" of one action's diff and the "before" of the next. */
export function pageLines(capture: Capture): PageLine[] {
  let result = pageLinesOf.get(capture);
  if (!result) {
    const { scrollY } = capture.metrics;
    let top = scrollY;
    let bottom = scrollY;
    result = [];
    for (const line of linesOf(capture)!.lines) {
      if (line.sectionEnd !== undefined && !MODAL_ROLES.has(line.kind)) continue;
      if (line.top !== undefined && line.bottom !== undefined) {
        top = line.top + scrollY;
        bottom = line.bottom + scrollY;
      }
      result.push({ text: line.text, ref: line.ref, kind: line.kind, top, bottom });
    }
    pageLinesOf.set(capture, result);
  }
  return result;
}

/** Every ref in the tree with its role and name, for resolving and re-finding elements. */
export function indexRefs(nodes: Array<AriaNode | string>, into = new Map<string, { role: string; name: string }>()) {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref) into.set(node.ref, { role: node.role, name: node.name || node.text || '' });
    indexRefs(node.children ?? [], into);
  }
  return into;
}
