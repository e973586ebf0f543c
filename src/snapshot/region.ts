/**
 * Region: which part of the page a viewport snapshot captures. Playwright's aria snapshot walks every element
 * below its root and costs a fraction of a millisecond per element, so capturing a 50,000-element page to keep
 * one screen of it takes tens of seconds. One pass in the page instead finds the subtrees that reach into the
 * viewport band (the viewport plus a margin), and counts the controls, headings and frames outside them by
 * kind and side (above, below, beside) from their boxes alone, which is cheap. Frames count for much more than
 * their one element: Playwright captures each as a document of its own. The chosen subtrees are then captured in
 * one call: a hidden element `aria-owns` them for the time of the capture, and Playwright walks owned elements
 * as its own children (capture.ts), so their refs resolve with `getByRef` like those of a whole-page capture.
 *
 * Everything here runs in the page: it is serialised as source text (see inPage.ts), so it uses nothing from
 * module scope.
 */

export interface RegionArgs {
  /** Pixels above and below the viewport that still count as on screen. */
  margin: number;
  /** A subtree of at most this many elements is captured whole even when only part of it is on screen. */
  limit: number;
}

/**
 * Pixels above and below the viewport that a viewport snapshot still counts as on screen: an eighth of its
 * height. The capture (refs.ts), the format (format.ts), the diff (diff.ts) and the warm-up (warmUp.ts) all use it.
 */
export function bandMargin(viewportHeight: number): number {
  return Math.round(viewportHeight / 8);
}

/** The band in page coordinates: the viewport at its scroll position, with the margin above and below. */
export function bandSpan({ scrollY, viewportHeight }: { scrollY: number; viewportHeight: number }): [number, number] {
  const margin = bandMargin(viewportHeight);
  return [scrollY - margin, scrollY + viewportHeight + margin];
}

/**
 * True when a box in viewport coordinates reaches into the band: the viewport with `margin` above and below,
 * edges included, as format.ts keeps lines.
 */
export function boxInBand(box: { x: number; y: number; width: number; height: number }, viewport: { width: number; height: number }, margin: number): boolean {
  return box.y + box.height >= -margin && box.y <= viewport.height + margin && box.x + box.width > 0 && box.x < viewport.width;
}

/** Controls, headings and frames by kind ("link", "button", "heading", "frame"...), on one side of the band. */
export type Tally = Record<string, number>;

export interface RegionTallies {
  above: Tally;
  below: Tally;
  /** Beside the viewport: scrolled out sideways (carousels, wide tables). */
  beside: Tally;
}

/**
 * Runs in the page: the selector of what the tallies count (controls, headings, frames) and the kind each is
 * called by, as the snapshot's lines name them.
 */
export function countedKinds(): { selector: string; kindOf: (el: Element) => string } {
  const ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'switch', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'option', 'treeitem', 'heading', 'listbox']);
  const kindOf = (el: Element): string => {
    const role = el.getAttribute('role');
    if (role && ROLES.has(role)) return role;
    const tag = el.tagName;
    if (tag === 'A') return 'link';
    if (tag === 'BUTTON') return 'button';
    if (tag === 'TEXTAREA') return 'textbox';
    if (tag === 'SELECT') return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
    if (/^H[1-6]$/.test(tag)) return 'heading';
    if (tag === 'IFRAME') return 'frame';
    if (tag === 'INPUT') {
      const type = (el as HTMLInputElement).type;
      if (type === 'checkbox' || type === 'radio') return type;
      if (type === 'range') return 'slider';
      if (type === 'number') return 'spinbutton';
      if (type === 'search') return 'searchbox';
      if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
      return 'textbox';
    }
    return (el as HTMLElement).isContentEditable ? 'textbox' : 'clickable';
  };
  const selector = [
    'a[href]', 'button', 'input:not([type=hidden])', 'select', 'textarea', 'summary', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'iframe', '[onclick]', '[tabindex]:not([tabindex="-1"])', '[contenteditable]:not([contenteditable=false])',
    ...[...ROLES].map((role) => `[role=${role}]`),
  ].join(',');
  return { selector, kindOf };
}

/** Runs in the page. Returns the roots to capture, in document order, or none when the whole page is small. */
export function chooseRegion({ margin, limit }: RegionArgs, helpers: { countedKinds: typeof countedKinds }): { roots: Element[] | undefined; tallies: RegionTallies; elements: number } {
  const top = -margin;
  const bottom = innerHeight + margin;
  const width = innerWidth;
  const SKIP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'LINK', 'META']);
  const tallies: RegionTallies = { above: {}, below: {}, beside: {} };
  const body = document.body;
  const total = document.getElementsByTagName('*').length;

  const inBand = (r: DOMRect) => !(r.bottom < top || r.top > bottom || r.right <= 0 || r.left >= width);
  // Each frame is a document of its own, which costs the capture as much as hundreds of elements: a subtree
  // holding a frame out of the band is never taken whole, as its content would be left out of the snapshot anyway.
  const holdsFarFrame = (el: Element) => {
    for (const frame of el.getElementsByTagName('iframe')) if (!inBand(frame.getBoundingClientRect())) return true;
    return false;
  };
  /** Counts elements below `el`, giving up past the limit: the cost is bounded by the limit, not the subtree. */
  const small = (el: Element) => {
    let count = 0;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
    while (walker.nextNode()) if (++count > limit) return false;
    return !holdsFarFrame(el);
  };
  // A page no bigger than one whole subtree is captured whole: the pass below would save nothing.
  if (!body || (total <= limit && !holdsFarFrame(body))) return { roots: undefined, tallies, elements: total };

  const roots: Element[] = [];
  // Descend from the body into elements that are partly in the band and too big to take whole; take those
  // wholly in it, or small enough; leave those wholly outside to the tallies below.
  const descend = (el: Element) => {
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) {
      if (SKIP.has(child.tagName)) continue;
      const r = child.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) {
        // No box: hidden (nothing inside shows), or a wrapper whose content is laid out elsewhere. A frame
        // without a box shows nothing at all.
        if (child.tagName === 'IFRAME' || !child.checkVisibility()) continue;
      } else {
        if (!inBand(r)) continue;
        if (r.top >= top && r.bottom <= bottom && !holdsFarFrame(child)) {
          roots.push(child);
          continue;
        }
      }
      if (small(child)) roots.push(child);
      else descend(child);
    }
  };
  descend(body);

  // Tallies, and the safety net: a control in the band that no root holds (positioned out of its container's
  // box, a fixed bar inside a footer) becomes a root itself.
  const { selector: SELECTOR, kindOf } = helpers.countedKinds();
  const missed: Element[] = [];
  // What the roots hold, found from the roots (a screenful): no element of the page is compared with a root for its position.
  const held = new Set<Element>();
  for (const root of roots) {
    if (root.matches(SELECTOR)) held.add(root);
    for (const el of root.querySelectorAll(SELECTOR)) held.add(el);
  }
  for (const el of document.querySelectorAll(SELECTOR)) {
    if (held.has(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const side = r.bottom < top ? tallies.above : r.top > bottom ? tallies.below : r.right <= 0 || r.left >= width ? tallies.beside : undefined;
    if (!side) {
      if (missed.length < 200 && el.checkVisibility()) missed.push(el);
      continue;
    }
    const kind = kindOf(el);
    side[kind] = (side[kind] ?? 0) + 1;
  }

  // Open dialogs are always listed, wherever they sit.
  for (const dialog of document.querySelectorAll('dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')) {
    if (dialog.checkVisibility()) missed.push(dialog);
  }
  const all = [...roots, ...missed].sort((a, b) => (a === b ? 0 : a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  const kept: Element[] = [];
  for (const el of all) {
    const last = kept[kept.length - 1];
    if (last && last.contains(el)) continue;
    // A dialog or stray control that holds roots found before it: it replaces them.
    while (kept.length && el.contains(kept[kept.length - 1]!)) kept.pop();
    kept.push(el);
  }
  return { roots: kept, tallies, elements: total };
}

/**
 * Runs in the page: gives the roots ids where they lack a usable one and makes a hidden element own them, so
 * one snapshot of that element captures them all. Returns what `releaseRegion` needs to undo it.
 */
export function ownRoots(roots: Element[], ownerId: string): { owner: Element; renamed: Array<[Element, string | null]> } {
  const renamed: Array<[Element, string | null]> = [];
  const ids = roots.map((el, i) => {
    if (el.id && document.getElementById(el.id) === el && !/\s/.test(el.id)) return el.id;
    renamed.push([el, el.getAttribute('id')]);
    el.id = `${ownerId}-${i}`;
    return el.id;
  });
  const owner = document.createElement('div');
  owner.id = ownerId;
  owner.setAttribute('style', 'display:none !important');
  owner.setAttribute('aria-owns', ids.join(' '));
  document.documentElement.appendChild(owner);
  return { owner, renamed };
}
