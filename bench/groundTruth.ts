/**
 * Ground truth for recall: the interactive elements a person could see on the page, read from the DOM
 * independently of any accessibility tree, each with an approximation of its accessible name.
 */
import type { Locator, Page } from 'playwright-core';

export interface TruthElement {
  /** Approximate accessible name, whitespace collapsed, at most 40 characters; empty when none was found. */
  label: string;
  tag: string;
  role: string;
  inViewport: boolean;
  /** Where the element lives when not in the main document's light DOM. */
  where: 'document' | 'iframe' | 'shadow';
  /** Inside aria-hidden="true": visible to a person, absent from accessibility trees by design. */
  ariaHidden: boolean;
  /** Only when collected in the page a system snapshotted: some ref of its text resolves to this very element. */
  found?: boolean;
  /** A short description for reports: the tag, its id or first class. */
  describe?: string;
}

/**
 * Runs in the page. Everything it needs is declared inside, so it survives serialisation.
 * Visible means: a non-empty box, and neither it nor an ancestor is display:none, visibility:hidden
 * or opacity:0 (checkVisibility covers the ancestors).
 */
function collectInteractiveElements(foundMark: string): TruthElement[] {
  const INTERACTIVE = [
    'a[href]', 'button', 'input:not([type=hidden])', 'select', 'textarea', 'summary',
    ...['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'switch', 'combobox', 'textbox', 'option'].map((r) => `[role=${r}]`),
    '[contenteditable]:not([contenteditable=false])', '[onclick]',
  ].join(',');
  const viewportWidth = window.innerWidth;
  const viewportHeight = window.innerHeight;
  const out: TruthElement[] = [];

  // Icon fonts draw glyphs from the private use area; they are not words anyone would name a control by.
  const clean = (text: string | null | undefined) => (text ?? '').replace(/[\ue000-\uf8ff]/g, '').replace(/\s+/g, ' ').trim();

  /**
   * Name from content, as accessible names are computed: visible text, image alt text and descendants'
   * aria-label, leaving out aria-hidden parts. innerText alone would drop alt text and keep hidden icons.
   */
  const contentName = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    if (!(node instanceof Element)) return '';
    if (node.getAttribute('aria-hidden') === 'true' || !node.checkVisibility({ visibilityProperty: true })) return '';
    const label = node.getAttribute('aria-label');
    if (label) return ` ${label} `;
    if (node instanceof HTMLImageElement) return ` ${node.alt} `;
    const inner = [...node.childNodes].map(contentName).join('');
    // Blocks and line breaks separate words even where the markup has no space.
    const display = getComputedStyle(node).display;
    return node instanceof HTMLBRElement || !display.startsWith('inline') ? ` ${inner} ` : inner;
  };

  const isInteractive = (el: Element) => {
    if (el.matches(INTERACTIVE)) return true;
    const tabindex = el.getAttribute('tabindex');
    return tabindex !== null && Number.parseInt(tabindex, 10) >= 0;
  };

  const isVisible = (el: Element) => {
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return false;
    return el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  };

  const textOf = (ids: string, root: Document | ShadowRoot) =>
    clean(ids.split(/\s+/).map((id) => root.getElementById(id)?.textContent ?? '').join(' '));

  const labelOf = (el: Element): string => {
    const root = el.getRootNode() as Document | ShadowRoot;
    const labelledBy = el.getAttribute('aria-labelledby');
    const candidates: Array<() => string> = [
      () => (labelledBy && 'getElementById' in root ? textOf(labelledBy, root) : ''),
      () => clean(el.getAttribute('aria-label')),
      () => {
        if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement)) return '';
        return clean([...(el.labels ?? [])].map((l) => (l as HTMLElement).innerText).join(' '));
      },
      () => {
        if (!(el instanceof HTMLInputElement)) return '';
        if (el.type === 'image') return clean(el.alt);
        if (['button', 'submit', 'reset'].includes(el.type)) return clean(el.value) || (el.type === 'reset' ? 'Reset' : el.type === 'submit' ? 'Submit' : '');
        return '';
      },
      // Fields are named by their label, not their content; a select's content is every option.
      () => (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement ? '' : clean([...el.childNodes].map(contentName).join(''))),
      () => clean(el.getAttribute('title')),
      () => clean(el.getAttribute('placeholder')),
      () => clean(el.getAttribute('alt')),
    ];
    for (const candidate of candidates) {
      const label = candidate();
      if (label) return label.slice(0, 40);
    }
    return '';
  };

  const walk = (root: Document | ShadowRoot, offsetX: number, offsetY: number, where: TruthElement['where']) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot, offsetX, offsetY, 'shadow');
      if (el instanceof HTMLIFrameElement && isVisible(el)) {
        let doc: Document | null = null;
        try {
          doc = el.contentDocument;
        } catch {
          doc = null; // cross-origin: not practical to inspect
        }
        const box = el.getBoundingClientRect();
        if (doc) walk(doc, offsetX + box.x + el.clientLeft, offsetY + box.y + el.clientTop, 'iframe');
      }
      if (!isInteractive(el) || !isVisible(el)) continue;
      const rect = el.getBoundingClientRect();
      const left = rect.left + offsetX;
      const top = rect.top + offsetY;
      const element: TruthElement = {
        label: labelOf(el),
        tag: el.tagName.toLowerCase(),
        role: el.getAttribute('role') ?? '',
        inViewport: left + rect.width > 0 && left < viewportWidth && top + rect.height > 0 && top < viewportHeight,
        where,
        ariaHidden: el.closest('[aria-hidden=true]') !== null,
      };
      if (foundMark) {
        element.found = (el as unknown as Record<string, unknown>)[foundMark] === true;
        element.describe = `${element.tag}${el.id ? `#${el.id}` : el.classList[0] ? `.${el.classList[0]}` : ''}`;
      }
      out.push(element);
    }
  };

  walk(document, 0, 0, 'document');
  return out;
}

/**
 * Evaluated as source text: tsx keeps function names by wrapping them in a `__name` helper that does
 * not exist in the page, so the page gets a stand-in.
 */
export async function groundTruth(page: Page, foundMark = ''): Promise<TruthElement[]> {
  return page.evaluate(`(() => { const __name = (fn) => fn; return (${collectInteractiveElements.toString()})(${JSON.stringify(foundMark)}); })()`);
}

/** Set on the elements that refs resolve to (a property in the page's main world, never an attribute). */
const FOUND_MARK = '__benchFoundByRef';
const REF = /(?<![\w-])((?:f\d+)?e\d+)(?![\w-])/g;

/** Every ref-shaped word of a snapshot text. */
export function refsIn(text: string): string[] {
  return [...new Set([...text.matchAll(REF)].map((m) => m[1]!))];
}

/**
 * Element-level recall: resolves every ref of the text as the tools do (`locate`), marks the
 * elements they resolve to, then collects the ground truth in that same page. A ground-truth element counts
 * as found only when some ref resolves to that very element, not to a parent or a child, and not by name.
 *
 * Refs resolve only in the world where Playwright took the snapshot: `evaluate` and `dispatchEvent` on a ref
 * locator look the ref up in the page's main world and find nothing, while `elementHandle` resolves it as a
 * click does, and the handle can then set a property the main world sees.
 */
export async function groundTruthByRef(page: Page, text: string, locate: (ref: string) => Promise<Locator | undefined>): Promise<TruthElement[]> {
  // A few at a time, and without waiting for an element that is not there (elementHandles does not wait): a
  // whole-page listing holds thousands of refs, and one by one they ran past the page's time on a busy machine.
  const refs = [...refsIn(text)];
  for (let i = 0; i < refs.length; i += 10) {
    await Promise.all(
      refs.slice(i, i + 10).map(async (ref) => {
        const locator = await locate(ref).catch(() => undefined);
        const handles = locator ? await locator.elementHandles().catch(() => []) : [];
        for (const handle of handles) {
          if (handles.length === 1) await handle.evaluate((el, key) => ((el as unknown as Record<string, unknown>)[key] = true), FOUND_MARK).catch(() => {});
          await handle.dispose().catch(() => {});
        }
      }),
    );
  }
  return groundTruth(page, FOUND_MARK);
}

/** How labels and snapshot text are compared: lowercase, whitespace collapsed, the first 25 characters. */
export function normalizeLabel(label: string): string {
  return label.replace(INVISIBLE, '').toLowerCase().replace(/\s+/g, ' ').trim().slice(0, 25).trim();
}

/**
 * Zero-width spaces and joiners, and icon-font glyphs (private use area): not words, not whitespace to
 * `\s`, and kept or dropped differently by each system.
 */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\ue000-\uf8ff]/g;

/**
 * Snapshot text as a single searchable string. Names are quoted as JSON (ours) or YAML (Playwright), so
 * escaped quotes and backslashes are undone first.
 */
export function searchableText(text: string): string {
  return text.replace(INVISIBLE, '').replace(/\\(["\\])/g, '$1').toLowerCase().replace(/\s+/g, ' ');
}

export interface RecallResult {
  /** Ground-truth elements with a label. */
  total: number;
  found: number;
  /** found / total, or null when there is nothing to find. */
  recall: number | null;
  missing: string[];
}

/** Recall by identity: every ground-truth element, labelled or not, found when a ref resolved to it. */
export function recallByRef(elements: TruthElement[]): RecallResult {
  const missing = elements.filter((e) => !e.found).map((e) => (e.label ? `${e.describe} ${JSON.stringify(e.label)}` : `${e.describe} (no label)`));
  const found = elements.length - missing.length;
  return { total: elements.length, found, recall: elements.length ? found / elements.length : null, missing };
}

export function recall(elements: TruthElement[], haystack: string): RecallResult {
  const labelled = elements.filter((e) => normalizeLabel(e.label));
  const missing: string[] = [];
  for (const element of labelled) if (!haystack.includes(normalizeLabel(element.label))) missing.push(element.label);
  const found = labelled.length - missing.length;
  return { total: labelled.length, found, recall: labelled.length ? found / labelled.length : null, missing };
}
