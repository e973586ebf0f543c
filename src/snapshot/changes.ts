/**
 * Did the page change while we looked? The load policy takes the snapshot while it waits out its quiet
 * window (loading/settle.ts) and keeps it only when nothing moved meanwhile: no element added, removed or
 * altered by the page (in the document, inside a shadow root a script attached, or in a frame of the page's
 * own origin: an about:blank frame the page builds a widget in makes no request that would tell of it), no
 * scroll, no resize, no field given another value or state by script, no other element focused, no click or
 * key handler attached, no shadow root attached (listeners.ts). Those last four are not DOM mutations, and each
 * would make the snapshot tell the model something false. Our own marks during a capture
 * (facts.ts, region.ts) are made inside `ownChanges`, which the watch does not count; nor does it count the page
 * adding or removing elements that show nothing (`changesShown`: a script, a preload hint), which leave every
 * snapshot as it was.
 */
import type { Page } from 'playwright-core';
import { evaluateInPage } from '../inPage.js';
import { LISTENERS_KEY, type ListenerRecord } from './listeners.js';

export const CHANGES_KEY = 'mastra-browser-toolset.changes';

interface Watch {
  changed: boolean;
  /** The state a MutationObserver cannot see, as it was when the watch began. */
  fields: string[];
  active: Element | null;
  listeners: number;
  shadowRoots: number;
  observer: MutationObserver;
  /** Counts these records of the page's as a change, unless every one of them only touches elements that show nothing. */
  note(records: MutationRecord[]): void;
  stop(): void;
  /** Runs `work` (our own marks) without counting its mutations; what the page did before it still counts. */
  own<T>(work: () => T): T;
}

interface WatchKeys {
  changes: string;
  listeners: string;
}

/** The in-page functions the watch calls, passed in by name (inPage.ts). */
type WatchHelpers = {
  fieldStates: typeof fieldStates;
  changesShown: typeof changesShown;
  listenerRecord: typeof listenerRecord;
  readableFrameDocuments: typeof readableFrameDocuments;
};

/** Runs in the page: what a field holds now (value, checked, selected), for every field of the document. */
function fieldStates(): string[] {
  const states: string[] = [];
  for (const field of document.querySelectorAll('input, textarea, select')) {
    const f = field as HTMLInputElement;
    states.push(f.type === 'checkbox' || f.type === 'radio' ? String(f.checked) : f.value);
  }
  return states;
}

/**
 * Runs in the page: whether any of these mutation records changes what a snapshot shows. Not when all it does
 * is add, remove or alter elements that render nothing and hold nothing the snapshot reads: a script (tag
 * managers insert them by the dozen as a page loads; what a script then does is seen on its own), a `<link>`
 * that is not a style sheet (preload, prefetch, preconnect), `<noscript>`, `<template>`, a comment. A style
 * sheet, `<style>` or a link that becomes one counts: it restyles the page.
 */
function changesShown(records: MutationRecord[]): boolean {
  const showsNothing = (node: Node | null): boolean => {
    if (!node) return false;
    if (node.nodeType === Node.COMMENT_NODE) return true;
    if (node.nodeType === Node.TEXT_NODE) return node.parentNode?.nodeName === 'SCRIPT';
    if (node.nodeType !== Node.ELEMENT_NODE) return false;
    const element = node as Element;
    const name = element.localName;
    if (name === 'script' || name === 'noscript' || name === 'template') return true;
    return name === 'link' && !/\bstylesheet\b/i.test(element.getAttribute('rel') ?? '');
  };
  return records.some((record) => {
    if (showsNothing(record.target)) return false;
    if (record.type !== 'childList') return true;
    return [...record.addedNodes, ...record.removedNodes].some((node) => !showsNothing(node));
  });
}

/**
 * Runs in the page: the documents of the frames in `root` that the page may read (its own origin, or one it
 * wrote), nested ones too. The change watch observes them; blankFrames.ts looks for empty frames in them.
 */
export function readableFrameDocuments(root: Document): Document[] {
  const found: Document[] = [];
  for (const element of root.querySelectorAll('iframe, frame')) {
    let inner: Document | null = null;
    try {
      inner = (element as HTMLIFrameElement).contentDocument;
    } catch {
      // another origin's frame: its requests tell of its changes (traffic.ts)
    }
    if (inner) found.push(inner, ...readableFrameDocuments(inner));
  }
  return found;
}

/**
 * Runs in the page: the init script's record of handlers and shadow roots (listeners.ts); undefined in a
 * document it did not reach.
 */
function listenerRecord(listenersKey: string): ListenerRecord | undefined {
  return (window as unknown as Record<symbol, ListenerRecord | undefined>)[Symbol.for(listenersKey)];
}

/** Runs in the page: starts counting changes, replacing any earlier watch. */
function startWatch(keys: WatchKeys, helpers: WatchHelpers): void {
  const w = window as unknown as Record<symbol, Watch | undefined>;
  const symbol = Symbol.for(keys.changes);
  w[symbol]?.stop();
  const onMove = () => (watch.changed = true);
  const record = helpers.listenerRecord(keys.listeners);
  const watch: Watch = {
    changed: false,
    fields: helpers.fieldStates(),
    active: document.activeElement,
    listeners: record?.added ?? 0,
    shadowRoots: record?.shadowRootsAttached ?? 0,
    observer: new MutationObserver((records) => watch.note(records)),
    note(records) {
      if (!watch.changed && helpers.changesShown(records)) watch.changed = true;
    },
    stop() {
      watch.observer.disconnect();
      removeEventListener('scroll', onMove, true);
      removeEventListener('resize', onMove, true);
      if (w[symbol] === watch) delete w[symbol];
    },
    own(work) {
      watch.note(watch.observer.takeRecords());
      try {
        return work();
      } finally {
        watch.observer.takeRecords();
      }
    },
  };
  const options = { subtree: true, childList: true, attributes: true, characterData: true };
  watch.observer.observe(document, options);
  for (const root of record?.shadowRoots() ?? []) watch.observer.observe(root, options);
  for (const frameDocument of helpers.readableFrameDocuments(document)) watch.observer.observe(frameDocument, options);
  addEventListener('scroll', onMove, { capture: true, passive: true });
  addEventListener('resize', onMove, { capture: true, passive: true });
  w[symbol] = watch;
}

/** Runs in the page: whether anything changed since `startWatch`; stops the watch when `end` is set. */
function readWatch({ keys, end }: { keys: WatchKeys; end: boolean }, helpers: WatchHelpers): boolean {
  const watch = (window as unknown as Record<symbol, Watch | undefined>)[Symbol.for(keys.changes)];
  if (!watch) return true;
  watch.note(watch.observer.takeRecords());
  const fields = helpers.fieldStates();
  const record = helpers.listenerRecord(keys.listeners);
  const changed =
    watch.changed ||
    document.activeElement !== watch.active ||
    (record?.added ?? 0) !== watch.listeners ||
    (record?.shadowRootsAttached ?? 0) !== watch.shadowRoots ||
    fields.length !== watch.fields.length ||
    fields.some((state, i) => state !== watch.fields[i]);
  if (end) watch.stop();
  return changed;
}

/**
 * Runs in the page, from our own capture scripts: `work` without its mutations counted as the page's.
 * Self-contained (it is passed into the page by source text), so the key is a parameter.
 */
export function ownChanges<T>(key: string, work: () => T): T {
  const watch = (window as unknown as Record<symbol, Watch | undefined>)[Symbol.for(key)];
  return watch ? watch.own(work) : work();
}

const KEYS: WatchKeys = { changes: CHANGES_KEY, listeners: LISTENERS_KEY };
const HELPERS: WatchHelpers = { fieldStates, changesShown, listenerRecord, readableFrameDocuments };

export async function watchChanges(page: Page): Promise<boolean> {
  return evaluateInPage(page, startWatch, KEYS, HELPERS).then(
    () => true,
    () => false,
  );
}

/**
 * True when the page changed since `watchChanges`, or cannot say (a new document, a page that does not answer).
 * Ends the watch unless `keepWatching`.
 */
export async function changedSinceWatch(page: Page, keepWatching = false): Promise<boolean> {
  return evaluateInPage(page, readWatch, { keys: KEYS, end: !keepWatching }, HELPERS).catch(() => true);
}
