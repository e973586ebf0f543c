/**
 * Sight: whether a person sees a text of the page, judged in the page from computed styles and boxes, for
 * hiddenText.ts. A text is not seen when its opacity is zero (and not changing), its font or its box has no
 * size, an ancestor's overflow or clip cuts it away, it lies where no one can scroll, its colour is that of what
 * is behind it, or an opaque element placed over the page covers it. Reading a computed style costs about as
 * much as measuring a box, so each element's style is read once and shared by the texts inside it, and what is
 * rarely needed (the backdrop behind a colour match, the covers) is worked out only when asked.
 *
 * It runs in the page: `sight` is serialised as source text (see inPage.ts) and passed to `hideHiddenText`.
 */

/** Why a text is not seen. */
export type Unseen = 'opacity' | 'size' | 'clipped' | 'off-screen' | 'colour' | 'covered';

/**
 * Runs in the page: the judge of the texts under `scanned` (the roots read, frames of the same origin included).
 * `unseen` says why a text is not seen, '' when the capture leaves it out anyway or it is fading in, or else where
 * it is; being covered is asked apart (`covered`), once every text's own style has been read.
 */
export function sight(scanned: Element[]) {
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
    /** How opaque it is drawn: its opacity (and a `filter: opacity()`) times its ancestors'. */
    opacity: number;
    /** The backdrop of its content, once asked (`backdropOf`): a solid colour, or null when unknown. */
    backdrop?: RGB | null;
  }
  /** An opacity under this, its ancestors' included, leaves words no one reads. */
  const FAINT = 0.05;
  const chains = new Map<Element, Chain>();
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
    // The visually-hidden pattern clips a placed element to nothing with `clip`; `clip-path` does it to any.
    const zero =
      (position !== 'static' && position !== 'relative' && position !== 'sticky' && /^rect\(0px,? 0px,? 0px,? 0px\)$/.test(style.clip)) ||
      /^inset\(\s*(?:[5-9]\d(?:\.\d+)?|100)%\s*\)$/.test(style.clipPath) ||
      /^circle\(\s*0(?:px|%)?\b/.test(style.clipPath);
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

  /** A box the person scrolls: overflow `auto` or `scroll` on an axis, with room to show something. */
  const scrolls = (el: Element, style: CSSStyleDeclaration): boolean => {
    if (el === el.ownerDocument.documentElement || el === el.ownerDocument.body) return false;
    if (!/auto|scroll/.test(style.overflow)) return false;
    const box = el as HTMLElement;
    return box.clientWidth >= 2 && box.clientHeight >= 2;
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
    let flowClip = intersect(clipOfSelf, ownClip(el, style, position));
    // What a scroll container holds is scrolled into its box: the clips above reach its content only through it.
    if (clipOfSelf && scrolls(el, style)) {
      const r = el.getBoundingClientRect();
      flowClip = clippedAway(r, clipOfSelf) ? { left: r.left, top: r.top, right: r.left, bottom: r.top } : null;
    }
    const filtered = /opacity\(\s*([\d.]+)(%?)\s*\)/.exec(style.filter);
    const own = parseFloat(style.opacity) * (filtered ? parseFloat(filtered[1]!) / (filtered[2] ? 100 : 1) : 1);
    const chain: Chain = {
      style,
      position,
      flowClip,
      absClip: position !== 'static' ? flowClip : up ? up.absClip : null,
      fixed: position === 'fixed' || (!!up && up.fixed),
      opacity: (Number.isNaN(own) ? 1 : own) * (up ? up.opacity : 1),
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
  const unseen = (el: Element, texts: Text[]): Unseen | '' | DOMRect => {
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
    // Nearly transparent, or faded by a filter: as unseen as at zero, unless on its way to show.
    if (chain.opacity < FAINT) {
      for (let e: Element | null = el; e && e !== faintest(el).parentElement; e = e.parentElement) if (fading(chainOf(e).style)) return '';
      return 'opacity';
    }
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

  /** The outermost element drawn too faint to see, of `el` and its ancestors: the part a control would show. */
  const faintest = (el: Element): Element => {
    const zero = outermost(el, (e) => !e.checkVisibility({ opacityProperty: true } as CheckVisibilityOptions));
    return zero !== el ? zero : outermost(el, (e) => chainOf(e).opacity < FAINT);
  };

  /** The element whose own overflow or clip hides text at `r`: the part a control would open. */
  const clipper = (el: Element, r: DOMRect): Element => {
    for (let e: Element | null = el; e; e = e.parentElement) if (clippedAway(r, ownClip(e, chainOf(e).style, chainOf(e).position))) return e;
    return el;
  };
  return { unseen, covered, findCovers, textRect, clipper, faintest, offPage, viewOf, outermost, styleOf };
}

export type Sight = ReturnType<typeof sight>;
