/**
 * How a tab's main-frame refs are numbered for the model. Playwright numbers each document's refs from the start
 * again and tells documents apart by a frame prefix (`f3e12`) that costs two tokens or more a ref. The model sees
 * `e12` instead: each document gives the refs it shows the lowest numbers its tab's last few documents did not
 * use, in the order they are first shown, so numbers stay short and a ref of a page the tab has just left never
 * names an element of the page it shows now. Refs inside iframes keep Playwright's form (`f5e3`).
 */
import type { AriaNode } from '../snapshot/index.js';

/** How many of a tab's latest documents keep their numbers to themselves: a ref of one of them is never reused. */
export const NUMBERS_KEPT_FOR = 5;

const MODEL_REF = /^e(\d+)$/;

/** One document's main-frame refs, between Playwright's numbers and the model's. */
export class Numbering {
  /** Playwright's prefix on the document's main-frame refs ('' on a tab's first document, else `f<n>`); unknown until a capture holds one. */
  prefix: string | undefined;
  private readonly toModel = new Map<number, number>();
  private readonly toPlaywright = new Map<number, number>();
  private next = 1;

  /** `taken`: the numbers of the tab's latest documents, never given here. */
  constructor(private readonly taken: ReadonlySet<number>) {}

  /** The model's number of Playwright's `number`, given on first sight. */
  modelNumber(number: number): number {
    let given = this.toModel.get(number);
    if (given === undefined) {
      while (this.taken.has(this.next) || this.toPlaywright.has(this.next)) this.next++;
      given = this.next++;
      this.give(number, given);
    }
    return given;
  }

  /** Gives Playwright's `number` the model's `given`, when that is still free: a page loaded again keeps the refs it had. */
  keep(number: number, given: number): boolean {
    if (this.toModel.has(number) || this.toPlaywright.has(given)) return false;
    this.give(number, given);
    return true;
  }

  /** Playwright's ref for a ref the model holds; undefined for a main-frame ref this document never showed. */
  playwrightRef(ref: string): string | undefined {
    const match = MODEL_REF.exec(ref);
    if (!match) return ref;
    const number = this.toPlaywright.get(Number(match[1]));
    return number === undefined || this.prefix === undefined ? undefined : `${this.prefix}e${number}`;
  }

  /** Every number the model was given in this document. */
  numbers(): Iterable<number> {
    return this.toPlaywright.keys();
  }

  private give(number: number, given: number): void {
    this.toModel.set(number, given);
    this.toPlaywright.set(given, number);
  }
}

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

/**
 * Rewrites the tree's main-frame refs from Playwright's form to the model's, in place, in reading order. `carried`
 * (role and name by ref) are refs the model holds from before this page was loaded again: an element with the
 * same role and name, the only one so named, keeps its ref.
 */
export function renumber(tree: Array<AriaNode | string>, numbering: Numbering, carried?: ReadonlyMap<string, { role: string; name: string }>): void {
  if (numbering.prefix === undefined) return;
  const own = new RegExp(`^${numbering.prefix}e(\\d+)$`);
  const nodes: Array<{ node: AriaNode; number: number }> = [];
  const visit = (children: Array<AriaNode | string>) => {
    for (const node of children) {
      if (typeof node === 'string') continue;
      const match = node.ref ? own.exec(node.ref) : null;
      if (match) nodes.push({ node, number: Number(match[1]) });
      if (node.children) visit(node.children);
    }
  };
  visit(tree);
  if (carried?.size) keepCarried(nodes, numbering, carried);
  for (const { node, number } of nodes) node.ref = `e${numbering.modelNumber(number)}`;
}

function keepCarried(nodes: Array<{ node: AriaNode; number: number }>, numbering: Numbering, carried: ReadonlyMap<string, { role: string; name: string }>): void {
  const key = (role: string, name: string) => `${role}\u0000${name}`;
  const count = (keys: string[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
  const held = [...carried].filter(([ref, info]) => MODEL_REF.test(ref) && info.name !== '');
  const heldCounts = count(held.map(([, info]) => key(info.role, info.name)));
  const shownCounts = count(nodes.map(({ node }) => key(node.role, node.name ?? '')));
  for (const [ref, info] of held) {
    const k = key(info.role, info.name);
    if (heldCounts.get(k) !== 1 || shownCounts.get(k) !== 1) continue;
    const match = nodes.find(({ node }) => key(node.role, node.name ?? '') === k)!;
    numbering.keep(match.number, Number(MODEL_REF.exec(ref)![1]));
  }
}

/** The numbers of main-frame refs among `refs` (the model's form). */
export function numbersOf(refs: Iterable<string>): number[] {
  const out: number[] = [];
  for (const ref of refs) {
    const match = MODEL_REF.exec(ref);
    if (match) out.push(Number(match[1]));
  }
  return out;
}

/** True for a main-frame ref in the model's form. */
export function isMainFrameRef(ref: string): boolean {
  return MODEL_REF.test(ref);
}
