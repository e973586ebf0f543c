/**
 * Hidden text: text a sighted person cannot see is kept from the model. Playwright's capture already drops what
 * `display: none` and `visibility: hidden` hide; a page can hide text in many other ways that the accessibility
 * tree still carries (and that is how instructions are slipped to an agent): a colour equal to the background,
 * a zero font size, zero opacity, an opaque element on top, an ancestor's overflow clipping it away, a place
 * off the page no one can scroll to. One pass in the page, before the capture, finds such text and gives its
 * element `visibility: hidden` for the time of the capture (the layout does not move; visible children are kept
 * visible); `releaseHiddenText` puts the page's own style back. `browser_read` marks the same text with an
 * attribute and leaves it out of the copy it reads.
 *
 * What stays although a person does not see it: text that names a control (inside a link, button or label, or
 * the visually-hidden words next to a control, "(opens in a new tab)"), text that a label reference points to,
 * text that moves into view by itself (an opacity transition, a scroll reveal), and text in a part the page
 * opens with a control (an accordion's panel, a menu, a carousel's other slides): a person reaches those.
 * Controls themselves are never hidden here: a transparent checkbox under its styled label is still a target.
 *
 * Whether a person sees a text is judged in sight.ts; what is kept although unseen, and the hiding, here.
 * Everything here runs in the page: it is serialised as source text (see inPage.ts).
 */

import type { sight } from './sight.js';

export interface HiddenTextArgs {
  /** Symbol.for key under which the elements' own style attributes are kept until released. */
  markersKey: string;
  /** `capture`: hidden for Playwright's capture. `read`: marked with `readAttribute` for a copy of the document. */
  mode: 'capture' | 'read';
  /** The attribute set in `read` mode on elements whose own text is hidden. */
  readAttribute?: string;
  /** A find's text, lower case: each place found says whether its text holds it. */
  query?: string;
  /** Symbol.for key of the listener record (listeners.ts): an element a script made react is a control. */
  listenersKey?: string;
}

/**
 * A place where hidden text was left out: its top and bottom in page coordinates, its left and right in the
 * viewport's, and 1 when it holds the find's text.
 */
export type HiddenSpot = [top: number, bottom: number, left: number, right: number, match: 0 | 1];

/**
 * Runs in the page. `scopes` limits the work to the subtrees a capture takes (region.ts, portion.ts); without
 * them the whole document is read, frames of the same origin included. Returns where text was left out.
 */
export function hideHiddenText(args: HiddenTextArgs, helpers: { sight: typeof sight }, scopes?: Element[]): HiddenSpot[] {
  const NAMED_BY_CONTENT =
    'a, button, label, summary, option, legend, caption, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option], [role=treeitem]';
  const CONTROL = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=combobox], [role=textbox], [role=slider]';
  /** What opens a part of the page: a toggle beside it. */
  const TOGGLE = '[aria-expanded], [aria-controls], [aria-haspopup], summary, [data-toggle], [data-bs-toggle]';
  /** A toggle beside a part may sit in a wrapper of up to this many elements (a heading, a list item). */
  const TOGGLE_WRAPPER = 12;
  /** Text worth hiding has a letter or a digit (not a soft hyphen or a lone "|"). */
  const WORDY = /[\p{L}\p{N}]/u;
  const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE', 'TEXTAREA', 'SELECT', 'svg']);
  /** Visually-hidden words beside a control are its label up to this length; longer is not a label. */
  const LABEL_LIMIT = 120;
  const docs = new Set<Document>();

  // Texts by the element that holds them, in document order; same-origin frames are read as part of the page.
  // A control's words are its name, kept whatever they look like (most text on a page is links): not gathered.
  const holders = new Map<Element, Text[]>();
  const scanned: Element[] = [];
  const collect = (root: Element) => {
    const doc = root.ownerDocument;
    docs.add(doc);
    scanned.push(root);
    if (root.closest(NAMED_BY_CONTENT)) return;
    const frames: Element[] = [];
    const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    /** The node after the current one's subtree. */
    const skip = (): Node | null => {
      for (let at: Node | null = walker.currentNode; at && at !== root; at = walker.parentNode()) {
        const next = walker.nextSibling();
        if (next) return next;
      }
      return null;
    };
    for (let node = walker.nextNode(); node; ) {
      if (node.nodeType === Node.ELEMENT_NODE) {
        const el = node as Element;
        if (SKIPPED.has(el.tagName) || el.matches(NAMED_BY_CONTENT)) {
          node = skip();
          continue;
        }
        if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') frames.push(el);
      } else {
        const text = node as Text;
        const parent = text.parentElement;
        if (parent && parent !== doc.body && WORDY.test(text.data)) {
          const list = holders.get(parent);
          if (list) list.push(text);
          else holders.set(parent, [text]);
        }
      }
      node = walker.nextNode();
    }
    for (const frame of frames) {
      let inner: Document | null = null;
      try {
        inner = (frame as HTMLIFrameElement).contentDocument;
      } catch {
        inner = null; // another site's frame
      }
      if (inner?.body) collect(inner.body);
    }
  };
  const roots = scopes ?? (document.body ? [document.body] : document.documentElement ? [document.documentElement] : []);
  for (const root of roots) collect(root);
  if (!holders.size) return [];

  const { unseen, covered, findCovers, textRect, clipper, faintest, offPage, viewOf, outermost, styleOf } = helpers.sight(scanned);

  // What people reach although they do not see it, worked out on the first text found hidden.
  let reach: { referenced: Set<Element>; reacting: Set<EventTarget>; opened: Set<string> } | undefined;
  const reachOf = () => {
    if (reach) return reach;
    // Elements a label reference points to name or describe a control, whatever they look like.
    const referenced = new Set<Element>();
    // Ids that a control opens or points to: what it shows when used is reachable.
    const opened = new Set<string>();
    for (const doc of docs) {
      for (const el of doc.querySelectorAll('[aria-labelledby], [aria-describedby]')) {
        for (const id of `${el.getAttribute('aria-labelledby') ?? ''} ${el.getAttribute('aria-describedby') ?? ''}`.split(/\s+/)) {
          const target = id ? doc.getElementById(id) : null;
          if (target) referenced.add(target);
        }
      }
      // An in-page link opens what it points to only as a toggle (a tab, a collapse); a skip link merely scrolls.
      for (const el of doc.querySelectorAll('[aria-controls], [aria-owns], [data-target], [data-bs-target], a[href^="#"][data-toggle], a[href^="#"][data-bs-toggle], a[href^="#"][role=tab]')) {
        const ids = `${el.getAttribute('aria-controls') ?? ''} ${el.getAttribute('aria-owns') ?? ''}`.split(/\s+/);
        for (const attr of ['data-target', 'data-bs-target', 'href']) {
          const value = el.getAttribute(attr);
          if (value?.startsWith('#') && value.length > 1) ids.push(value.slice(1));
        }
        for (const id of ids) if (id) opened.add(id);
      }
    }
    const record = args.listenersKey ? (window as unknown as Record<symbol, { live(): EventTarget[] } | undefined>)[Symbol.for(args.listenersKey)] : undefined;
    reach = { referenced, opened, reacting: new Set<EventTarget>(record?.live() ?? []) };
    return reach;
  };
  /**
   * Whether a part a person does not see now is one they open: a control points to it or to its parent, or sits
   * beside it (alone, or in a small wrapper such as a heading; a page's header holding a menu button is not one).
   */
  const reachable = (part: Element): boolean => {
    for (let el: Element | null = part, depth = 0; el && depth < 2; el = el.parentElement, depth++) {
      if (el.id && reachOf().opened.has(el.id)) return true;
      if (el.tagName === 'DETAILS' || el.tagName === 'DIALOG') return true;
      for (const sibling of [el.previousElementSibling, el.nextElementSibling]) {
        if (!sibling) continue;
        if (sibling.matches(TOGGLE)) return true;
        if (depth === 0 && sibling.getElementsByTagName('*').length <= TOGGLE_WRAPPER && sibling.querySelector(TOGGLE)) return true;
      }
    }
    return false;
  };
  /**
   * Words kept although unseen: a control's name, what a label reference points to, the visually-hidden words
   * beside a control ("Search", "(opens in a new tab)"), and what a person opens.
   */
  const kept = (el: Element, why: string, texts: Text[]): boolean => {
    const { referenced, reacting } = reachOf();
    for (let e: Element | null = el; e; e = e.parentElement) if (referenced.has(e)) return true;
    // The name of an element made to react (a script's listener, an onclick, a tabindex), not one wrapping the page.
    const view = viewOf(el.ownerDocument);
    for (let e: Element | null = el, depth = 0; e && depth < 3; e = e.parentElement, depth++) {
      if (!(reacting.has(e) || e.hasAttribute('onclick') || (e as HTMLElement).tabIndex >= 0)) continue;
      const r = e.getBoundingClientRect();
      if (r.width * r.height <= view.width * view.height * 0.4) return true;
    }
    // The visually-hidden pattern: clipped to a box of a pixel or none, or placed off the page.
    const visuallyHidden =
      why === 'off-screen' ||
      (why === 'clipped' &&
        (() => {
          const box = clipper(el, textRect(texts)).getBoundingClientRect();
          return box.width <= 2 && box.height <= 2;
        })());
    if (visuallyHidden && texts.reduce((n, t) => n + t.data.trim().length, 0) <= LABEL_LIMIT) {
      const box = outermost(el, (e) => e.childElementCount <= 1 && !e.matches(CONTROL));
      for (const sibling of [box.previousElementSibling, box.nextElementSibling]) if (sibling?.matches(CONTROL)) return true;
    }
    if (why === 'clipped') return reachable(clipper(el, textRect(texts)));
    if (why === 'opacity') return reachable(faintest(el));
    if (why === 'off-screen') return reachable(outermost(el, (e) => offPage(e, e.getBoundingClientRect())));
    return false;
  };

  const hidden: Array<[Element, Text[], string]> = [];
  const seen: Array<[Element, Text[], DOMRect]> = [];
  for (const [el, texts] of holders) {
    const why = unseen(el, texts);
    if (typeof why !== 'string') seen.push([el, texts, why]);
    else if (why && !kept(el, why, texts)) hidden.push([el, texts, why]);
  }
  const covers = seen.length ? findCovers() : [];
  if (covers.length) for (const [el, texts, r] of seen) if (covered(el, r, covers) && !kept(el, 'covered', texts)) hidden.push([el, texts, 'covered']);
  if (!hidden.length) return [];

  const spots: HiddenSpot[] = [];
  const hiddenSet = new Set(hidden.map(([el]) => el));
  const saved: Array<[Element, string | null]> = [];
  const restyle = (el: Element, visibility: string) => {
    saved.push([el, el.getAttribute('style')]);
    const style = (el as HTMLElement).style;
    style.setProperty('visibility', visibility, 'important');
    style.setProperty('transition', 'none', 'important');
  };
  for (const [el, texts, why] of hidden) {
    const r = textRect(texts);
    const { y } = viewOf(el.ownerDocument);
    const match = args.query ? (texts.some((t) => t.data.toLowerCase().includes(args.query!)) ? 1 : 0) : 0;
    spots.push([Math.round(r.top + y), Math.round(r.bottom + y), Math.round(r.left), Math.round(r.right), match]);
    if (args.mode === 'read') {
      el.setAttribute(args.readAttribute!, why); // why: for a person looking at the copy
      saved.push([el, null]);
      continue;
    }
    restyle(el, 'hidden');
    // Its own text goes; what it holds that is seen stays seen.
    for (const child of el.children) if (!hiddenSet.has(child) && styleOf(child).visibility === 'visible') restyle(child, 'visible');
  }
  (window as unknown as Record<symbol, unknown>)[Symbol.for(args.markersKey)] = { saved, attribute: args.mode === 'read' ? args.readAttribute : undefined };
  return spots;
}

/** Runs in the page after the capture or the read: gives each element its own style attribute back. */
export function releaseHiddenText(markersKey: string): void {
  const w = window as unknown as Record<symbol, { saved: Array<[Element, string | null]>; attribute?: string } | undefined>;
  const symbol = Symbol.for(markersKey);
  const marks = w[symbol];
  delete w[symbol];
  if (!marks) return;
  // Last first: an element restyled twice gets its first saved value back.
  for (let i = marks.saved.length - 1; i >= 0; i--) {
    const [el, style] = marks.saved[i]!;
    if (marks.attribute) el.removeAttribute(marks.attribute);
    else if (style === null) el.removeAttribute('style');
    else el.setAttribute('style', style);
  }
}

/**
 * The snapshot's line saying how much hidden text was left out where it looks: in `band` (page coordinates, and
 * across the viewport's `width`), all of the page without one, or among the find's matches. A count, never the
 * text; '' when none was.
 */
export function hiddenTextLine(spots: HiddenSpot[] | undefined, band: { span: [number, number]; width?: number } | undefined, find: boolean): string {
  const count = (spots ?? []).filter(([top, bottom, left, right, match]) => {
    if (find) return match === 1;
    if (!band) return true;
    return bottom >= band.span[0] && top <= band.span[1] && (band.width === undefined || (right > 0 && left < band.width));
  }).length;
  return count ? `left out: ${count} hidden text${count === 1 ? '' : 's'} (not visible on the page)` : '';
}

export interface HiddenTextCopyArgs {
  markersKey: string;
  /** The attribute marking, for the time of the copy, elements whose own text is hidden. */
  attribute: string;
  listenersKey?: string;
  /** Symbol.for key of the element to copy (set on `window` beforehand); the whole document without one. */
  elementKey?: string;
}

/**
 * Runs in the page: a copy of the document (or of one element) without the text a person cannot see, for a
 * reader that works on a copy (browser_read), and how many texts were left out. The page is left as it was.
 */
export function copyWithoutHiddenText(args: HiddenTextCopyArgs, helpers: { hideHiddenText: typeof hideHiddenText; releaseHiddenText: typeof releaseHiddenText; sight: typeof sight }): { copy: Node; hidden: number } {
  const w = window as unknown as Record<symbol, Element | undefined>;
  const element = args.elementKey ? w[Symbol.for(args.elementKey)] : undefined;
  if (args.elementKey) delete w[Symbol.for(args.elementKey)];
  let copy: Node;
  let hidden: number;
  try {
    hidden = helpers.hideHiddenText({ markersKey: args.markersKey, mode: 'read', readAttribute: args.attribute, listenersKey: args.listenersKey }, helpers, element ? [element] : undefined).length;
    copy = (element ?? document).cloneNode(true);
  } finally {
    helpers.releaseHiddenText(args.markersKey);
  }
  if (hidden) {
    const marked = copy instanceof Element && copy.hasAttribute(args.attribute) ? [copy] : [];
    for (const el of [...marked, ...(copy as Element | Document).querySelectorAll(`[${args.attribute}]`)]) {
      el.removeAttribute(args.attribute);
      for (const node of [...el.childNodes]) if (node.nodeType === Node.TEXT_NODE) node.remove();
    }
  }
  return { copy, hidden };
}
