/**
 * Did the page change while we looked? The load policy takes the snapshot while it waits out its quiet
 * window (session/loading.ts) and keeps it only when nothing moved meanwhile: no element added, removed or
 * altered by the page, no scroll, no resize. Our own marks during a capture (facts.ts, region.ts) are made
 * inside `ownChanges`, which the watch does not count.
 */
import type { Page } from 'playwright-core';
import { evaluateInPage } from '../inPage.js';

export const CHANGES_KEY = 'mastra-browser-toolset.changes';

interface Watch {
  changed: boolean;
  observer: MutationObserver;
  stop(): void;
  /** Runs `work` (our own marks) without counting its mutations; what the page did before it still counts. */
  own<T>(work: () => T): T;
}

/** Runs in the page: starts counting changes, replacing any earlier watch. */
function startWatch(key: string): void {
  const w = window as unknown as Record<symbol, Watch | undefined>;
  const symbol = Symbol.for(key);
  w[symbol]?.stop();
  const onMove = () => (watch.changed = true);
  const watch: Watch = {
    changed: false,
    observer: new MutationObserver(() => (watch.changed = true)),
    stop() {
      watch.observer.disconnect();
      removeEventListener('scroll', onMove, true);
      removeEventListener('resize', onMove, true);
      if (w[symbol] === watch) delete w[symbol];
    },
    own(work) {
      if (watch.observer.takeRecords().length) watch.changed = true;
      try {
        return work();
      } finally {
        watch.observer.takeRecords();
      }
    },
  };
  watch.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  addEventListener('scroll', onMove, { capture: true, passive: true });
  addEventListener('resize', onMove, { capture: true, passive: true });
  w[symbol] = watch;
}

/** Runs in the page: whether anything changed since `startWatch`; stops the watch. */
function endWatch(key: string): boolean {
  const watch = (window as unknown as Record<symbol, Watch | undefined>)[Symbol.for(key)];
  if (!watch) return true;
  const changed = watch.changed || watch.observer.takeRecords().length > 0;
  watch.stop();
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

export async function watchChanges(page: Page): Promise<boolean> {
  return evaluateInPage(page, startWatch, CHANGES_KEY).then(
    () => true,
    () => false,
  );
}

/** True when the page changed since `watchChanges`, or cannot say (a new document, a page that does not answer). */
export async function changedSinceWatch(page: Page): Promise<boolean> {
  return evaluateInPage(page, endWatch, CHANGES_KEY).catch(() => true);
}
