/**
 * Capture: Playwright's ai-mode aria snapshot plus the few facts it does not carry
 * (scroll position, and which fields are password, required or read-only).
 */
import type { Frame, Page } from 'playwright-core';
import { evaluateInPage } from '../inPage.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One node of `page.ariaSnapshotJSON({ mode: 'ai', boxes: true })`. Strings are text runs. */
export interface AriaNode {
  role: string;
  name?: string;
  ref?: string;
  box?: Box;
  children?: Array<AriaNode | string>;
  /** Text content, or the current value of a text field. */
  text?: string;
  url?: string;
  level?: number;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  expanded?: boolean;
  selected?: boolean;
  pressed?: boolean | 'mixed';
  /** The focused element. */
  active?: boolean;
  cursor?: string;
}

/** Facts about elements that the aria snapshot leaves out, keyed by the element's box. */
export interface FieldFacts {
  password?: boolean;
  /** Matches one of the configured secret-field selectors: its value is never shown. */
  secret?: boolean;
  required?: boolean;
  readonly?: boolean;
  /** Not a control, but reacts to the mouse: an onclick handler, a tabindex, or draggable. */
  clickable?: 'click' | 'drag';
  /** For a control with no accessible name: what its icon, title or id suggests ("trash", "more"). */
  icon?: string;
  /** aria-expanded, or for a `<summary>` whether its `<details>` is open. */
  expanded?: boolean;
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

export interface Capture {
  url: string;
  title: string;
  tree: AriaNode[];
  metrics: PageMetrics;
  fields: Map<string, FieldFacts>;
  overlay?: Overlay;
  /** Identifies the document: a new value means a navigation replaced the page and its refs. */
  documentId: number;
}

const CAPTURE_TIMEOUT_MS = 60_000;

export function boxKey(box: Box): string {
  return `${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)},${Math.round(box.height)}`;
}

/** Runs in the page. Kept free of closures so Playwright can serialise it. */
function collectPageFacts(secretSelector: string) {
  type Facts = { password?: boolean; secret?: boolean; required?: boolean; readonly?: boolean; clickable?: 'click' | 'drag'; icon?: string; expanded?: boolean };
  const facts = new Map<string, Facts>();
  const keyOf = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return undefined;
    return `${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}`;
  };
  const add = (el: Element, fact: Facts) => {
    const key = keyOf(el);
    if (key) facts.set(key, { ...facts.get(key), ...fact });
  };

  for (const el of document.querySelectorAll('input, textarea, select, [contenteditable], [aria-required], [aria-readonly]')) {
    const password = el instanceof HTMLInputElement && el.type === 'password';
    const required = (el as HTMLInputElement).required === true || el.getAttribute('aria-required') === 'true';
    const readonly = (el as HTMLInputElement).readOnly === true || el.getAttribute('aria-readonly') === 'true';
    if (password || required || readonly) add(el, { password, required, readonly });
  }

  if (secretSelector) {
    try {
      for (const el of document.querySelectorAll(secretSelector)) add(el, { secret: true });
    } catch {
      // an invalid selector in the config must not break the snapshot; it masks nothing
    }
  }
  // Playwright reports aria-expanded only when true; "collapsed" is what tells a closed folder or menu.
  for (const el of document.querySelectorAll('[aria-expanded]')) {
    add(el, { expanded: el.getAttribute('aria-expanded') === 'true' });
  }
  // <summary> has no ARIA role of its own, but it is the toggle of a disclosure.
  for (const el of document.querySelectorAll('details > summary')) {
    add(el, { clickable: 'click', expanded: (el.parentElement as HTMLDetailsElement).open });
  }
  const CONTROL_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY', 'OPTION', 'LABEL']);
  for (const el of document.querySelectorAll('[onclick], [tabindex]:not([tabindex="-1"]), [draggable="true"]')) {
    if (CONTROL_TAGS.has(el.tagName) || el === document.body) continue;
    add(el, { clickable: el.getAttribute('draggable') === 'true' ? 'drag' : 'click' });
  }

  // Icon-only controls: the accessible name is empty, so guess from the icon's class, symbol, test id or id.
  const ICON_CLASS = /^(?:fa|fas|far|fab|bi|icon|glyphicon|mdi|ti|ri|la|octicon|feather|lucide|ion|gg)-([a-z0-9-]+)$|^([a-z0-9-]+?)-icon$|^icon([A-Z][A-Za-z0-9]+)$/;
  const NOISE = /^(solid|regular|light|thin|duotone|brands|lg|sm|xs|xl|\dx|fw|spin|pulse|fixed|inverse|border|stack|flip.*|rotate.*|icon|icons|svg|small|large)$/;
  const clean = (text: string) => text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_#.]+/g, ' ').trim().toLowerCase().slice(0, 30);
  for (const el of document.querySelectorAll('a, button, [role=button], [role=link], [role=menuitem], [role=tab], [onclick]')) {
    if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title')) continue;
    if ((el.textContent ?? '').trim()) continue;
    if (el.querySelector('img[alt]:not([alt=""])')) continue;
    let hint = '';
    const named = el.querySelector('[title], [aria-label], svg title');
    if (named) hint = named.getAttribute('title') || named.getAttribute('aria-label') || named.textContent || '';
    if (!hint) {
      const use = el.querySelector('use');
      const href = use?.getAttribute('href') || use?.getAttribute('xlink:href') || '';
      if (href.includes('#')) hint = href.slice(href.lastIndexOf('#') + 1).replace(/^(icon|ico|i)[-_]/, '');
    }
    if (!hint) {
      for (const node of [el, ...el.querySelectorAll('*')].slice(0, 8)) {
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
    if (!hint) hint = el.getAttribute('data-testid') || el.getAttribute('data-icon') || el.getAttribute('name') || el.id || '';
    if (hint) add(el, { icon: clean(hint) });
  }

  // A fixed layer over much of the screen blocks clicks on everything under it.
  let overlay: { coverage: number; text: string; controls: string[] } | undefined;
  const area = innerWidth * innerHeight;
  for (const [fx, fy] of [[0.5, 0.5], [0.5, 0.85], [0.25, 0.3], [0.75, 0.7]]) {
    let el: Element | null = document.elementFromPoint(innerWidth * fx!, innerHeight * fy!);
    let fixed: Element | undefined;
    for (; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
      const position = getComputedStyle(el).position;
      if (position === 'fixed' || position === 'sticky') fixed = el;
    }
    if (!fixed) continue;
    const r = fixed.getBoundingClientRect();
    const coverage = (Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)) * Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0))) / area;
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
    title: document.title,
    documentId: performance.timeOrigin,
    metrics: {
      scrollX: Math.round(window.scrollX),
      scrollY: Math.round(window.scrollY),
      scrollWidth: root ? root.scrollWidth : 0,
      scrollHeight: root ? root.scrollHeight : 0,
      viewportWidth: window.innerWidth,
      viewportHeight: window.innerHeight,
    },
  };
}

type PageFacts = ReturnType<typeof collectPageFacts>;

async function frameFields(frame: Frame, secretSelector: string): Promise<PageFacts['fields']> {
  try {
    return (await evaluateInPage(frame, collectPageFacts, secretSelector)).fields;
  } catch {
    return []; // a frame that navigated or detached mid-capture has nothing to add
  }
}

/** Roles a person clicks or types into: what makes a frame worth inspecting, and what screenshots label. */
export const INTERACTIVE_ROLES = new Set(['button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'tab', 'menuitem', 'option', 'treeitem']);

function hasControl(nodes: Array<AriaNode | string>): boolean {
  return nodes.some((n) => typeof n !== 'string' && ((!!n.ref && (INTERACTIVE_ROLES.has(n.role) || n.cursor === 'pointer')) || hasControl(n.children ?? [])));
}

/**
 * Frames' facts cost a round trip per frame, and pages carry many ad and tracking frames with nothing to act
 * on; collect them only when some iframe in the snapshot holds a control.
 */
function hasIframeWithControls(nodes: Array<AriaNode | string>): boolean {
  return nodes.some((n) => typeof n !== 'string' && (n.role === 'iframe' ? hasControl(n.children ?? []) : hasIframeWithControls(n.children ?? [])));
}

/** A snapshot taken while the page navigates loses its execution context; wait for the new document and retry. */
export interface CaptureOptions {
  /** CSS selector of fields whose values must never be shown (besides password inputs). */
  secretSelector?: string;
}

export async function capturePage(page: Page, options: CaptureOptions = {}): Promise<Capture> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await captureOnce(page, options.secretSelector ?? '');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 2 || !/Execution context was destroyed|Cannot find context|navigat/i.test(message)) throw error;
      await page.waitForLoadState('domcontentloaded', { timeout: 5_000 }).catch(() => {});
    }
  }
}

async function captureOnce(page: Page, secretSelector: string): Promise<Capture> {
  const [tree, facts] = await Promise.all([
    // Huge pages take seconds; the action timeout would cut them off, a hung page must not block forever.
    page.ariaSnapshotJSON({ mode: 'ai', boxes: true, timeout: CAPTURE_TIMEOUT_MS }) as Promise<unknown>,
    evaluateInPage(page, collectPageFacts, secretSelector),
  ]);
  const nodes = (Array.isArray(tree) ? tree : [tree]) as AriaNode[];
  const fields = new Map(facts.fields);
  if (hasIframeWithControls(nodes)) {
    // Boxes inside an iframe are relative to that frame, so its fields are matched in its own coordinates.
    const childFrames = page.frames().filter((f) => f !== page.mainFrame());
    for (const entries of await Promise.all(childFrames.map((frame) => frameFields(frame, secretSelector)))) {
      for (const [key, value] of entries) if (!fields.has(key)) fields.set(key, value);
    }
  }
  return { url: page.url(), title: facts.title, tree: nodes, metrics: facts.metrics, fields, overlay: facts.overlay, documentId: facts.documentId };
}

/** Cheap check used before acting on a ref: has a navigation replaced the document? */
export async function currentDocumentId(page: Page): Promise<number | undefined> {
  try {
    return await page.evaluate(() => performance.timeOrigin);
  } catch {
    return undefined; // mid-navigation: treat as changed
  }
}
