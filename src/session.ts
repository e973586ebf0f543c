/**
 * Browser lifecycle: one lazily launched browser per toolset, relaunched when it dies,
 * with the events (dialogs, popups, crashes) each action needs to report.
 */
import { BrowserManager } from 'agent-browser';
import type { Page } from 'playwright-core';
import { findBrowser, type ChosenBrowser } from './browser/find.js';
import type { ResolvedConfig } from './config.js';
import { BrowserToolError, toBrowserToolError } from './errors.js';
import { registerHiddenRefEngine } from './hiddenRefs.js';
import { PageEvents } from './pageEvents.js';

export interface TabInfo {
  index: number;
  url: string;
  title: string;
  active: boolean;
}

export interface ActivePage {
  page: Page;
  /** Things the model must know before trusting its previous state, e.g. "the browser was restarted". */
  notices: string[];
}

const BROWSER_RESTARTED = 'The browser had closed (crashed, killed or closed by the user) and was restarted';

/** Tabs are numbered from 0 in browser_tabs' list; anything else is a bad argument. */
function checkTabIndex(index: number, count: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new BrowserToolError('invalid_input', `There is no tab ${index}; tabs are numbered 0 to ${count - 1}.`, {
      hint: 'Call browser_tabs with action "list" to see the open tabs.',
    });
  }
}

export class BrowserSession {
  private manager: BrowserManager | undefined;
  private launching: Promise<BrowserManager> | undefined;
  private closing: Promise<void> | undefined;
  /** Set when the browser or the active tab died; reported once by the next call. */
  private lostState: string | undefined;
  private readonly events = new WeakMap<Page, PageEvents>();
  /** Tabs pages opened (target=_blank, window.open) that no tool result has mentioned yet. */
  private unreportedPopups: Page[] = [];
  /** The browser launched or connected to, once there is one. */
  private chosen: ChosenBrowser | undefined;

  constructor(readonly config: ResolvedConfig) {}

  /** The active tab, launching or relaunching the browser when needed. */
  async activePage(): Promise<ActivePage> {
    if (this.closing) await this.closing;
    const notices: string[] = [];
    let manager = await this.ensureManager();

    if (!manager.getBrowser()?.isConnected() && !this.isPersistent(manager)) {
      this.lostState = BROWSER_RESTARTED;
      await this.discard(manager);
      manager = await this.ensureManager();
    }

    let page = this.pickOpenPage(manager);
    if (!page) {
      this.lostState ??= 'The tab had closed or crashed and a new empty tab was opened';
      await manager.newTab();
      page = manager.getPage();
    }
    this.track(page);

    if (this.lostState) {
      notices.push(`${this.lostState}: the previous page and its state (form input, login) were lost. Navigate again.`);
      this.lostState = undefined;
    }
    for (const popup of this.takePopups()) {
      notices.push(`A new tab opened after your last action (${popup.url()})${popup === page ? ' and is now the active tab' : ''}. browser_tabs lists the tabs.`);
    }
    return { page, notices };
  }

  browserInfo(): (ChosenBrowser & { version?: string }) | undefined {
    if (!this.chosen) return undefined;
    const version = this.manager?.getBrowser()?.version();
    return { ...this.chosen, ...(version ? { version } : {}) };
  }

  /** Tabs opened by pages since the last call, oldest first. */
  takePopups(): Page[] {
    const popups = this.unreportedPopups.filter((p) => !p.isClosed());
    this.unreportedPopups = [];
    return popups;
  }

  /** Dialogs and downloads of a tab. */
  eventsOf(page: Page): PageEvents {
    this.track(page);
    return this.events.get(page)!;
  }

  async tabs(): Promise<TabInfo[]> {
    const manager = await this.ensureManager();
    return manager.listTabs();
  }

  /** Opens a tab and makes it active. */
  async newTab(): Promise<Page> {
    const manager = await this.ensureManager();
    await manager.newTab();
    const page = manager.getPage();
    this.track(page);
    return page;
  }

  async switchTab(index: number): Promise<Page> {
    const manager = await this.ensureManager();
    checkTabIndex(index, manager.getPages().length);
    await manager.switchTo(index);
    const page = manager.getPage();
    await page.bringToFront().catch(() => {});
    return page;
  }

  async closeTab(index?: number): Promise<void> {
    const manager = await this.ensureManager();
    const count = manager.getPages().length;
    const target = index ?? manager.getActiveIndex();
    checkTabIndex(target, count);
    if (count === 1) {
      // Closing the last tab would end the browser session; leave an empty tab instead.
      await manager.getPage().goto('about:blank');
      return;
    }
    // BrowserManager.closeTab in agent-browser 0.19.0 removes the tab from its list twice (once in its
    // 'close' listener, once after), dropping a second tab; closing the page lets only the listener act.
    await manager.getPages()[target]!.close();
  }

  /** Pages of the browser, for telling whether an action opened a new tab. */
  pages(): Page[] {
    return this.manager?.getPages() ?? [];
  }

  /** Idempotent: closes the browser (or disconnects from a CDP one) and leaves no process behind. */
  async close(): Promise<void> {
    if (this.closing) return this.closing;
    const launching = this.launching;
    this.closing = (async () => {
      const manager = this.manager ?? (await launching?.catch(() => undefined));
      if (manager) await this.discard(manager);
    })();
    try {
      await this.closing;
    } finally {
      this.closing = undefined;
    }
  }

  private async ensureManager(): Promise<BrowserManager> {
    if (this.manager) return this.manager;
    // Concurrent first calls share one launch.
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  private async launch(): Promise<BrowserManager> {
    const manager = new BrowserManager();
    const { config } = this;
    await registerHiddenRefEngine();
    const chosen = await findBrowser(config);
    try {
      if (chosen.endpoint) {
        await manager.launch({ cdpUrl: chosen.endpoint, viewport: config.viewport, allowedDomains: config.allowedDomains });
      } else {
        await manager.launch({
          headless: config.headless,
          executablePath: chosen.executablePath,
          args: config.args,
          viewport: config.viewport,
          allowedDomains: config.allowedDomains,
        });
      }
    } catch (error) {
      await manager.close().catch(() => {});
      if (error instanceof BrowserToolError) throw error;
      const launchError = toBrowserToolError(error, config.cdpUrl ? `connect to ${config.cdpUrl}` : 'launch the browser');
      throw new BrowserToolError(config.cdpUrl ? 'browser_closed' : 'browser_error', launchError.message, {
        hint: config.cdpUrl
          ? 'Check that the browser at cdpUrl is running with remote debugging enabled.'
          : 'Check that executablePath points to a working Chrome or Chromium, or set cdpUrl to a running browser.',
        retryable: false,
      });
    }
    const context = manager.getContext();
    context?.setDefaultTimeout(config.timeout);
    context?.setDefaultNavigationTimeout(config.navigationTimeout);
    manager.getBrowser()?.on('disconnected', () => {
      if (this.manager === manager) this.lostState ??= BROWSER_RESTARTED;
    });
    this.manager = manager;
    this.chosen = chosen;
    return manager;
  }

  private isPersistent(manager: BrowserManager): boolean {
    return manager.getBrowser() === null && manager.isLaunched();
  }

  private pickOpenPage(manager: BrowserManager): Page | undefined {
    if (!manager.hasPages()) return undefined;
    const page = manager.getPage();
    if (page.isClosed()) return undefined;
    return page;
  }

  private track(page: Page): void {
    if (this.events.has(page)) return;
    this.events.set(page, new PageEvents(page, { dialogPolicy: this.config.dialogPolicy, downloadDir: () => this.config.downloadDir }));
    page.on('crash', () => {
      this.lostState = 'The tab crashed and a new empty tab was opened';
      void page.close().catch(() => {});
    });
    // Tabs opened by the page (target=_blank, window.open) need the same handling, and must be reported.
    page.on('popup', (popup) => {
      this.track(popup);
      this.unreportedPopups.push(popup);
    });
  }

  private async discard(manager: BrowserManager): Promise<void> {
    if (this.manager === manager) this.manager = undefined;
    await manager.close().catch(() => {});
  }
}
