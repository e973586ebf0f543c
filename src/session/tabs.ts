/**
 * A session's tabs: which one is active (the tab the tools act on, and a live view shows), and the `Tab` of each
 * page (tab.ts), made here as each page of the session's context opens. The session (session.ts) owns the context
 * they live in.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { ResolvedConfig } from '../config.js';
import { sleep, type Deadline } from '../deadline.js';
import { BrowserToolError } from '../errors.js';
import { within } from '../within.js';
import { closeHung, openAddress } from '../loading/index.js';
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
  private active: Tab | undefined;
  /** The context's tabs, in the order their pages opened (browser_tabs numbers them so). */
  private tabs: Tab[] = [];
  private readonly activeListeners = new Set<(tab: Tab | undefined) => void>();

  constructor(private readonly host: TabsHost) {}

  /**
   * A context was opened: each of its pages gets its `Tab` as it opens (a tab the session opens, or one a page
   * opens). The one place a `Tab` is made.
   */
  watch(context: BrowserContext): void {
    this.tabs = [];
    const host = {
      config: this.host.config,
      downloads: this.host.downloads,
      busy: () => this.host.busy(),
      crashed: () => this.host.lost('The tab crashed and a new empty tab was opened'),
      closed: (tab: Tab) => (this.tabs = this.tabs.filter((other) => other !== tab)),
    };
    context.on('page', (page) => this.tabs.push(new Tab(page, host)));
  }

  /** The active tab, while it is open. */
  get activeTab(): Tab | undefined {
    return this.active && isOpen(this.active) ? this.active : undefined;
  }

  /**
   * The tab the tools act on, as the next call would pick it (the active one, else the last open one), without
   * opening anything: what a live view shows and where a person's input goes. Undefined when none is open.
   */
  get current(): Tab | undefined {
    return this.activeTab ?? this.all().at(-1);
  }

  /** True when a tab was active and it has gone (closed or crashed) since. */
  get activeLost(): boolean {
    return this.active !== undefined && this.activeTab === undefined;
  }

  /** Open tabs, in the order browser_tabs numbers them. */
  all(): Tab[] {
    return this.host.context() ? this.tabs.filter(isOpen) : [];
  }

  /** The tab of `page`, one of this session's pages (a request the allowlist refused names its page). */
  find(page: Page): Tab | undefined {
    return this.tabs.find((tab) => tab.page === page);
  }

  /**
   * Calls `listener` whenever the active tab changes (the first tab, a new, switched, closed, popped-up or
   * replaced tab) and with undefined when the session loses its context or closes: a live view follows it.
   */
  onActiveChange(listener: (tab: Tab | undefined) => void): () => void {
    this.activeListeners.add(listener);
    return () => this.activeListeners.delete(listener);
  }

  /** Forgets the listeners: the session closed. */
  stopTelling(): void {
    this.activeListeners.clear();
  }

  /** Makes a tab the active one (the tab an action opened), telling live views; undefined: none until the next call opens one. */
  activate(tab: Tab | undefined): void {
    if (tab === this.active) return;
    this.active = tab;
    for (const listener of this.activeListeners) {
      try {
        listener(tab);
      } catch {
        // A live view's trouble must not break the tool call that moved the tab.
      }
    }
  }

  /** Tabs opened by pages since the last call, oldest first. */
  takePopups(): Tab[] {
    const popups = this.tabs.filter((tab) => tab.unreported);
    for (const tab of popups) tab.unreported = false;
    return popups.filter(isOpen);
  }

  /** Tabs with their URL and title; a tab whose page does not answer within `TITLE_MS` is titled "(not responding)". */
  async list(): Promise<TabInfo[]> {
    return Promise.all(
      this.all().map(async (tab, index) => ({
        index,
        url: tab.url,
        title: tab.arrivingTitle ?? (await titleWithin(tab.page, TITLE_MS)) ?? NOT_RESPONDING,
        active: tab === this.active,
      })),
    );
  }

  /** Opens a tab, and makes it the active one unless `activate` is false. */
  async open({ activate = true } = {}): Promise<Tab> {
    const page = await (await this.host.openContext()).newPage();
    // Made as the page opened (`watch`).
    const tab = this.find(page)!;
    if (activate) this.activate(tab);
    return tab;
  }

  async switchTo(index: number): Promise<Tab> {
    const tabs = this.all();
    checkTabIndex(index, tabs.length);
    const tab = tabs[index]!;
    this.activate(tab);
    await tab.page.bringToFront().catch(() => {});
    return tab;
  }

  /**
   * Closes tab `index` (the active one by default); the last tab is emptied instead, so there is always one to act
   * in (a tab that no longer answers is replaced by an empty one).
   */
  async close(index: number | undefined, deadline: Deadline): Promise<void> {
    const tabs = this.all();
    const target = index ?? Math.max(0, tabs.indexOf(this.active!));
    checkTabIndex(target, tabs.length);
    const tab = tabs[target]!;
    if (tabs.length === 1) {
      const emptied = await openAddress(tab, 'about:blank', { deadline, settle: this.host.config.settle });
      // Not even an empty page in time: the tab is stuck, and an empty one takes its place.
      if (emptied.kind === 'hung' || emptied.kind === 'timeout') await this.replace(tab);
      return;
    }
    await this.retire(tab);
    if (tab === this.active) this.activate(this.all().at(-1));
  }

  /**
   * Opens a tab in place of `tab`, one that no longer answers, once it has gone (`retireHung`). Also says how
   * many other tabs were hung with it and went too.
   */
  async replace(tab: Tab): Promise<{ tab: Tab; alsoClosed: number }> {
    const alsoClosed = await this.retireHung(tab);
    return { tab: await this.open(), alsoClosed };
  }

  /**
   * Closes `tab`, whose page no longer answers, with every tab hung with it (loading/rescue.ts `closeHung`), and
   * waits until they are gone (a hung renderer takes about half a second). Returns how many such tabs there were.
   */
  async retireHung(tab: Tab): Promise<number> {
    const others = this.all().filter((other) => other !== tab);
    return (await closeHung(tab, others, TITLE_MS, (hung) => this.retire(hung))).length;
  }

  /** Closes a tab for good: from now on it is not listed, even while its renderer takes its time to go. */
  private async retire(tab: Tab): Promise<void> {
    tab.closing = true;
    // Without its unload handlers, and without waiting on a renderer that may be hung.
    await Promise.race([tab.page.close({ runBeforeUnload: false }).catch(() => {}), sleep(3_000)]);
  }
}

/** An open tab, not on its way out. */
function isOpen(tab: Tab): boolean {
  return !tab.page.isClosed() && !tab.closing;
}

/** What the model is told of other tabs closed with a hung one (`Tabs.retireHung`): a sentence, "" when none were. */
export function alsoHungNotice(count: number): string {
  if (!count) return '';
  const tabs = count === 1 ? 'Another tab of its site, or one it opened, was' : `${count} other tabs of its site, or that it opened, were`;
  return ` ${tabs} not responding either (such tabs share a renderer process) and closed too.`;
}
