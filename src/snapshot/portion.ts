/**
 * Portion: which part of a large page a page-scope, find or ref snapshot captures. Playwright's capture costs
 * more per element the larger the document is (an input's labels are looked for in the whole document), so a
 * whole-page capture of 50,000 elements takes tens of seconds, while a 4,000-token text shows a few hundred of
 * them. A page no larger than the budget can use is captured whole, as always; on a larger one:
 * - scope "page" takes the page from the top, in document order, as far as the budget could show (with room to
 *   spare) and counts the rest by kind, so the text lists what a whole capture cut to the budget would list.
 *   From the top, not from the viewport: the budget keeps lines in page order, and the viewport scope already
 *   shows the page from where it is scrolled.
 *   Hidden parts (a closed menu) are passed over: they show nothing and cost the capture little.
 * - find searches the page's text, names, values and addresses in the page first (open shadow roots too), and
 *   captures only the small parts around the first matches, with the heading before each; the rest are counted.
 * - a ref captures that element's subtree.
 * The parts taken are captured through the same hidden owner as a viewport region (region.ts, capture.ts).
 *
 * The choosers run in the page (see inPage.ts), with `countedKinds` as a helper; `leaveElementInPage` runs here.
 */
import type { Locator } from 'playwright-core';
import type { countedKinds, RegionTallies, Tally } from './region.js';

export interface TopOfPageArgs {
  /** Controls and headings to take: more than the budget can show, as each line costs a few tokens at least. */
  lines: number;
  /** Elements to take at most, and the size of a page captured whole. */
  elements: number;
  /** Parts of at most this many elements are taken whole, so that the cut falls between list items or forms. */
  limit: number;
}

export interface MatchArgs {
  /** The text searched for, lower case. */
  query: string;
  /** Matches to capture at most; the rest are counted. */
  matches: number;
  /** The size of a page captured whole (and searched by the text format). */
  elements: number;
  /** A match is captured with its surroundings up to this many elements (its list item, its label, its row). */
  limit: number;
}

/** What a portion left out: counted by kind, and where the first of it is. */
export interface PortionRest {
  tally: Tally;
  /** Page y (px) of the first element left out, for scope "page". */
  top?: number;
  /** For find: matches found in the page, and how many of them were captured. */
  matches?: { found: number; captured: number };
}

interface Helpers {
  countedKinds: typeof countedKinds;
}

/** What a portion capture asks the page for: one of the three. */
export interface PortionArgs {
  top?: TopOfPageArgs;
  matches?: MatchArgs;
  /** For a ref: the Symbol.for key `leaveElementInPage` left the element under, and the size of a page captured whole all the same. */
  element?: { key: string; elements: number };
}

/** A portion chosen in the page: its roots (none: capture the whole page), what it left out, and the stretch it holds. */
export interface Portion {
  roots: Element[] | undefined;
  elements: number;
  rest: PortionRest;
  /** Page y (px) the portion holds all of: to where the top of the page taken ends; nothing whole for find or a ref's element. */
  span: [number, number];
  /** Empty: a portion counts what it left out in `rest`, not by side of the screen. */
  tallies: RegionTallies;
}

/** Leaves a ref's element where the page's own world finds it (`choosePortion`); undefined when it is gone. */
export function leaveElementInPage(locator: Locator, key: string, elements: number): Promise<PortionArgs['element']> {
  return locator
    .evaluate((el, symbol) => void ((window as unknown as Record<symbol, unknown>)[Symbol.for(symbol)] = el), key, { timeout: 2_000 })
    .then(() => ({ key, elements }), () => undefined);
}

/** Runs in the page: the portion `args` asks for (see the three choosers below). */
export function choosePortion(args: PortionArgs, helpers: Helpers & { chooseTopOfPage: typeof chooseTopOfPage; chooseMatches: typeof chooseMatches }): Portion {
  const tallies = { above: {}, below: {}, beside: {} };
  if (args.element) {
    const w = window as unknown as Record<symbol, Element | undefined>;
    const element = w[Symbol.for(args.element.key)];
    delete w[Symbol.for(args.element.key)];
    const total = document.getElementsByTagName('*').length;
    // An element inside a shadow root is captured through its outermost host, which the page's ids can name.
    let at = element;
    for (let root = at?.getRootNode(); at && root instanceof ShadowRoot; root = at.getRootNode()) at = root.host;
    const roots = at?.isConnected && total > args.element.elements ? [at] : undefined;
    return { roots, elements: total, rest: { tally: {} }, span: [Infinity, -Infinity], tallies };
  }
  if (args.top) {
    const chosen = helpers.chooseTopOfPage(args.top, helpers);
    return { ...chosen, span: [-Infinity, chosen.rest.top ?? Infinity], tallies };
  }
  return { ...helpers.chooseMatches(args.matches!, helpers), span: [Infinity, -Infinity], tallies };
}

/**
 * Runs in the page. For scope "page": the subtrees from the top of the body up to where `lines` controls and
 * headings or `elements` elements have been passed, and the rest counted by kind; no roots on a page of at most
 * `elements` elements (captured whole).
 */
export function chooseTopOfPage(args: TopOfPageArgs, helpers: Helpers): { roots: Element[] | undefined; elements: number; rest: PortionRest } {
  const total = document.getElementsByTagName('*').length;
  const rest: PortionRest = { tally: {} };
  const body = document.body;
  if (!body || total <= args.elements) return { roots: undefined, elements: total, rest };
  const { selector, kindOf } = helpers.countedKinds();
  // Hidden parts (a closed menu of thousands of links) show nothing and cost the capture little: not counted.
  const shown = (el: Element) => el.checkVisibility() || getComputedStyle(el).display === 'contents';
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT, { acceptNode: (node) => (shown(node as Element) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT) });
  let elements = 0;
  let lines = 0;
  let cut: Element | undefined;
  while (walker.nextNode()) {
    const el = walker.currentNode as Element;
    if (++elements > args.elements || (el.matches(selector) && ++lines > args.lines)) {
      cut = el;
      break;
    }
  }
  if (!cut) return { roots: undefined, elements: total, rest };
  // Cut before the largest small part the element starts or sits in: a list item or a form is taken whole or not at all.
  const size = (el: Element) => {
    let count = 0;
    const inner = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
    while (inner.nextNode()) if (++count > args.limit) return Infinity;
    return count;
  };
  while (cut.parentElement && cut.parentElement !== body && size(cut.parentElement) <= args.limit) cut = cut.parentElement;
  // What comes before the cut, as few subtrees as possible: its earlier siblings and those of its ancestors.
  const levels: Element[][] = [];
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'LINK', 'META']);
  for (let el: Element = cut; el.parentElement && el !== body; el = el.parentElement) {
    const level: Element[] = [];
    for (let sib = el.parentElement.firstElementChild; sib && sib !== el; sib = sib.nextElementSibling) if (!SKIP.has(sib.tagName)) level.push(sib);
    levels.unshift(level);
  }
  const roots = levels.flat();
  // Open dialogs are always listed, wherever they sit (one holding the cut would be most of the page: not that one).
  const dialogs: Element[] = [];
  for (const dialog of body.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')) {
    if (!dialog.contains(cut) && dialog.checkVisibility() && !roots.some((root) => root.contains(dialog))) dialogs.push(dialog);
  }
  // The rest, counted: the controls the cut sits inside (not captured either), then the cut and everything
  // after it, level by level, which is document order; no element is compared with another for its position.
  let top: number | undefined;
  // Shown or not from style alone, which is cheaper than a box per element; the first one shown gives its place.
  const count = (el: Element, first: boolean) => {
    if (!el.checkVisibility() || (dialogs.length && dialogs.some((dialog) => dialog.contains(el)))) return;
    if (first && top === undefined) top = el.getBoundingClientRect().top + scrollY;
    const kind = kindOf(el);
    rest.tally[kind] = (rest.tally[kind] ?? 0) + 1;
  };
  for (let el = cut.parentElement; el && el !== body; el = el.parentElement) if (el.matches(selector)) count(el, false);
  for (let el: Element | null = cut; el && el !== body; el = el.parentElement) {
    for (let sib: Element | null = el === cut ? cut : el.nextElementSibling; sib; sib = sib.nextElementSibling) {
      if (sib.matches(selector)) count(sib, true);
      for (const inner of sib.querySelectorAll(selector)) count(inner, true);
    }
  }
  rest.top = top;
  roots.push(...dialogs);
  return { roots, elements: total, rest };
}

/**
 * Runs in the page. For find: the parts of the page whose text, accessible name, value or address contains the
 * query, each with its surroundings and the heading before it, the first `matches` of them; no roots on a page
 * of at most `elements` elements (searched whole by the formatter).
 */
export function chooseMatches(args: MatchArgs, helpers: Helpers): { roots: Element[] | undefined; elements: number; rest: PortionRest } {
  const total = document.getElementsByTagName('*').length;
  const body = document.body;
  if (!body || total <= args.elements) return { roots: undefined, elements: total, rest: { tally: {} } };
  const { selector, kindOf } = helpers.countedKinds();
  const query = args.query;
  const has = (text: string | null | undefined) => !!text && text.toLowerCase().includes(query);
  // One walk in document order, into open shadow roots as Playwright's capture goes: text, then what an
  // element shows besides text (names given in attributes, field values, link addresses, its kind: "checkbox").
  const NAMED = '[aria-label], [title], [placeholder], [alt], a[href], input, textarea, select, [role]';
  const SILENT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  const found: Element[] = [];
  const seen = new Set<Element>();
  const add = (el: Element) => {
    if (seen.has(el)) return;
    seen.add(el);
    found.push(el);
  };
  const search = (root: Node) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      if (node.nodeType === Node.TEXT_NODE) {
        const parent = node.parentElement;
        if (parent && has(node.nodeValue) && !SILENT.has(parent.tagName)) add(parent);
        continue;
      }
      const el = node as Element;
      if (el.matches(NAMED)) {
        const value = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement ? el.value : '';
        const named = ['aria-label', 'title', 'placeholder', 'alt', 'href'].some((name) => has(el.getAttribute(name)));
        if (named || has(value) || (el.matches(selector) && has(kindOf(el)))) add(el);
      }
      if (el.shadowRoot) search(el.shadowRoot);
    }
  };
  search(body);
  const visible = found.filter((el) => el.checkVisibility());
  // A match inside a shadow root is captured through its outermost host, which the page's ids can name.
  const inDocument = (el: Element) => {
    let at = el;
    for (let root = at.getRootNode(); root instanceof ShadowRoot; root = at.getRootNode()) at = root.host;
    return at;
  };
  const size = (el: Element) => {
    let count = 0;
    const inner = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
    while (inner.nextNode()) if (++count > args.limit) return Infinity;
    return count;
  };
  const isHeading = (el: Element) => /^H[1-6]$/.test(el.tagName) || el.getAttribute('role') === 'heading';
  const roots: Element[] = [];
  // The heading before each match, looked for backwards as far as the previous match only: one pass in all.
  const back = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT);
  let heading: Element | undefined;
  let previous: Element | undefined;
  const taken = visible.slice(0, args.matches);
  let pushedHeading: Element | undefined;
  const counted: Element[] = [];
  for (const found of taken) {
    const match = inDocument(found);
    if (match === previous) continue; // in the same shadow host as the one before
    // Text straight inside a large container (a page's body) would cost a capture of all of it: counted only.
    if (size(match) > args.limit) {
      counted.push(found);
      continue;
    }
    back.currentNode = match;
    while (back.previousNode() && back.currentNode !== previous) {
      if (isHeading(back.currentNode as Element)) {
        heading = back.currentNode as Element;
        break;
      }
    }
    previous = match;
    let root = match;
    while (root.parentElement && root.parentElement !== body && size(root.parentElement) <= args.limit) root = root.parentElement;
    if (heading && heading !== pushedHeading && !heading.contains(root) && !root.contains(heading)) roots.push((pushedHeading = heading));
    roots.push(root);
  }
  // Each once, none inside another; they come in document order already.
  const kept: Element[] = [];
  for (const el of roots) {
    const last = kept[kept.length - 1];
    if (last && last.contains(el)) continue;
    while (kept.length && el.contains(kept[kept.length - 1]!)) kept.pop();
    kept.push(el);
  }
  const tally: Tally = {};
  for (const el of [...counted, ...visible.slice(args.matches)]) {
    // Named by the control it is or is in (a label's text counts as its checkbox), else as text.
    const control = el.closest(selector) ?? el.querySelector(selector);
    const kind = control ? kindOf(control) : 'text';
    tally[kind] = (tally[kind] ?? 0) + 1;
  }
  return { roots: kept, elements: total, rest: { tally, matches: { found: visible.length, captured: taken.length - counted.length } } };
}
