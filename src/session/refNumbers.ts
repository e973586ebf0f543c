/**
 * How a tab's main-frame refs are numbered for the model. Playwright numbers each document's refs from the start
 * again and tells documents apart by a frame prefix (`f3e12`) that costs two or more tokens a ref. The model sees
 * `e12` instead, and each document of a tab numbers on from the highest ref its earlier documents handed out, so a
 * ref of a page the tab has left never names an element of the page it shows now. Refs inside iframes keep
 * Playwright's form (`f5e3`).
 */
import type { AriaNode } from '../snapshot/index.js';

/** How one document's main-frame refs map between Playwright's form and the model's. */
export interface Numbering {
  /** Playwright's prefix on this document's main-frame refs ('' on a tab's first document, else `f<n>`); unknown until a capture holds one. */
  prefix?: string;
  /** Added to Playwright's number: every ref the tab's earlier documents handed out is at or below it. */
  base: number;
}

const MODEL_REF = /^e(\d+)$/;

/** The prefix Playwright gave the main frame's refs in this tree, if it holds any outside an iframe. */
export function mainPrefixOf(tree: Array<AriaNode | string>): string | undefined {
  for (const node of tree) {
    if (typeof node === 'string') continue;
    if (node.ref) return /^(f\d+)?e\d+$/.exec(node.ref)?.[1] ?? '';
    // An iframe's children are its own document's, numbered with its own prefix.
    if (node.role === 'iframe' || !node.children) continue;
    const found = mainPrefixOf(node.children);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Rewrites the tree's main-frame refs from Playwright's form to the model's, in place. */
export function renumber(tree: Array<AriaNode | string>, numbering: Numbering): void {
  if (numbering.prefix === undefined) return;
  const own = new RegExp(`^${numbering.prefix}e(\\d+)$`);
  const visit = (nodes: Array<AriaNode | string>) => {
    for (const node of nodes) {
      if (typeof node === 'string') continue;
      const match = node.ref ? own.exec(node.ref) : null;
      if (match) node.ref = `e${Number(match[1]) + numbering.base}`;
      if (node.children) visit(node.children);
    }
  };
  visit(tree);
}

/**
 * The ref Playwright resolves for a ref the model holds; undefined for a main-frame ref numbered at or below the
 * document's base, which an earlier document of the tab handed out.
 */
export function playwrightRef(ref: string, numbering: Numbering): string | undefined {
  const match = MODEL_REF.exec(ref);
  if (!match) return ref;
  const number = Number(match[1]) - numbering.base;
  return number > 0 && numbering.prefix !== undefined ? `${numbering.prefix}e${number}` : undefined;
}

/** The highest main-frame ref number among `refs` (the model's form), or `floor` if none is higher. */
export function highestNumber(refs: Iterable<string>, floor: number): number {
  let highest = floor;
  for (const ref of refs) {
    const match = MODEL_REF.exec(ref);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}

/** True for a main-frame ref in the model's form. */
export function isMainFrameRef(ref: string): boolean {
  return MODEL_REF.test(ref);
}
