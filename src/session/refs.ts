/**
 * RefManager: a tab's refs. Turns the ref a model sends ("e12", "@e12", "12") into a live element, or explains
 * why it cannot. Refs are Playwright's ai-mode refs, stable per element within one document, numbered for the
 * model so that a page never reuses a ref of the tab's last pages (refNumbers.ts). One per tab, kept by its `Tab` (tab.ts)
 * with the tab's latest capture.
 */
import type { Locator, Page } from 'playwright-core';
import { BrowserToolError } from '../errors.js';
import { isHiddenRef, lingeringRef } from '../browser/hiddenRefs.js';
import {
  bandMargin,
  bandSpan,
  capturePage,
  currentDocumentId,
  formatSnapshot,
  indexRefs,
  type AriaNode,
  type Capture,
  type CaptureOptions,
  type CaptureScope,
  type FormatOptions,
  type FormattedSnapshot,
} from '../snapshot/index.js';
import { stageSync } from '../stages.js';
import { isMainFrameRef, mainPrefixOf, Numbering, NUMBERS_KEPT_FOR, numbersOf, renumber } from './refNumbers.js';

interface RefInfo {
  role: string;
  name: string;
}

interface DocumentRefs {
  documentId: number;
  url: string;
  /** Every ref seen in this document, with the role and name it had and the snapshots it was in. */
  known: Map<string, RefInfo & { firstSeen: number; lastSeen: number }>;
  /** Snapshots taken of this document so far. */
  generation: number;
  /** Refs present in the most recent snapshot (the ones Playwright can resolve). */
  current: Map<string, RefInfo>;
  /** How this document's main-frame refs map to Playwright's; its prefix is known once a capture held one. */
  numbering: Numbering;
  /** The latest capture of this document, the "before" of the next action's diff. */
  capture: Capture;
  /**
   * Stretches of the document (page coordinates, px) some capture covered: an element first seen there is new,
   * one first seen elsewhere was only scrolled to. `whole` once a capture took the whole page.
   */
  seen: { whole: boolean; spans: Array<[number, number]> };
}

export interface TakenSnapshot {
  capture: Capture;
  formatted: FormattedSnapshot;
}

export interface ResolvedRef {
  ref: string;
  locator: Locator;
  role: string;
  name: string;
  /** Said in the tool result: an automatic snapshot, or a re-rendered element acted on under a new ref. */
  notices: string[];
}

const REF_PATTERN = /^@?(?:ref=)?((?:f\d+)?e\d+)$/;

/**
 * A viewport capture takes the subtrees reaching into the viewport plus an eighth of its height above and
 * below (format.ts keeps the same margin), and takes whole any partly visible subtree of at most this many
 * elements, so that lists, forms and tables near the edge keep their structure.
 */
const REGION_LIMIT = 600;

/**
 * A find or ref snapshot of a page of more elements than this captures only the matching parts or the element
 * (portion.ts); a smaller page is captured whole. A page-scope snapshot's own limit follows its budget.
 */
const WHOLE_PAGE_ELEMENTS = 5_000;

/** A find match is captured with its surroundings up to this many elements: its list item, label or table row. */
const MATCH_LIMIT = 50;

/** Refs of the capture the model has not been shown before, counting only those in stretches it has looked at. */
function newRefsOf(capture: Capture, doc: DocumentRefs): Set<string> {
  const fresh = new Set<string>();
  const { scrollY } = capture.metrics;
  const visit = (nodes: Array<AriaNode | string>) => {
    for (const node of nodes) {
      if (typeof node === 'string') continue;
      if (node.ref && !doc.known.has(node.ref)) {
        const top = node.box ? node.box.y + scrollY : undefined;
        if (doc.seen.whole || (top !== undefined && doc.seen.spans.some(([a, b]) => top >= a && top <= b))) fresh.add(node.ref);
      }
      if (node.children) visit(node.children);
    }
  };
  visit(capture.tree);
  return fresh;
}

/** Accepts `e12`, `@e12`, `ref=e12`, `12` and frame refs like `f1e3`; returns the canonical form. */
export function normalizeRef(input: string): string {
  const trimmed = String(input).trim();
  if (/^\d+$/.test(trimmed)) return `e${trimmed}`;
  const match = REF_PATTERN.exec(trimmed);
  if (!match) {
    throw new BrowserToolError('invalid_input', `"${truncateForMessage(trimmed)}" is not a ref. Refs look like e12 (as listed in the snapshot).`);
  }
  return match[1]!;
}

function truncateForMessage(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function sameElement(a: RefInfo | undefined, b: RefInfo): boolean {
  return !!a && a.role === b.role && a.name === b.name;
}

function describe(info: RefInfo): string {
  return info.name ? `${info.role} "${info.name}"` : info.role;
}

/** How many earlier documents per tab we remember refs of, to recognise refs from a page the tab has left. */
const RETIRED_DOCUMENTS = 20;

export class RefManager {
  /** The refs of the document the tab shows, with its latest capture. */
  private document: DocumentRefs | undefined;
  /** Refs handed out for the tab's earlier documents, newest last, with the URL they belonged to. */
  private readonly retired: Array<{ url: string; refs: Set<string> }> = [];
  /**
   * Refs the model holds from before its session was resumed in this process (the page was loaded again here,
   * where Playwright numbers its refs afresh), with the role and name each had: found again by them.
   */
  private carried: { url: string; refs: Map<string, RefInfo> } | undefined;
  /** The numbering of a document captured but not yet remembered (the page a load is settling on). */
  private upcoming: { documentId: number; numbering: Numbering } | undefined;
  /** The numbering each capture's refs were written in. */
  private readonly numbered = new WeakMap<Capture, Numbering>();

  constructor(
    private readonly page: Page,
    private readonly defaults: () => Omit<FormatOptions, 'ref'>,
    private readonly captureOptions: CaptureOptions = {},
  ) {}

  /**
   * Captures the page, remembers its refs, and formats it. `taken` is a capture of the default snapshot made
   * a moment ago (`capture`, while a load settled) and still true to the page.
   */
  async snapshot(options: Partial<FormatOptions> = {}, taken?: Capture): Promise<TakenSnapshot> {
    const format = { ...this.defaults(), ...options };
    const capture = taken ?? (await this.capture(options));
    const newRefs = stageSync('snapshot: ref bookkeeping', () => this.remember(capture));
    const formatted = stageSync('snapshot: format', () => formatSnapshot(capture, { ...format, newRefs }));
    return { capture, formatted };
  }

  /** Captures what the snapshot with these options shows, without remembering or formatting it; refs as the model sees them. */
  async capture(options: Partial<FormatOptions> = {}): Promise<Capture> {
    const format = { ...this.defaults(), ...options };
    const capture = await capturePage(this.page, this.captureOptions, await this.captureScope(format));
    const numbering = this.numberingOf(capture);
    // The page carried over, loaded again here: an element rendered as it was keeps the ref the model holds.
    renumber(capture.tree, numbering, !this.document && this.carried?.url === capture.url ? this.carried.refs : undefined);
    this.numbered.set(capture, numbering);
    return capture;
  }

  /**
   * The numbering of the capture's document: the shown one's, or, for a document the model has not been shown yet,
   * a new one that leaves alone the numbers of the tab's latest documents (kept until that document is remembered,
   * so that its captures agree).
   */
  private numberingOf(capture: Capture): Numbering {
    const doc = this.document;
    let numbering: Numbering;
    if (doc?.documentId === capture.documentId) numbering = doc.numbering;
    else if (this.upcoming?.documentId === capture.documentId) numbering = this.upcoming.numbering;
    else {
      const taken = new Set([...(doc?.numbering.numbers() ?? []), ...numbersOf(this.carried?.refs.keys() ?? [])]);
      for (const earlier of this.retired.slice(-(NUMBERS_KEPT_FOR - 1))) for (const n of numbersOf(earlier.refs)) taken.add(n);
      numbering = new Numbering(taken);
      this.upcoming = { documentId: capture.documentId, numbering };
    }
    numbering.prefix ??= mainPrefixOf(capture.tree);
    return numbering;
  }

  /**
   * What a snapshot with these options captures. The default one shows one screen: only what reaches it, the
   * rest counted (region.ts). The others, on a large page, only what their budget or question can show (portion.ts).
   */
  private async captureScope(format: Omit<FormatOptions, 'newRefs'>): Promise<CaptureScope> {
    const { page } = this;
    if (format.ref) {
      const doc = this.document;
      const own = doc && isMainFrameRef(format.ref) ? doc.numbering.playwrightRef(format.ref) : undefined;
      if (!own) return {};
      const locator = page.getByRef(own);
      const found = (await locator.count().catch(() => 0)) === 1 ? locator : await lingeringRef(page, own);
      return found ? { element: { locator: found, elements: WHOLE_PAGE_ELEMENTS } } : {};
    }
    if (format.find) {
      // Each match takes a line or two of a few tokens at least.
      return { matches: { query: format.find.toLowerCase(), matches: Math.ceil(format.maxTokens / 8), elements: WHOLE_PAGE_ELEMENTS, limit: MATCH_LIMIT } };
    }
    // A line costs six tokens or more (a ref, a role, a name), and each control or heading brings a line or two of elements.
    if (format.scope === 'page') return { opening: { lines: Math.ceil(format.maxTokens / 6), elements: format.maxTokens * 2, limit: REGION_LIMIT } };
    return { region: { margin: bandMargin(page.viewportSize()?.height ?? 720), limit: REGION_LIMIT } };
  }

  /** Remembers the capture's refs for this tab's document; returns those the model is shown for the first time. */
  private remember(capture: Capture): Set<string> | undefined {
    const current = indexRefs(capture.tree);
    let doc = this.document;
    // Elements the model has not seen on this page before get a `new` marker (not on a page's first snapshot).
    const newRefs = doc && doc.documentId === capture.documentId ? newRefsOf(capture, doc) : undefined;
    if (!doc || doc.documentId !== capture.documentId) {
      if (doc) this.retire(doc);
      const numbering = this.numbered.get(capture) ?? this.numberingOf(capture);
      this.upcoming = undefined;
      doc = { documentId: capture.documentId, url: capture.url, known: new Map(), generation: 0, current, numbering, capture, seen: { whole: false, spans: [] } };
      this.document = doc;
    }
    doc.current = current;
    doc.url = capture.url;
    doc.capture = capture;
    const span = capture.region ? (capture.region.span ?? bandSpan(capture.metrics)) : undefined;
    if (!span) doc.seen.whole = true;
    else if (span[0] <= span[1]) doc.seen.spans.push(span);
    if (doc.seen.spans.length > 50) doc.seen.spans.splice(0, doc.seen.spans.length - 50);
    const generation = ++doc.generation;
    for (const [ref, info] of current) {
      const known = doc.known.get(ref);
      if (known) {
        known.role = info.role;
        known.name = info.name;
        known.lastSeen = generation;
      } else doc.known.set(ref, { ...info, firstSeen: generation, lastSeen: generation });
    }
    return newRefs;
  }

  private retire(doc: DocumentRefs): void {
    this.retired.push({ url: doc.url, refs: new Set(doc.known.keys()) });
    if (this.retired.length > RETIRED_DOCUMENTS) this.retired.shift();
  }

  /** The element a ref from before the session was resumed names now: the one element with its role and name. */
  private async findCarried(ref: string, wanted: RefInfo, action: string, notices: string[]): Promise<string> {
    const taken = await this.snapshot();
    const doc = this.document!;
    if (sameElement(doc.current.get(ref), wanted)) return ref;
    const matches = wanted.name ? [...doc.current].filter(([, info]) => info.role === wanted.role && info.name === wanted.name) : [];
    if (matches.length === 1) {
      const [now] = matches[0]!;
      if (now !== ref) notices.push(`${ref} is ${now} on this page since it was loaded again (${describe(wanted)}); use the refs of the latest result from now on.`);
      return now;
    }
    throw new BrowserToolError(
      'stale_ref',
      `${action}: ${ref} (${describe(wanted)}) is a ref of this page as it was before the browser was restored; the page was loaded again and ${matches.length ? `${matches.length} elements match it now` : 'no element matches it now'}.`,
      { snapshot: taken.formatted.text },
    );
  }

  /** The URL of the earlier document that handed out `ref`, if the current one never did. */
  private retiredOwner(ref: string): string | undefined {
    const list = this.retired;
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.refs.has(ref)) return list[i]!.url;
    return undefined;
  }

  /** The latest capture of the page, if it shows document `documentId`. */
  lastCapture(documentId: number | undefined): Capture | undefined {
    const doc = this.document;
    return doc && doc.documentId === documentId ? doc.capture : undefined;
  }

  /** The refs handed out for the tab's document, with their role and name: what a resumed session carries over. */
  handedOut(): { url: string; refs: Array<[ref: string, role: string, name: string]> } | undefined {
    const doc = this.document;
    return doc && { url: doc.url, refs: [...doc.known].map(([ref, info]) => [ref, info.role, info.name]) };
  }

  /** The tab shows again, loaded anew, the page at `url` whose refs were `refs` (`handedOut` in another process). */
  carry(carried: { url: string; refs: Array<[ref: string, role: string, name: string]> }): void {
    this.carried = { url: carried.url, refs: new Map(carried.refs.map(([ref, role, name]) => [ref, { role, name }])) };
  }

  /** The locator of a ref of the page shown, as the model reads it, without looking again; see `resolve` for acting on it. */
  locator(ref: string): Locator | undefined {
    return this.document && this.locate(this.document, normalizeRef(ref));
  }

  /** The locator Playwright resolves for a ref of document `doc`, in the model's form; undefined for a ref no element of it can have. */
  private locate(doc: DocumentRefs, ref: string): Locator | undefined {
    const own = doc.numbering.playwrightRef(ref);
    return own === undefined ? undefined : this.page.getByRef(own);
  }

  async resolve(rawRef: string, action: string): Promise<ResolvedRef> {
    const { page } = this;
    let ref = normalizeRef(rawRef);
    const notices: string[] = [];
    let doc = this.document;
    const carried = this.carried;
    if (carried && carried.url !== page.url()) this.carried = undefined; // the tab has moved on: the old refs name nothing here
    else if (carried?.refs.has(ref) && !sameElement(doc?.known.get(ref), carried.refs.get(ref)!)) {
      // The page loaded again may have numbered this element differently, or given its number to another.
      ref = await this.findCarried(ref, carried.refs.get(ref)!, action, notices);
      doc = this.document;
    }
    if (doc && !doc.known.has(ref)) {
      // A ref the tab handed out for a page it has since left: never map it onto the new page.
      const formerUrl = this.retiredOwner(ref);
      if (formerUrl !== undefined) {
        const taken = await this.snapshot();
        throw new BrowserToolError(
          'stale_ref',
          `${action}: ${ref} belongs to a page this tab has left (${formerUrl}); it now shows ${taken.capture.url}, where ${ref} does not exist.`,
          { snapshot: taken.formatted.text },
        );
      }
    }

    if (!doc) {
      const taken = await this.snapshot();
      notices.push('No snapshot had been taken of this page, so one was taken before acting.');
      doc = this.document!;
      if (!doc.current.has(ref)) {
        throw new BrowserToolError('element_not_found', `${action}: there is no ${ref} on this page.`, {
          hint: 'Use a ref from the snapshot included here.',
          snapshot: taken.formatted.text,
        });
      }
    } else if ((await currentDocumentId(page)) !== doc.documentId) {
      // A new document reuses ref numbers for different elements: never act on a ref from the old page.
      const oldUrl = doc.url;
      const taken = await this.snapshot();
      throw new BrowserToolError(
        'stale_ref',
        `${action}: ${ref} belongs to the page you saw before (${oldUrl}); the tab has since loaded ${taken.capture.url}, so none of the old refs are valid.`,
        { snapshot: taken.formatted.text },
      );
    }

    const info = doc.known.get(ref);
    if (!info) {
      const taken = await this.snapshot();
      if (!doc.current.has(ref)) {
        throw new BrowserToolError('element_not_found', `${action}: ${ref} is not a ref of this page.`, {
          hint: 'Use a ref exactly as listed in the snapshot included here.',
          snapshot: taken.formatted.text,
        });
      }
    }

    let locator = this.locate(doc, ref);
    if (locator && (await locator.count()) === 1) return { ref, locator, ...(doc.current.get(ref) ?? info!), notices };
    // Playwright resolves refs of its latest capture only, and a viewport capture covers one screen: a ref
    // from an earlier whole-page listing is found on the element that still carries it (hiddenRefs.ts).
    const own = doc.numbering.playwrightRef(ref);
    if (info && own && isMainFrameRef(ref)) {
      const carrier = await lingeringRef(page, own);
      if (carrier) return { ref, locator: carrier, role: info.role, name: info.name, notices };
    }

    // The element is gone from the last snapshot: it was re-rendered, removed or hidden. Look again.
    const wanted = { ...(info ?? { role: '', name: '', firstSeen: 0, lastSeen: 0 }) };
    const taken = await this.snapshot();
    doc = this.document!;
    const now = doc.current.get(ref);
    // Playwright gives an element a new ref when its role or name changes, so the same ref on another role or
    // name is another element: its frame has loaded a new document, which numbers its refs afresh.
    const renumbered = !!now && !!info && (now.role !== wanted.role || now.name !== wanted.name);
    if (now && !renumbered) {
      locator = this.locate(doc, ref);
      if (locator && (await locator.count()) === 1) return { ref, locator, ...now, notices };
    }
    // Only an element that appeared after the old one was last seen can be its re-rendered self: a same-named
    // button that was there alongside it (the next row's "Delete") is a different element.
    const twins = [...doc.current.entries()].filter(
      ([candidate, i]) => (doc!.known.get(candidate)?.firstSeen ?? 0) > wanted.lastSeen && i.role === wanted.role && i.name === wanted.name && wanted.name !== '',
    );
    if (twins.length === 1) {
      const [newRef] = twins[0]!;
      locator = this.locate(doc, newRef);
      if (locator && (await locator.count()) === 1) {
        notices.push(`${ref} was re-rendered by the page; acted on ${newRef}, the only ${describe(wanted)} now on the page. Use ${newRef} from now on.`);
        return { ref: newRef, locator, role: wanted.role, name: wanted.name, notices };
      }
    }
    const hidden = doc.numbering.playwrightRef(ref);
    if (twins.length === 0 && hidden && (await isHiddenRef(page, hidden))) {
      throw new BrowserToolError('element_not_visible', `${action}: ${ref} (${describe(wanted)}) is still on the page but hidden.`, {
        snapshot: taken.formatted.text,
      });
    }
    const reused = now && renumbered ? `: the frame it was in has loaded a new page, where ${ref} is ${describe(now)}` : '';
    throw new BrowserToolError(
      'stale_ref',
      `${action}: ${ref} (${describe(wanted)}) is no longer on the page${reused}${twins.length > 1 ? `, and ${twins.length} elements now match it` : ''}.`,
      { snapshot: taken.formatted.text },
    );
  }
}
