/**
 * Page facts: one script run in the page per capture, collecting what Playwright's aria snapshot does not
 * carry: which fields are passwords, secret, required or read-only; which plain elements react to the
 * mouse or keyboard (an `onclick` attribute, a tabindex, a listener recorded by listeners.ts, a jQuery
 * delegated handler); what an unnamed control's icon suggests; whether a toggle or a tree folder is open;
 * and a fixed layer covering the screen. Facts are keyed by the element's rounded box, which is how the
 * formatter finds them again on the snapshot's nodes.
 *
 * It also prepares the page for the snapshot: Playwright makes no node (so no ref) for an inline element
 * whose only child is text, which is how many script-made links look (`<span onclick>Search</span>`), nor for
 * an element that shows no text (an icon, a slider handle). Such elements, when they react, get an empty
 * comment or an aria-label for the duration of the capture; `releaseElements` takes them out again.
 */
import type { ListenerRecord } from './listeners.js';

/** Facts about one element, by box. */
export interface ElementFacts {
  password?: boolean;
  /** Matches one of the configured secret-field selectors: its value is never shown. */
  secret?: boolean;
  required?: boolean;
  readonly?: boolean;
  /**
   * Not a control, but reacts: a click or key handler, a tabindex (`click`); draggable, or showing a grab or
   * move cursor (`drag`); an empty container of the same kind as one holding draggables, where they are dropped (`drop`).
   */
  clickable?: 'click' | 'drag' | 'drop';
  /** For a control with no accessible name: what its icon, title, class or id suggests ("trash", "more"). */
  icon?: string;
  /** Given the role "group" for the capture (see `collectPageFacts`): the facts are this wrapper's, not its same-box child's. */
  grouped?: boolean;
  /** A script-made slider's handle (focusable, empty, called a handle, thumb or knob): it takes arrow keys. */
  slider?: boolean;
  /** aria-expanded, a `<summary>`'s `<details>`, or a tree item's nested list being shown. */
  expanded?: boolean;
  /** What a widget's part says of itself by aria or class: a calendar day `selected`, `today`, `disabled`, `in range`. */
  state?: string[];
  /** Named by its `title` alone while it shows text: the name is a tooltip, the text is what a person reads. */
  titled?: boolean;
  /** A text area or an editable surface (editables.ts): Enter makes a new line there rather than sending a form. */
  multiline?: boolean;
  /** The text it holds as it shows, line breaks kept, where the capture's text loses them or leaves it out. */
  text?: string;
}

/** A fixed or sticky element covering much of the viewport (cookie walls, sign-up modals without ARIA). */
export interface Overlay {
  /** Share of the viewport it covers, 0..1. */
  coverage: number;
  text: string;
  /** Box keys of the controls inside it, so they can be listed first. */
  controls: string[];
}

export interface PageMetrics {
  scrollX: number;
  scrollY: number;
  scrollWidth: number;
  scrollHeight: number;
  viewportWidth: number;
  viewportHeight: number;
}

export interface FactsArgs {
  secretSelector: string;
  /** Symbol.for key of the listener record (listeners.ts). */
  listenersKey: string;
  /** Symbol.for key under which the comments added for the capture are kept until released. */
  markersKey: string;
  /** Prepare inline text-only elements that react (only when a capture follows: not in frames read afterwards). */
  mark: boolean;
}

/**
 * Runs in the page. Everything it uses is declared inside, so it survives serialisation. `scopes` limits the
 * work to the subtrees a regional capture takes (region.ts); without them the whole document is read.
 */
export function collectPageFacts({ secretSelector, listenersKey, markersKey, mark }: FactsArgs, scopes?: Element[]) {
  const facts = new Map<string, ElementFacts>();
  /** Elements matching `selector` inside the scopes (each scope itself included). */
  const within = (selector: string): Element[] => {
    if (!scopes) return [...document.querySelectorAll(selector)];
    const out: Element[] = [];
    for (const scope of scopes) {
      if (scope.matches(selector)) out.push(scope);
      for (const el of scope.querySelectorAll(selector)) out.push(el);
    }
    return out;
  };
  const scopeSet = scopes && new Set<Node>(scopes);
  const inScope = (node: Node) => {
    if (!scopeSet) return true;
    for (let n: Node | null = node; n; n = n.parentNode) if (scopeSet.has(n)) return true;
    return false;
  };
  /** Whether an element shows any text: stops at the first non-blank text node instead of reading it all. */
  const hasText = (el: Element): boolean => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) if (/\S/.test(walker.currentNode.nodeValue ?? '')) return true;
    // Inside a web component the text a person reads is often the page's, shown through a slot (a toggle's label).
    for (const slot of el.querySelectorAll('slot')) {
      for (const node of slot.assignedNodes({ flatten: true })) {
        if (node instanceof Element ? hasText(node) : /\S/.test(node.nodeValue ?? '')) return true;
      }
    }
    return false;
  };
  /** Whether a form control or an ARIA widget sits inside, slotted ones too: its name is that control's, not an icon's. */
  const FIELD = 'input:not([type=hidden]), select, textarea, button, [role=switch], [role=checkbox], [role=radio], [role=textbox], [role=slider]';
  const holdsControl = (el: Element): boolean => {
    if (el.querySelector(FIELD)) return true;
    for (const slot of el.querySelectorAll('slot')) {
      for (const node of slot.assignedElements({ flatten: true })) if (node.matches(FIELD) || holdsControl(node) || (node.shadowRoot && node.shadowRoot.querySelector(FIELD))) return true;
    }
    return false;
  };
  const keyOf = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return undefined;
    return `${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}`;
  };
  /** Where each element with facts sat: the capture's nodes are matched to facts by box (`releaseElements`). */
  const placed = new Map<Element, string>();
  const add = (el: Element, fact: ElementFacts) => {
    const key = keyOf(el);
    if (!key) return;
    facts.set(key, { ...facts.get(key), ...fact });
    placed.set(el, key);
  };

  for (const el of within('input, textarea, select, [contenteditable], [aria-required], [aria-readonly]')) {
    const password = el instanceof HTMLInputElement && el.type === 'password';
    const required = (el as HTMLInputElement).required === true || el.getAttribute('aria-required') === 'true';
    const readonly = (el as HTMLInputElement).readOnly === true || el.getAttribute('aria-readonly') === 'true';
    if (password || required || readonly) add(el, { password, required, readonly });
    // The capture reads a text area's value as one line; its own value keeps the line breaks.
    if (el instanceof HTMLTextAreaElement) add(el, el.value.includes('\n') ? { multiline: true, text: el.value } : { multiline: true });
  }
  if (secretSelector) {
    try {
      for (const el of within(secretSelector)) add(el, { secret: true });
    } catch {
      // an invalid selector in the config must not break the snapshot; it masks nothing
    }
  }
  // Playwright reports aria-expanded only when true; "collapsed" is what tells a closed folder or menu.
  for (const el of within('[aria-expanded]')) add(el, { expanded: el.getAttribute('aria-expanded') === 'true' });
  // <summary> has no ARIA role of its own, but it is the toggle of a disclosure.
  for (const el of within('details > summary')) add(el, { clickable: 'click', expanded: (el.parentElement as HTMLDetailsElement).open });

  // Elements that react although nothing in their markup says so to the accessibility tree.
  const reacting = new Set<Element>(within('[onclick], [onmousedown], [tabindex]:not([tabindex="-1"]), [draggable="true"]'));
  // Drag libraries that listen on the document (dragula, jQuery UI) leave only the cursor they style: grab or move.
  const grabbed = new Set<Element>();
  const GRAB = /^(grab|move|-webkit-grab)$/;
  const grabSelectors: string[] = ['[style*="cursor: grab"]', '[style*="cursor: move"]', '[style*="cursor:grab"]', '[style*="cursor:move"]'];
  const readRules = (rules: CSSRuleList, depth: number) => {
    for (const rule of rules) {
      if (rule instanceof CSSStyleRule && GRAB.test(rule.style.cursor)) grabSelectors.push(rule.selectorText);
      else if (depth < 3 && 'cssRules' in rule) readRules((rule as CSSGroupingRule).cssRules, depth + 1);
    }
  };
  for (const sheet of document.styleSheets) {
    try {
      readRules(sheet.cssRules, 0);
    } catch {
      // another site's sheet cannot be read: its cursors stay unknown
    }
  }
  for (const selector of grabSelectors) {
    try {
      for (const el of within(selector)) if (GRAB.test(getComputedStyle(el).cursor)) grabbed.add(el);
    } catch {
      // a selector with a pseudo-element or one the DOM does not take
    }
  }
  for (const el of grabbed) reacting.add(el);
  // Where they are dropped: empty containers shaped like the ones holding them (a board's empty column).
  const dropZones = new Set<Element>();
  for (const el of grabbed) {
    const parent = el.parentElement;
    if (!parent || parent === document.body || !parent.className || typeof parent.className !== 'string') continue;
    const shape = `${parent.tagName.toLowerCase()}.${parent.className.trim().split(/\s+/).map((c) => CSS.escape(c)).join('.')}`;
    for (const zone of within(shape)) if (zone !== parent && !hasText(zone)) dropZones.add(zone);
  }
  for (const zone of dropZones) reacting.add(zone);
  const record = (window as unknown as Record<symbol, ListenerRecord | undefined>)[Symbol.for(listenersKey)];
  const listened = record ? record.live() : [];
  for (const target of listened) if (target instanceof Element && inScope(target)) reacting.add(target);
  /** Elements of one widget, and of all, checked for a pointer cursor: a widget is a date picker, not a page. */
  const WIDGET_PARTS_LOOKED_AT = 400;
  const PARTS_LOOKED_AT = 3_000;
  let partsLookedAt = 0;
  // One listener on a widget serves its parts (a date picker's arrows): anchors without href and elements
  // naming their handler in a data attribute are what it serves. Not below a page-sized root (React's).
  const viewportArea = innerWidth * innerHeight;
  for (const target of listened) {
    if (!(target instanceof Element) || !inScope(target) || target === document.body || target === document.documentElement) continue;
    const r = target.getBoundingClientRect();
    if (r.width * r.height > viewportArea) continue;
    for (const el of target.querySelectorAll('a:not([href]), [data-handler], [data-action]')) reacting.add(el);
    // Its arrows and close marks: no text, but a pointer cursor where they begin (a calendar's next month).
    const parts = target.querySelectorAll('*');
    for (let i = 0; i < parts.length && i < WIDGET_PARTS_LOOKED_AT && partsLookedAt++ < PARTS_LOOKED_AT; i++) {
      const el = parts[i]!;
      if (el.closest('svg') !== el && el.closest('svg')) continue;
      if (getComputedStyle(el).cursor !== 'pointer' || (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer')) continue;
      if (!hasText(el)) reacting.add(el);
    }
  }
  // jQuery keeps delegated handlers (`$(list).on('click', '.item', fn)`) on the container, with the selector they serve.
  const jq = (window as unknown as { jQuery?: { _data?: (el: unknown, key: string) => unknown } }).jQuery;
  if (typeof jq?._data === 'function') {
    for (const target of [document, ...listened]) {
      if (!(target instanceof Element || target instanceof Document)) continue;
      let events: Record<string, Array<{ selector?: string }>> | undefined;
      try {
        events = jq._data(target, 'events') as typeof events;
      } catch {
        events = undefined;
      }
      for (const type of ['click', 'mousedown', 'mouseup', 'pointerdown', 'touchstart', 'keydown']) {
        for (const handler of events?.[type] ?? []) {
          if (!handler.selector) continue;
          try {
            for (const el of target.querySelectorAll(handler.selector)) if (inScope(el)) reacting.add(el);
          } catch {
            // jQuery accepts selectors the DOM does not (":first"): skip them
          }
        }
      }
    }
  }

  /** What an unnamed control's icon, symbol, test id, id or (for script-made controls) class suggests. */
  const ICON_CLASS = /^(?:fa|fas|far|fab|bi|icon|glyphicon|mdi|ti|ri|la|octicon|feather|lucide|ion|gg)-([a-z0-9-]+)$|^([a-z0-9-]+?)-icon$|^icon([A-Z][A-Za-z0-9]+)$/;
  const NOISE = /^(solid|regular|light|thin|duotone|brands|lg|sm|xs|xl|\dx|fw|spin|pulse|fixed|inverse|border|stack|flip.*|rotate.*|icon|icons|svg|small|large)$/;
  // Class words that say how something looks, not what it is.
  const STYLE_CLASS = /^(ui-(corner|state|widget|helper)-.*|active|selected|disabled|hidden|show|open|closed|clearfix|pull-.*|float-.*|text-.*|bg-.*|p[xytblr]?-\d+|m[xytblr]?-\d+|d-.*|flex.*|col.*|row)$/;
  const cleanHint = (text: string) => text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_#.]+/g, ' ').trim().toLowerCase().slice(0, 30);
  function iconHint(el: Element): string {
    let hint = '';
    const named = el.querySelector('[title], [aria-label], svg title');
    if (named) hint = named.getAttribute('title') || named.getAttribute('aria-label') || named.textContent || '';
    if (!hint) {
      const use = el.querySelector('use');
      const href = use?.getAttribute('href') || use?.getAttribute('xlink:href') || '';
      if (href.includes('#')) hint = href.slice(href.lastIndexOf('#') + 1).replace(/^(icon|ico|i)[-_]/, '');
    }
    if (!hint) {
      // The element and its first seven descendants, without listing a big subtree's every element first.
      const first: Element[] = [el];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
      while (first.length < 8 && walker.nextNode()) first.push(walker.currentNode as Element);
      for (const node of first) {
        for (const token of node.classList) {
          const match = ICON_CLASS.exec(token);
          const word = match && (match[1] || match[2] || match[3]);
          if (word && !NOISE.test(word)) {
            hint = word;
            break;
          }
        }
        if (hint) break;
      }
    }
    if (!hint) hint = el.getAttribute('data-testid') || el.getAttribute('data-icon') || el.getAttribute('data-action') || el.getAttribute('name') || el.id || '';
    // A script-made control with nothing else to go by (a slider handle): its own class name.
    // (An id or name with a number in it is a script's counter, "ion-tg-0-lbl" or ":r3:": nothing to go by either.)
    if (/\d/.test(hint) && (hint === el.id || hint === el.getAttribute('name'))) hint = '';
    if (!hint && !el.matches('a, button, [role]')) hint = [...el.classList].find((token) => !STYLE_CLASS.test(token)) ?? '';
    return hint ? cleanHint(hint) : '';
  }

  // Controls Playwright names and refs by itself. An <a> without href is not one: it has no role.
  const CONTROLS = 'a[href], button, input, select, textarea, summary, option, label';
  const own: Element[] = [];
  for (const el of reacting) {
    if (el === document.body || el === document.documentElement || el.matches(CONTROLS)) continue;
    const r = el.getBoundingClientRect();
    // A listener on a page-sized wrapper is delegation or "click outside to close", not a control.
    if (r.width * r.height <= viewportArea * 0.4) own.push(el);
  }
  // Playwright makes no node, so no ref, for an inline element holding only text, for an element showing no
  // text (an icon, a slider handle: dropped or folded into its parent), nor for an unnamed element whose one
  // child has a node of its own (a MathJax formula: the child takes its place), nor for a block of text alone
  // in its parent (folded into it). For the time of the capture, the first gets an empty comment (one more
  // child node, no effect on layout or text), the second an aria-label with its icon hint (a name keeps the
  // node), the last two the neutral role "group" (only generic nodes are folded). Hints are all taken before
  // any is set, so a container's hint is not its handle's. Done before any box is measured; `releaseElements`
  // takes every mark out again.
  const markers: Array<Comment | [Element, string]> = [];
  /** Pixels across of a thin empty target (a resize grip). */
  const GRIP_PX = 10;
  const labelled = new Map<Element, string>();
  if (mark) {
    const labels = labelled;
    for (const el of own) {
      if (el.getAttribute('role') || el.closest('[contenteditable]')) continue;
      // Part of a label that names a control (a toggle's track): a name given to it would join the control's.
      if ((el.closest('label') as HTMLLabelElement | null)?.control) continue;
      const empty = !hasText(el);
      const named = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title');
      // A defined web component's host gets no mark at all, not even the role "group": some copy ARIA
      // attributes, the role among them, from the host into it as they start up (Ionic).
      if (el.shadowRoot || (el.localName.includes('-') && customElements.get(el.localName))) continue;
      if (empty && !named && !el.querySelector('img[alt]:not([alt=""])') && !holdsControl(el)) {
        // Nor is a component not defined yet: once it is, it draws its own content.
        if (el.tagName.includes('-')) continue;
        // A grip repeated in every body cell of a grid (a column's resize handle) is the header's to show.
        const box = el.getBoundingClientRect();
        const row = el.closest('tr, [role=row]');
        if (Math.min(box.width, box.height) <= GRIP_PX && row?.querySelector('td, [role=gridcell], [role=cell]')) continue;
        labels.set(el, iconHint(el) || el.tagName.toLowerCase());
      } else if (!empty && el.childNodes.length === 1 && el.firstChild!.nodeType === Node.TEXT_NODE && getComputedStyle(el).display === 'inline') {
        const marker = document.createComment('');
        el.appendChild(marker);
        markers.push(marker);
      } else if (!named && (el.matches('div, span, a, b, i, u, s, small, font, center') || el.tagName.includes('-'))) {
        const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim());
        // A lone block of text inside a wrapper is folded into the wrapper (a board's only card into its column).
        const lone = ownText && el.parentElement?.childElementCount === 1;
        if (!ownText || lone) {
          el.setAttribute('role', 'group');
          markers.push([el, 'role']);
          add(el, { grouped: true });
        }
      }
    }
    for (const [el, label] of labels) {
      el.setAttribute('aria-label', label);
      markers.push([el, 'aria-label']);
    }
  }
  for (const el of own) {
    add(el, { clickable: dropZones.has(el) ? 'drop' : el.getAttribute('draggable') === 'true' || grabbed.has(el) ? 'drag' : 'click' });
    if (el.getAttribute('title') && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby') && hasText(el)) add(el, { titled: true });
    if ((el as HTMLElement).tabIndex >= 0 && !(el.textContent ?? '').trim() && /(^|[\s_-])(handle|thumb|knob)([\s_-]|$)/i.test(el.getAttribute('class') ?? '')) add(el, { slider: true });
    // The label of a nested-list item that holds a list of its own is a tree folder, open when that list shows.
    const item = el.closest('li');
    if (item && !el.hasAttribute('aria-expanded')) {
      const sublist = item.querySelector(':scope > ul, :scope > ol, :scope > * > ul, :scope > * > ol');
      if (sublist && !sublist.contains(el)) add(el, { expanded: sublist.checkVisibility() && sublist.getBoundingClientRect().height > 0 });
    }
  }
  // Parts of a widget (a calendar's days, a list's items) say their state by class more often than by aria.
  const STATE_SELECTOR = '[aria-selected="true"], [aria-current], [aria-disabled="true"], [aria-sort], [class*="select" i], [class*="today" i], [class*="disabl" i], [class*="range" i], [class*="current" i], [class*="month" i]';
  const stateWords = (el: Element): string[] => {
    const words = new Set<string>();
    if (el.getAttribute('aria-selected') === 'true') words.add('selected');
    if (el.getAttribute('aria-disabled') === 'true') words.add('disabled');
    if (el.getAttribute('aria-current') === 'date') words.add('today');
    const sort = el.getAttribute('aria-sort');
    if (sort === 'ascending' || sort === 'descending') words.add(`sorted ${sort}`);
    for (const token of el.classList) {
      // "flatpickr-disabled", "is-today", "-in-range-", "startRange": the word, not the prefix.
      const t = token.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase().replace(/^[-_]+|[-_]+$/g, '');
      if (/(^|[-_])(selected|current[-_]day)$/.test(t)) words.add('selected');
      else if (/(^|[-_])today$/.test(t) || t === 'current') words.add('today');
      else if (/(^|[-_])(disabled|unselectable)$/.test(t)) words.add('disabled');
      else if (/(^|[-_])(range[-_](start|from)|start[-_]range)$/.test(t)) words.add('range start');
      else if (/(^|[-_])(range[-_](end|to)|end[-_]range)$/.test(t)) words.add('range end');
      else if (/(^|[-_])(in[-_]range|range)$/.test(t)) words.add('in range');
      else if (/(^|[-_])(other[-_]month|(prev|next)[-_]month[-_]day)$/.test(t)) words.add('other month');
    }
    return [...words];
  };
  const widgets = new Set<Element>(own);
  for (const target of listened) if (target instanceof Element && inScope(target) && target !== document.body && target !== document.documentElement) widgets.add(target);
  for (const widget of widgets) {
    const r = widget.getBoundingClientRect();
    if (r.width * r.height > viewportArea) continue;
    for (const el of [widget, ...widget.querySelectorAll(STATE_SELECTOR)]) {
      const state = stateWords(el);
      if (state.length) add(el, { state });
    }
  }
  if (markers.length) (window as unknown as Record<symbol, typeof markers>)[Symbol.for(markersKey)] = markers;
  if (mark) (window as unknown as Record<symbol, PlacedFacts>)[Symbol.for(`${markersKey}.placed`)] = { placed, keyOf };

  // Icon-only controls: the accessible name is empty, so guess from the icon. Marked ones carry the guess as
  // their aria-label for now: they are named by it, and their facts say it is a guess.
  const unnamed = new Set([...within('a, button, [role=button], [role=link], [role=menuitem], [role=tab], [onclick]'), ...own]);
  for (const el of unnamed) {
    const marked = labelled.get(el);
    if (!marked && (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title'))) continue;
    if (hasText(el) || holdsControl(el)) continue;
    if (el.querySelector('img[alt]:not([alt=""])')) continue;
    const hint = marked ?? iconHint(el);
    if (hint) add(el, { icon: hint });
  }

  // A fixed layer over much of the screen blocks clicks on everything under it.
  let overlay: Overlay | undefined;
  for (const [fx, fy] of [[0.5, 0.5], [0.5, 0.85], [0.25, 0.3], [0.75, 0.7]]) {
    let el: Element | null = document.elementFromPoint(innerWidth * fx!, innerHeight * fy!);
    let fixed: Element | undefined;
    for (; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
      const position = getComputedStyle(el).position;
      if (position === 'fixed' || position === 'sticky') fixed = el;
    }
    if (!fixed) continue;
    const r = fixed.getBoundingClientRect();
    const coverage = (Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)) * Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0))) / viewportArea;
    if (coverage < 0.3) continue;
    const controls = [...fixed.querySelectorAll('a[href], button, input, select, textarea, [role=button], [role=link], [role=checkbox]')]
      .slice(0, 50)
      .map(keyOf)
      .filter((k): k is string => !!k);
    overlay = { coverage, text: ((fixed as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 100), controls };
    break;
  }

  const root = document.scrollingElement ?? document.documentElement;
  return {
    fields: [...facts.entries()],
    overlay,
    marked: markers.length,
    title: document.title,
    documentId: performance.timeOrigin,
    metrics: {
      scrollX: Math.round(window.scrollX),
      scrollY: Math.round(window.scrollY),
      scrollWidth: root ? root.scrollWidth : 0,
      scrollHeight: root ? root.scrollHeight : 0,
      viewportWidth: window.innerWidth,
      viewportHeight: window.innerHeight,
    } satisfies PageMetrics,
  };
}

export type PageFacts = ReturnType<typeof collectPageFacts>;

/** Where `collectPageFacts` found the elements it has facts on, and how it keyed their boxes. */
interface PlacedFacts {
  placed: Map<Element, string>;
  keyOf(el: Element): string | undefined;
}

/**
 * Runs in the page after the capture: takes out the comments and labels `collectPageFacts` added, and the
 * owner and ids of a regional capture (region.ts). Returns true when an element with facts is no longer where
 * the facts saw it (the layout moved between the facts and the capture: an image arrived, a font swapped),
 * so the capture's boxes may not match them.
 */
export function releaseElements(markersKey: string): boolean {
  const w = window as unknown as Record<symbol, unknown>;
  const placedSymbol = Symbol.for(`${markersKey}.placed`);
  const facts = w[placedSymbol] as PlacedFacts | undefined;
  delete w[placedSymbol];
  let moved = false;
  for (const [el, key] of facts?.placed ?? []) {
    if (facts!.keyOf(el) === key) continue;
    moved = true;
    break;
  }
  const symbol = Symbol.for(markersKey);
  for (const marker of (w[symbol] as Array<Comment | [Element, string]> | undefined) ?? []) {
    if (Array.isArray(marker)) marker[0].removeAttribute(marker[1]);
    else marker.remove();
  }
  delete w[symbol];
  const regionSymbol = Symbol.for(`${markersKey}.region`);
  const region = w[regionSymbol] as { owner: Element; renamed: Array<[Element, string | null]> } | undefined;
  if (region) {
    region.owner.remove();
    for (const [el, id] of region.renamed) {
      if (id === null) el.removeAttribute('id');
      else el.setAttribute('id', id);
    }
  }
  delete w[regionSymbol];
  return moved;
}
