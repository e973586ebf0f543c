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
 * Everything here runs in the page: it is serialised as source text (see inPage.ts).
 */

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
export function hideHiddenText(args: HiddenTextArgs, scopes?: Element[]): HiddenSpot[] {
  type RGB = [number, number, number];
  type Clip = { left: number; top: number; right: number; bottom: number } | null;
  /**
   * What an element passes on to its content, worked out once per element (ancestors are shared by many texts).
   * Reading a computed style costs about as much as measuring a box: only four are read of every element.
   */
  interface Chain {
    style: CSSStyleDeclaration;
    position: string;
    /** The clip its in-flow content is under, in viewport coordinates (null: none). */
    flowClip: Clip;
    /** The clip an absolutely placed descendant whose containing block is this element or above is under. */
    absClip: Clip;
    /** The element or an ancestor is fixed to the viewport. */
    fixed: boolean;
    /** The backdrop of its content, once asked (`backdropOf`): a solid colour, or null when unknown. */
    backdrop?: RGB | null;
  }
  const NAMED_BY_CONTENT =
    'a, button, label, summary, option, legend, caption, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option], [role=treeitem]';
  const CONTROL = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=combobox], [role=textbox], [role=slider]';
  /** What opens a part of the page: a toggle beside it. */
  const TOGGLE = '[aria-expanded], [aria-controls], [aria-haspopup], summary, [data-toggle], [data-bs-toggle]';
  /** Text worth hiding has a letter or a digit (not a soft hyphen or a lone "|"). */
  const WORDY = /[\p{L}\p{N}]/u;
  const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE', 'TEXTAREA', 'SELECT', 'svg']);
  /** Visually-hidden words beside a control are its label up to this length; longer is not a label. */
  const LABEL_LIMIT = 120;
  const chains = new Map<Element, Chain>();
  const docs = new Set<Document>();
  const styleOf = (el: Element) => (el.ownerDocument.defaultView ?? window).getComputedStyle(el);
  const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host as Element | undefined) ?? null;

  const parseColor = (value: string): [number, number, number, number] | null => {
    const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value);
    if (!m) return null;
    const a = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [parseFloat(m[1]!), parseFloat(m[2]!), parseFloat(m[3]!), a];
  };
  const blend = (top: RGB, alpha: number, below: RGB): RGB => [0, 1, 2].map((i) => top[i]! * alpha + below[i]! * (1 - alpha)) as RGB;
  const intersect = (a: Clip, b: Clip): Clip =>
    !a ? b : !b ? a : { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
  /** Whether `r` shows less than a sliver through `clip`. */
  const clippedAway = (r: DOMRect, clip: Clip) =>
    !!clip && (Math.min(r.right, clip.right) - Math.max(r.left, clip.left) < 2 || Math.min(r.bottom, clip.bottom) - Math.max(r.top, clip.top) < 2);

  /** The clip an element's own overflow (or, placed, its `clip` or `clip-path`) puts on its content, or null. */
  const ownClip = (el: Element, style: CSSStyleDeclaration, position: string): Clip => {
    // The root's and the body's overflow belong to the viewport, which scrolls.
    if (el === el.ownerDocument.documentElement || el === el.ownerDocument.body) return null;
    const [overflowX, overflowY = overflowX] = style.overflow.split(' ');
    const clips = (v: string | undefined) => v === 'hidden' || v === 'clip';
    const x = clips(overflowX);
    const y = clips(overflowY);
    // The visually-hidden pattern clips a placed element to nothing with `clip` or `clip-path`.
    const zero =
      position !== 'static' && position !== 'relative' && position !== 'sticky' && (/^rect\(0px,? 0px,? 0px,? 0px\)$/.test(style.clip) || /^inset\(\s*50%/.test(style.clipPath));
    if (!x && !y && !zero) {
      // A scroll container shows what it holds as it is scrolled, unless it has no room to show anything.
      if (overflowX === 'visible' && overflowY === 'visible') return null;
      const box = el as HTMLElement;
      if (box.clientWidth >= 2 && box.clientHeight >= 2) return null;
    }
    const r = el.getBoundingClientRect();
    if (zero) return { left: r.left, top: r.top, right: r.left, bottom: r.top };
    return { left: x ? r.left : -Infinity, top: y ? r.top : -Infinity, right: x ? r.right : Infinity, bottom: y ? r.bottom : Infinity };
  };

  const chainOf = (el: Element): Chain => {
    const known = chains.get(el);
    if (known) return known;
    const style = styleOf(el);
    const parent = parentOf(el);
    const up = parent ? chainOf(parent) : null;
    const position = style.position;
    // An absolutely placed element escapes the clips between it and the element it is placed in; a fixed one all.
    const clipOfSelf = position === 'fixed' ? null : position === 'absolute' ? (up ? up.absClip : null) : up ? up.flowClip : null;
    const flowClip = intersect(clipOfSelf, ownClip(el, style, position));
    const chain: Chain = {
      style,
      position,
      flowClip,
      absClip: position !== 'static' ? flowClip : up ? up.absClip : null,
      fixed: position === 'fixed' || (!!up && up.fixed),
    };
    chains.set(el, chain);
    return chain;
  };
  /**
   * The backdrop of an element's content: its background over its parent's; unknown below an image, a gradient
   * or a dark canvas. Whatever else may lie behind a text (a photo placed under a banner's words) is looked for
   * only when the colour matches (`overlapped`).
   */
  const backdropOf = (el: Element): RGB | null => {
    const chain = chainOf(el);
    if (chain.backdrop !== undefined) return chain.backdrop;
    const { style } = chain;
    const bg = parseColor(style.backgroundColor);
    let backdrop: RGB | null;
    if (style.backgroundImage !== 'none') backdrop = null;
    else if (bg && bg[3] >= 0.99) backdrop = [bg[0], bg[1], bg[2]];
    else {
      const parent = parentOf(el);
      const below = parent ? backdropOf(parent) : /dark/.test(style.colorScheme) ? null : ([255, 255, 255] as RGB);
      backdrop = !bg || bg[3] === 0 ? below : below ? blend([bg[0], bg[1], bg[2]], bg[3], below) : null;
    }
    chain.backdrop = backdrop;
    return backdrop;
  };

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

  const ranges = new Map<Document, Range>();
  /**
   * Where the texts are drawn: their element's box, a third of the cost of a range's, unless the words may lie
   * outside it (a block's negative text-indent pushes them out; a box of no size lets them spill).
   */
  const textRect = (texts: Text[]): DOMRect => {
    const el = texts[0]!.parentElement!;
    const box = el.getBoundingClientRect();
    if (box.width >= 1 && box.height >= 1) {
      const { style } = chainOf(el);
      if (style.display.startsWith('inline') || !(parseFloat(style.textIndent) < 0)) return box;
    }
    const doc = el.ownerDocument;
    const range = ranges.get(doc) ?? ranges.set(doc, doc.createRange()).get(doc)!;
    range.setStartBefore(texts[0]!);
    range.setEndAfter(texts[texts.length - 1]!);
    return range.getBoundingClientRect();
  };

  // Opaque elements placed over the page may hide text under them; fixed and sticky ones are left out, for what
  // they cover is reached by scrolling or by closing them. Looked for among the elements whose style was read for
  // the texts inside them, and among the empty ones (a box laid over words is the usual one); reading the style
  // of every element would cost as much again as all the rest.
  const BOXES = new Set(['DIV', 'SPAN', 'SECTION', 'ASIDE', 'ARTICLE', 'FIGURE', 'P', 'HEADER', 'FOOTER', 'I', 'B', 'EM', 'STRONG', 'LI', 'INS', 'MARK']);
  const findCovers = () => {
    const found: Array<{ el: Element; rect: DOMRect; z: number }> = [];
    const consider = (el: Element, style: CSSStyleDeclaration) => {
      const bg = parseColor(style.backgroundColor);
      if (!bg || bg[3] < 0.95 || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions)) return;
      const rect = el.getBoundingClientRect();
      if (rect.width < 4 || rect.height < 4) return;
      const z = parseInt(style.zIndex, 10);
      found.push({ el, rect, z: Number.isNaN(z) ? 0 : z });
    };
    for (const [el, chain] of chains) if (chain.position === 'absolute') consider(el, chain.style);
    for (const root of scanned) {
      const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node as Element;
        if (el.firstElementChild || !(BOXES.has(el.tagName) || el.tagName.includes('-')) || chains.has(el)) continue;
        const style = styleOf(el);
        if (style.position === 'absolute') consider(el, style);
      }
    }
    return found;
  };
  /** The z-index a text is painted at, and whether anything positioned holds it (else it is painted under anything positioned). */
  const layer = (el: Element): { z: number; placed: boolean } => {
    let z = 0;
    let placed = false;
    for (let e: Element | null = el; e && e !== e.ownerDocument.body; e = e.parentElement) {
      const chain = chainOf(e);
      if (chain.position === 'static') continue;
      placed = true;
      const own = parseInt(chain.style.zIndex, 10);
      if (!Number.isNaN(own)) z = Math.max(z, own);
    }
    return { z, placed };
  };
  const covered = (el: Element, r: DOMRect, covers: Array<{ el: Element; rect: DOMRect; z: number }>): boolean => {
    let mine: { z: number; placed: boolean } | undefined;
    for (const cover of covers) {
      const c = cover.rect;
      if (c.left > r.left + 1 || c.top > r.top + 1 || c.right < r.right - 1 || c.bottom < r.bottom - 1) continue;
      if (cover.el.contains(el) || el.contains(cover.el) || cover.el.ownerDocument !== el.ownerDocument || cover.z < 0) continue;
      mine ??= layer(el);
      if (!mine.placed || cover.z > mine.z) return true;
      if (cover.z === mine.z && el.compareDocumentPosition(cover.el) & Node.DOCUMENT_POSITION_FOLLOWING) return true;
    }
    return false;
  };
  /**
   * Whether something else than its ancestors' backgrounds may be painted where the text is. Asked only on a
   * colour match, which ordinary pages rarely have: the elements that paint are listed on the first one.
   */
  let painting: Element[] | undefined;
  const PAINTS = /^(IMG|VIDEO|CANVAS|svg|PICTURE|IFRAME|EMBED|OBJECT)$/;
  const overlapped = (el: Element, r: DOMRect): boolean => {
    painting ??= scanned.flatMap((root) =>
      [root, ...root.querySelectorAll('*')].filter((e) => {
        if (PAINTS.test(e.tagName)) return true;
        const style = chains.get(e)?.style ?? styleOf(e);
        const bg = parseColor(style.backgroundColor);
        return style.backgroundImage !== 'none' || (!!bg && bg[3] > 0.05);
      }),
    );
    return painting.some((other) => {
      if (other.contains(el) || other.ownerDocument !== el.ownerDocument) return false;
      const o = other.getBoundingClientRect();
      return o.left < r.right && o.right > r.left && o.top < r.bottom && o.bottom > r.top;
    });
  };

  const rtl = getComputedStyle(document.documentElement).direction === 'rtl';
  const views = new Map<Document, { x: number; y: number; width: number; height: number }>();
  /** Where a document is scrolled to and how large its viewport is, read once. */
  const viewOf = (doc: Document) => {
    const known = views.get(doc);
    if (known) return known;
    const view = doc.defaultView ?? window;
    const found = { x: view.scrollX, y: view.scrollY, width: view.innerWidth, height: view.innerHeight };
    views.set(doc, found);
    return found;
  };
  /** Placed where no one can scroll to: above or left of the page's start, or a fixed element outside the viewport. */
  const offPage = (e: Element, r: DOMRect): boolean => {
    const view = viewOf(e.ownerDocument);
    if (chainOf(e).fixed) return r.right <= 0 || r.bottom <= 0 || r.left >= view.width || r.top >= view.height;
    return (!rtl && r.right + view.x <= 0) || r.bottom + view.y <= 0;
  };
  const css = (style: CSSStyleDeclaration, name: string) => (style as unknown as Record<string, string>)[name] ?? '';
  /** An opacity on its way to change (a fade-in, a scroll reveal) will show its content. */
  const fading = (style: CSSStyleDeclaration) =>
    style.animationName !== 'none' || (style.transitionDuration.split(',').some((d) => parseFloat(d) > 0) && /\b(opacity|all)\b/.test(style.transitionProperty));
  /** The outermost ancestor of `el` (itself included) for which `test` still holds. */
  const outermost = (el: Element, test: (e: Element) => boolean): Element => {
    let top = el;
    for (let up = el.parentElement; up && up !== up.ownerDocument.body && test(up); up = up.parentElement) top = up;
    return top;
  };

  /** Why the text of `el` is not seen, or '' when it is (or may be) and where it is; being covered is told apart later. */
  const unseen = (el: Element, texts: Text[]): string | DOMRect => {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions)) {
      // Not rendered or `visibility: hidden`: the capture leaves it out already. Else an opacity of zero.
      if (!el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)) return '';
      const faded = outermost(el, (e) => !e.checkVisibility({ opacityProperty: true } as CheckVisibilityOptions));
      let holder: Element | null = el;
      while (holder && holder !== faded.parentElement && styleOf(holder).opacity !== '0') holder = holder.parentElement;
      return holder && fading(styleOf(holder)) ? '' : 'opacity';
    }
    const chain = chainOf(el);
    const { style } = chain;
    if (parseFloat(style.fontSize) < 3) return 'size';
    const r = textRect(texts);
    if (r.width < 1 || r.height < 1) return 'size';
    if (clippedAway(r, chain.flowClip)) return 'clipped';
    if (offPage(el, r)) return 'off-screen';
    // The colour: the fill, blended over the backdrop when see-through, against the backdrop.
    const fill = parseColor(css(style, 'webkitTextFillColor'));
    const backdrop = fill && !(el instanceof SVGElement) ? backdropOf(el) : null;
    if (fill && backdrop) {
      const shown = blend([fill[0], fill[1], fill[2]], fill[3], backdrop);
      if (Math.max(...shown.map((v, i) => Math.abs(v - backdrop[i]!))) <= 16) {
        // Words drawn otherwise than by their fill: a shadow, an outline, the background showing through them.
        let clipsText = false;
        for (let e: Element | null = el; e && !clipsText; e = parentOf(e)) clipsText = /text/.test(chainOf(e).style.backgroundClip || css(chainOf(e).style, 'webkitBackgroundClip'));
        const drawn = style.textShadow !== 'none' || parseFloat(css(style, 'webkitTextStrokeWidth') || '0') > 0 || clipsText;
        if (!drawn && !overlapped(el, r)) return 'colour';
      }
    }
    return r;
  };

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
      for (const el of doc.querySelectorAll('[aria-controls], [aria-owns], [data-target], [data-bs-target], a[href^="#"]')) {
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
  /** Whether a part a person does not see now is one they open: a control points to it or sits beside it. */
  const reachable = (part: Element): boolean => {
    for (let el: Element | null = part, depth = 0; el && depth < 2; el = el.parentElement, depth++) {
      if (el.id && reachOf().opened.has(el.id)) return true;
      if (el.tagName === 'DETAILS' || el.tagName === 'DIALOG') return true;
      for (const sibling of [el.previousElementSibling, el.nextElementSibling]) {
        if (sibling && (sibling.matches(TOGGLE) || sibling.querySelector(TOGGLE))) return true;
      }
    }
    return false;
  };
  /** The element whose own overflow or clip hides text at `r`: the part a control would open. */
  const clipper = (el: Element, r: DOMRect): Element => {
    for (let e: Element | null = el; e; e = e.parentElement) if (clippedAway(r, ownClip(e, chainOf(e).style, chainOf(e).position))) return e;
    return el;
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
    if (why === 'opacity') return reachable(outermost(el, (e) => !e.checkVisibility({ opacityProperty: true } as CheckVisibilityOptions)));
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
export function copyWithoutHiddenText(args: HiddenTextCopyArgs, helpers: { hideHiddenText: typeof hideHiddenText; releaseHiddenText: typeof releaseHiddenText }): { copy: Node; hidden: number } {
  const w = window as unknown as Record<symbol, Element | undefined>;
  const element = args.elementKey ? w[Symbol.for(args.elementKey)] : undefined;
  if (args.elementKey) delete w[Symbol.for(args.elementKey)];
  let copy: Node;
  let hidden: number;
  try {
    hidden = helpers.hideHiddenText({ markersKey: args.markersKey, mode: 'read', readAttribute: args.attribute, listenersKey: args.listenersKey }, element ? [element] : undefined).length;
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
