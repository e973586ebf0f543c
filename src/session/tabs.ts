/**
 * A session's tabs: which one is active (the tab the tools act on, and a live view shows), the `Tab` of each
 * page (its dialogs, downloads, requests: tab.ts), the tabs pages opened that no result has mentioned yet, and
 * the tabs on their way out. The session (session.ts) owns the context they live in.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { ResolvedConfig } from '../config.js';
import { BrowserToolError } from '../errors.js';
import { within } from '../within.js';
import { warmUpCaptures } from '../snapshot/warmUp.js';
import { closeQuickly, rendererAnswers, schemefulSiteOf, stopLoading, unholdFrames } from '../loading/index.js';
import type { Downloads } from '../files/downloads.js';
import { Tab } from './tab.js';

/** How long a tab may take to tell its title before the list calls it not responding (a hung page tells nothing). */
const TITLE_MS = 2_000;
/** The title a tab is listed with when its page does not answer. */
export const NOT_RESPONDING = '(not responding)';

/** The tab's title, or undefined when it does not answer within `ms`: a tab whose page hung answers no script. */
export async function titleWithin(page: Page, ms: number): Promise<string | undefined> {
  return within(page.title().catch(() => ''), ms);
}

export interface TabInfo {
  index: number;
  url: string;
  title: string;
  active: boolean;
}

/** What the tabs need from their session. */
export interface TabsHost {
  config: ResolvedConfig;
  /** The context, once open. */
  context(): BrowserContext | undefined;
  /** The context, opened when needed. */
  openContext(): Promise<BrowserContext>;
  /** This session's downloads, which every tab hands its own to. */
  downloads: Downloads;
  /** True while a call runs: warm-ups wait for a quiet moment (warmUp.ts). */
  busy(): boolean;
  /** A tab crashed: the next call says so. */
  lost(state: string): void;
}

/** Tabs are numbered from 0 in browser_tabs' list; anything else is a bad argument. */
function checkTabIndex(index: number, count: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new BrowserToolError('invalid_input', `There is no tab ${index}; tabs are numbered 0 to ${count - 1}.`, {
      hint: 'Call browser_tabs with action "list" to see the open tabs.',
    });
  }
}

export class Tabs {
  private active: Page | undefined;
  private readonly kept = new WeakMap<Page, Tab>();
  /** Tabs pages opened (target=_blank, window.open) that no tool result has mentioned yet. */
  private unreportedPopups: Page[] = [];
  /** Tabs being closed: a hung one can take seconds to go, and must never be picked as active meanwhile. */
  private readonly closing = new WeakSet<Page>();
  private readonly activeListeners = new Set<(page: Page | undefined) => void>();
  /** Tabs of a resumed session loading in the background (resume.ts), with the page they are on their way to. */
  private readonly arriving = new WeakMap<Page, { url: string; title: string }>();

  constructor(private readonly host: TabsHost) {}

  /** The active tab, while it is open. */
  get activeTab(): Page | undefined {
    return this.active && !this.active.isClosed() && !this.closing.has(this.active) ? this.active : undefined;
  }

  /**
   * The tab the tools act on, as the next call would pick it (the active one, else the last open one), without
   * opening anything: what a live view shows and where a person's input goes. Undefined when none is open.
   */
  get current(): Page | undefined {
    return this.activeTab ?? this.all().at(-1);
  }

  /** True when a tab was active and it has gone (closed or crashed) since. */
  get activeLost(): boolean {
    return this.active !== undefined && this.activeTab === undefined;
  }

  /** Open tabs, in the order browser_tabs numbers them. */
  all(): Page[] {
    return this.host.context()?.pages().filter((p) => !p.isClosed() && !this.closing.has(p)) ?? [];
  }

  /**
   * Calls `listener` whenever the active tab changes (the first tab, a new, switched, closed, popped-up or
   * replaced tab) and with undefined when the session loses its context or closes: a live view follows it.
   */
  onActiveChange(listener: (page: Page | undefined) => void): () => void {
    this.activeListeners.add(listener);
    return () => this.activeListeners.delete(listener);
  }

  /** Forgets the listeners: the session closed. */
  stopTelling(): void {
    this.activeListeners.clear();
  }

  /** Makes a tab the active one (the tab an action opened), telling live views; undefined: none until the next call opens one. */
  activate(page: Page | undefined): void {
    if (page) this.track(page);
    if (page === this.active) return;
    this.active = page;
    for (const listener of this.activeListeners) {
      try {
        listener(page);
      } catch {
        // A live view's trouble must not break the tool call that moved the tab.
      }
    }
  }

  /** The `Tab` of a page: its dialogs, downloads and requests. */
  tabOf(page: Page): Tab {
    this.track(page);
    return this.kept.get(page)!;
  }

  /** Tabs opened by pages since the last call, oldest first. */
  takePopups(): Page[] {
    const popups = this.unreportedPopups.filter((p) => !p.isClosed());
    this.unreportedPopups = [];
    return popups;
  }

  /** Tabs with their URL and title; a tab whose page does not answer within `TITLE_MS` is titled "(not responding)". */
  async list(): Promise<TabInfo[]> {
    return Promise.all(
      this.all().map(async (page, index) => {
        const arriving = this.arriving.get(page);
        return {
          index,
          url: arriving?.url ?? page.url(),
          title: arriving?.title ?? (await titleWithin(page, TITLE_MS)) ?? NOT_RESPONDING,
          active: page === this.active,
        };
      }),
    );
  }

  /** `page` is loading `tab`'s address in the background (a resumed session): it is listed at it meanwhile. */
  loadingInBackground(page: Page, tab: { url: string; title: string }, going: Promise<unknown>): void {
    this.arriving.set(page, tab);
    void going.finally(() => this.arriving.delete(page));
  }

  /** Opens a tab and makes it active. */
  async open(): Promise<Page> {
    const page = await (await this.host.openContext()).newPage();
    this.activate(page);
    return page;
  }

  async switchTo(index: number): Promise<Page> {
    const pages = this.all();
    checkTabIndex(index, pages.length);
    const page = pages[index]!;
    this.activate(page);
    await page.bringToFront().catch(() => {});
    return page;
  }

  /** Closes tab `index` (the active one by default); the last tab is emptied instead, so there is always one to act in. */
  async close(index?: number): Promise<void> {
    const pages = this.all();
    const target = index ?? Math.max(0, pages.indexOf(this.active!));
    checkTabIndex(target, pages.length);
    const page = pages[target]!;
    if (pages.length === 1) {
      await stopLoading(page);
      await page.goto('about:blank', { timeout: this.host.config.navigationTimeout });
      return;
    }
    await this.retire(page);
    if (page === this.active) this.activate(this.all().at(-1));
  }

  /**
   * Opens a tab in place of `page`, one that no longer answers, once it has gone (`retireHung`). Also says how
   * many other tabs were hung with it and went too.
   */
  async replace(page: Page): Promise<{ page: Page; alsoClosed: number }> {
    const alsoClosed = await this.retireHung(page);
    return { page: await this.open(), alsoClosed };
  }

  /**
   * Closes `page`, whose page no longer answers, with every tab that shares its renderer process and is hung with
   * it, and waits until they are gone (a hung renderer takes about half a second). The launched browser keeps the
   * tabs of one site in one process (config.ts), and a tab a page opened shares that page's process: a page of
   * that site opened while any of them is left would join the hung process and never load. So the tabs of the
   * same site, and those opened by or opening `page`, that do not answer within `TITLE_MS` go too. Returns how
   * many such tabs there were.
   */
  async retireHung(page: Page): Promise<number> {
    const site = schemefulSiteOf(page.url());
    const family = await openerRoot(page);
    const others = this.all().filter((other) => other !== page);
    const related = await Promise.all(others.map(async (other) => (site && schemefulSiteOf(other.url()) === site) || (await openerRoot(other)) === family));
    const [, hung] = await Promise.all([
      this.retire(page),
      Promise.all(others.map(async (other, i) => (related[i] && !(await rendererAnswers(other, TITLE_MS)) ? other : undefined))),
    ]);
    const alsoHung = hung.filter((other): other is Page => other !== undefined);
    await Promise.all(alsoHung.map((other) => this.retire(other)));
    return alsoHung.length;
  }

  /** Closes a tab for good: from now on it is not listed, even while its renderer takes its time to go. */
  async retire(page: Page): Promise<void> {
    this.closing.add(page);
    await closeQuickly(page);
  }

  private track(page: Page): void {
    if (this.kept.has(page)) return;
    const tab = new Tab(page, { dialogPolicy: this.host.config.dialogPolicy, downloads: this.host.downloads });
    this.kept.set(page, tab);
    warmUpCaptures(page, () => this.host.busy());
    unholdFrames(page, tab.traffic, this.host.config.settle.maxMs);
    page.on('crash', () => {
      this.host.lost('The tab crashed and a new empty tab was opened');
      void page.close().catch(() => {});
    });
    // Tabs opened by the page (target=_blank, window.open) need the same handling, and must be reported.
    // It becomes the active tab when the action that opened it reports it (observeAction), never in the middle of a call.
    page.on('popup', (popup) => {
      this.track(popup);
      this.unreportedPopups.push(popup);
    });
  }
}

/** What the model is told of other tabs closed with a hung one (`Tabs.retireHung`): a sentence, "" when none were. */
export function alsoHungNotice(count: number): string {
  if (!count) return '';
  const tabs = count === 1 ? 'Another tab of its site, or one it opened, was' : `${count} other tabs of its site, or that it opened, were`;
  return ` ${tabs} not responding either (such tabs share a renderer process) and closed too.`;
}

/** The first tab of the chain of tabs that opened `page` (itself when no page opened it). */
async function openerRoot(page: Page): Promise<Page> {
  let root = page;
  for (let steps = 0; steps < 20; steps++) {
    const opener = await root.opener().catch(() => null);
    if (!opener) break;
    root = opener;
  }
  return root;
}
