/**
 * Reading a session's cookies and each origin's storage for a save, at a cost that does not grow with every site
 * the conversation ever visited. Playwright's `storageState` reads the origins open in a tab in place, but loads
 * every other origin the context ever saw in a hidden page, one after the other. An origin's storage changes
 * only while something of that origin runs in the context (a document in a tab or a frame, a service worker), so
 * an origin that has not run since the last read still holds what that read found. When every origin that ran
 * since then is a tab's own page, and none of those uses IndexedDB, a read takes the cookies and those tabs'
 * localStorage and keeps the rest from the last read; any other time it is Playwright's whole read.
 */
import type { BrowserContext, Frame, Page } from 'playwright-core';
import type { StorageState } from '../store/types.js';

type Origins = StorageState['origins'];

/** Run in a tab's page: its origin (it may have moved on), its localStorage, and whether it has IndexedDB databases (only the whole read reads those). */
const READ_PAGE = async () => ({
  origin: location.origin,
  localStorage: Object.keys(localStorage).map((name) => ({ name, value: localStorage.getItem(name) ?? '' })),
  databases: typeof indexedDB.databases === 'function' ? (await indexedDB.databases()).length : 1,
});

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

export class StorageReader {
  /** What the last read found; undefined until one has (or the context started from a state given whole). */
  private last: StorageState | undefined;
  /** Origins that ran something since the last read began (more is safe: it only sends a read the whole way). */
  private ran = new Set<string>();

  constructor(
    private readonly context: BrowserContext,
    initial: StorageState | undefined,
  ) {
    this.last = initial;
    const note = (url: string) => {
      const origin = originOf(url);
      if (origin) this.ran.add(origin);
    };
    const watch = (page: Page) => page.on('framenavigated', (frame: Frame) => note(frame.url()));
    context.pages().forEach(watch);
    context.on('page', watch);
    context.on('serviceworker', (worker) => note(worker.url()));
  }

  async read(): Promise<StorageState> {
    const pages = this.context.pages();
    const running = new Set<string>();
    for (const url of [...pages.flatMap((page) => page.frames().map((frame) => frame.url())), ...this.context.serviceWorkers().map((w) => w.url())]) {
      const origin = originOf(url);
      if (origin) running.add(origin);
    }
    const ran = new Set([...this.ran, ...running]);
    this.ran = running;
    try {
      const state = (await this.readOpen(pages, ran)) ?? (await this.context.storageState({ indexedDB: true }));
      this.last = state;
      return state;
    } catch (error) {
      // Nothing was learnt: the next read must still look at every origin that ran.
      for (const origin of ran) this.ran.add(origin);
      throw error;
    }
  }

  /** The read that looks only at the tabs' own pages, or undefined when it cannot stand for the whole one. */
  private async readOpen(pages: Page[], ran: Set<string>): Promise<StorageState | undefined> {
    if (!this.last) return undefined;
    const tabs = new Map<string, Page>();
    for (const page of pages) {
      const origin = originOf(page.url());
      if (origin && !tabs.has(origin)) tabs.set(origin, page);
    }
    if ([...ran].some((origin) => !tabs.has(origin))) return undefined;
    let read: Array<{ expected: string; origin: string; localStorage: Array<{ name: string; value: string }>; databases: number }>;
    try {
      read = await Promise.all([...tabs].map(async ([expected, page]) => ({ expected, ...(await page.evaluate(READ_PAGE)) })));
    } catch {
      // A page mid-navigation, or one whose storage cannot be read from its page (a sandboxed document).
      return undefined;
    }
    if (read.some((r) => r.databases > 0 || r.origin !== r.expected)) return undefined;
    const kept: Origins = this.last.origins.filter((o) => !tabs.has(o.origin));
    const fresh: Origins = read.filter((r) => r.localStorage.length).map(({ origin, localStorage }) => ({ origin, localStorage }));
    return { cookies: await this.context.cookies(), origins: [...kept, ...fresh] };
  }
}
