/**
 * Capture: Playwright's ai-mode aria snapshot plus the few facts it does not carry
 * (scroll position, and which fields are password, required or read-only).
 */
import type { Frame, Page } from 'playwright-core';

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
  password: boolean;
  required: boolean;
  readonly: boolean;
  /** Not a control, but reacts to the mouse: an onclick handler, a tabindex, or draggable. */
  clickable?: 'click' | 'drag';
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
  /** Identifies the document: a new value means a navigation replaced the page and its refs. */
  documentId: number;
}

export function boxKey(box: Box): string {
  return `${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)},${Math.round(box.height)}`;
}

/** Runs in the page. Kept free of closures so Playwright can serialise it. */
function collectPageFacts() {
  const fields: Array<[string, { password: boolean; required: boolean; readonly: boolean; clickable?: 'click' | 'drag' }]> = [];
  for (const el of document.querySelectorAll('input, textarea, select, [contenteditable], [aria-required], [aria-readonly]')) {
    const password = el instanceof HTMLInputElement && el.type === 'password';
    const required = (el as HTMLInputElement).required === true || el.getAttribute('aria-required') === 'true';
    const readonly = (el as HTMLInputElement).readOnly === true || el.getAttribute('aria-readonly') === 'true';
    if (!password && !required && !readonly) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    fields.push([`${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}`, { password, required, readonly }]);
  }
  const CONTROL_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY', 'OPTION', 'LABEL']);
  for (const el of document.querySelectorAll('[onclick], [tabindex]:not([tabindex="-1"]), [draggable="true"]')) {
    if (CONTROL_TAGS.has(el.tagName) || el === document.body) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const key = `${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}`;
    if (fields.some(([k]) => k === key)) continue;
    fields.push([key, { password: false, required: false, readonly: false, clickable: el.getAttribute('draggable') === 'true' ? 'drag' : 'click' }]);
  }
  const root = document.scrollingElement ?? document.documentElement;
  return {
    fields,
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

async function frameFields(frame: Frame): Promise<PageFacts['fields']> {
  try {
    return (await frame.evaluate(collectPageFacts)).fields;
  } catch {
    return []; // a frame that navigated or detached mid-capture has nothing to add
  }
}

function hasIframe(nodes: Array<AriaNode | string>): boolean {
  return nodes.some((n) => typeof n !== 'string' && (n.role === 'iframe' || hasIframe(n.children ?? [])));
}

/** A snapshot taken while the page navigates loses its execution context; wait for the new document and retry. */
export async function capturePage(page: Page): Promise<Capture> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await captureOnce(page);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 2 || !/Execution context was destroyed|Cannot find context|navigat/i.test(message)) throw error;
      await page.waitForLoadState('domcontentloaded', { timeout: 5_000 }).catch(() => {});
    }
  }
}

async function captureOnce(page: Page): Promise<Capture> {
  const [tree, facts, title] = await Promise.all([
    page.ariaSnapshotJSON({ mode: 'ai', boxes: true }) as Promise<unknown>,
    page.evaluate(collectPageFacts),
    page.title().catch(() => ''),
  ]);
  const nodes = (Array.isArray(tree) ? tree : [tree]) as AriaNode[];
  const fields = new Map(facts.fields);
  if (hasIframe(nodes)) {
    // Boxes inside an iframe are relative to that frame, so its fields are matched in its own coordinates.
    const childFrames = page.frames().filter((f) => f !== page.mainFrame());
    for (const entries of await Promise.all(childFrames.map(frameFields))) {
      for (const [key, value] of entries) if (!fields.has(key)) fields.set(key, value);
    }
  }
  return { url: page.url(), title, tree: nodes, metrics: facts.metrics, fields, documentId: facts.documentId };
}

/** Cheap check used before acting on a ref: has a navigation replaced the document? */
export async function currentDocumentId(page: Page): Promise<number | undefined> {
  try {
    return await page.evaluate(() => performance.timeOrigin);
  } catch {
    return undefined; // mid-navigation: treat as changed
  }
}
