/**
 * A session: what one conversation (a Mastra thread) owns in the shared browser. Its own isolated context
 * (cookies, storage, cache), its tabs (tabs.ts, with their dialogs, downloads and requests), its refs. Calls
 * of a session run one at a time, each within its deadline; sessions run in parallel with each other.
 *
 * When something outside the call breaks the session's state (the browser died, a tab crashed or hung, a
 * person changed the page in the live view), the next call's result says so in its notices.
 */
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import type { SharedBrowser } from '../browser/shared.js';
import type { ResolvedConfig, StorageState } from '../config.js';
import type { Slots } from './slots.js';
import { BrowserToolError, toBrowserToolError } from '../errors.js';
import { Downloads, type SavedDownload } from '../files/downloads.js';
import { LISTENERS_INIT_SCRIPT } from '../snapshot/index.js';
import type { SavedSession } from '../store/types.js';
import { installAllowlist } from './allowlist.js';
import { Deadline } from '../deadline.js';
import { readSaveable, reopenTabs, type Reopen } from './resume.js';
import { checkSettings, contextSettings } from '../browserSettings.js';
import { rescueTab } from '../loading/index.js';
import { StorageReader } from './storageRead.js';
import type { Tab } from './tab.js';
import { saveTrace, startTrace } from './trace.js';
import { Tabs } from './tabs.js';

export interface ActiveTab {
  /** The tab the call acts on; its page is `tab.page`. */
  tab: Tab;
  /** Things the model must know before trusting its previous state, e.g. "the browser was restarted". */
  notices: string[];
}

export interface SessionOptions {
  /** Cookies and local storage to start with (Playwright's storage state, or a path to one). */
  storageState?: StorageState | string;
  /** Shared by the sessions of a toolset: how many calls run in the browser at once (slots.ts). */
  slots?: Slots;
  /** Tabs to open again before the first call acts: the session resumes one saved by another process. */
  reopen?: Reopen;
  /** Downloads of the session resumed, with the files the store kept. */
  downloads?: SavedDownload[];
  /** Told at the end of every call, with what it was (the registry saves the session when its calls are done). */
  afterCall?: (what: string) => void;
}

export class BrowserSession {
  readonly tabs: Tabs;
  /** The files this session downloaded, by short name (files/downloads.ts). */
  readonly downloads: Downloads;
  /** When the last call ended (or the session was created): what idle eviction looks at. */
  lastUsed = Date.now();
  /** Until when a person has the page (a handoff): the session counts as used until then. */
  private heldUntil = 0;
  /** Calls running or queued. */
  private pending = 0;
  private context: BrowserContext | undefined;
  /** Reads the context's cookies and storage for a save (storageRead.ts). */
  private storage: StorageReader | undefined;
  private opening: Promise<BrowserContext> | undefined;
  /** Set when the session lost state between calls; reported once by the next call. */
  private lostState: string | undefined;
  /** The last call ran out of time: the tab may be stuck, so the next call checks it first. */
  private suspect = false;
  /** The active tab's URL when the last call ended: a different URL at the next call means someone else moved it. */
  private urlAfterLastCall: string | undefined;
  private externalInput = 0;
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly stopListening: () => void;
  /** Tabs still to open again (a resumed session, until its first call). */
  private reopen: Reopen | undefined;
  /** What the next result must say that no other notice covers (a resumed page that did not load). */
  private readonly toTell: string[] = [];

  constructor(
    /** The thread (or resource, or "default") this session belongs to. */
    readonly key: string,
    private readonly browser: SharedBrowser,
    readonly config: ResolvedConfig,
    private readonly options: SessionOptions = {},
  ) {
    this.reopen = options.reopen?.tabs.length ? options.reopen : undefined;
    this.downloads = new Downloads(() => this.downloadDir());
    if (options.downloads?.length) this.downloads.restore(options.downloads);
    this.tabs = new Tabs({
      config,
      context: () => this.context,
      openContext: () => this.ensureContext(),
      downloads: this.downloads,
      busy: () => this.busy,
      lost: (state) => (this.lostState = state),
    });
    this.stopListening = browser.onDisconnect((lost) => {
      if (!this.context) return;
      this.context = undefined;
      this.tabs.activate(undefined);
      this.lostState = lost.endpoint
        ? 'The connection to the remote browser dropped and was opened again'
        : 'The browser had closed (crashed, killed or closed by the user) and was restarted';
    });
  }

  get busy(): boolean {
    return this.pending > 0;
  }

  /** The context, once the session has opened one: for the provider's live view and for tests. */
  get browserContext(): BrowserContext | undefined {
    return this.context;
  }

  /**
   * Runs one tool call: after the calls before it and once a slot is free (unless `slot` is false: a call that
   * only waits), within `ms` (see Deadline) from then. The call asks for its tab with `openTab` (a call that needs
   * no page never does, and opens nothing: no browser, no context). A call that runs out of time releases the
   * session at once; its work may go on in the background, and the next call that opens the tab checks it first,
   * unless it deals with a tab that does not respond itself (`checkTab` false: navigate, history and tabs). A call
   * made for a person (`forPerson`: Studio's address bar) leaves the agent's notices for its next call, which is
   * told the page changed, as for any move of theirs.
   */
  async run<T>(ms: number, what: string, work: (deadline: Deadline, openTab: () => Promise<ActiveTab>) => Promise<T>, { slot = true, checkTab = true, forPerson = false } = {}): Promise<T> {
    if (this.closed) throw new BrowserToolError('browser_closed', 'This browser session was closed.', { hint: 'Call the tool again: a new session starts, with no pages open.' });
    const previous = this.queue;
    let release = () => {};
    this.queue = new Promise<void>((resolve) => (release = resolve));
    this.pending++;
    let freeSlot = () => {};
    let opened = false;
    try {
      await previous;
      if (slot && this.options.slots) freeSlot = await this.options.slots.acquire();
      const deadline = new Deadline(ms, what);
      const openTab = async () => {
        opened = true;
        if (this.suspect) {
          if (checkTab) await this.recover();
          else this.suspect = false; // the call deals with a tab that does not respond itself
        }
        // Starting the browser, and loading a resumed session's pages again, get the navigation's time; the
        // call's own budget starts once they are done, so that a cold or busy start never cuts its work short.
        const starting = !this.context || this.reopen !== undefined;
        if (starting) deadline.extend(this.config.navigationTimeout);
        if (this.reopen) await this.reopenTabs(deadline);
        const tab = await this.activeTab({ keepNotices: forPerson });
        if (starting) deadline.restart(ms);
        return tab;
      };
      return await deadline.race(work(deadline, openTab));
    } catch (error) {
      // Whatever timed out (a step past the deadline, an action Playwright gave up on), the tab may be stuck.
      if (opened && toBrowserToolError(error).code === 'timeout') this.suspect = true;
      throw error;
    } finally {
      if (opened && !forPerson) this.urlAfterLastCall = this.tabs.activeTab?.page.url();
      this.pending--;
      this.lastUsed = Math.max(Date.now(), this.heldUntil);
      freeSlot();
      release();
      this.options.afterCall?.(what);
    }
  }

  /**
   * The active tab, opening the context or a fresh tab when needed, with what the model must be told (left for
   * a later call with `keepNotices`).
   */
  async activeTab({ keepNotices = false } = {}): Promise<ActiveTab> {
    await this.ensureContext();
    let tab = this.tabs.current;
    if (!tab) {
      if (this.tabs.activeLost) this.lostState ??= 'The tab had closed or crashed and a new empty tab was opened';
      tab = await this.tabs.open({ activate: false });
    }
    this.tabs.activate(tab);
    if (keepNotices) return { tab, notices: [] };
    const notices: string[] = this.toTell.splice(0);
    const url = tab.page.url();

    if (this.lostState) {
      notices.push(`${this.lostState}: the previous page and its state (form input, scroll position) were lost${this.lostState.includes('tab') ? '; cookies and logins were kept' : ''}. Navigate again.`);
      this.lostState = undefined;
    } else if (this.externalInput > 0) {
      notices.push(`A person used this browser in the live view since your last call (${this.externalInput} input events)${url !== this.urlAfterLastCall ? ` and it is now at ${url}` : ''}. Take browser_snapshot before acting on refs you saw before.`);
    } else if (this.urlAfterLastCall !== undefined && url !== this.urlAfterLastCall) {
      notices.push(`The page changed since your last call, without a tool (the page itself or a person): it is now at ${url}. Refs you saw before may be gone.`);
    }
    this.externalInput = 0;
    // A tab that opened too late for its action's result is announced, not switched to: the active tab changes
    // only in a result that says so.
    for (const popup of this.tabs.takePopups()) {
      notices.push(`A new tab opened after your last action (${popup.page.url()}); browser_tabs with action "switch" and index ${this.tabs.all().indexOf(popup)} shows it.`);
    }
    return { tab, notices };
  }

  /** A person has the page until `time` (browser_handoff): idle eviction and making room leave the session alone till then. */
  holdUntil(time: number): void {
    this.heldUntil = time;
    this.lastUsed = Math.max(this.lastUsed, time);
  }

  /** Notices for the agent's next call (what a call made for a person learnt of the session). */
  tellNextCall(notices: string[]): void {
    this.toTell.push(...notices);
  }

  /** The live view forwarded a person's mouse or keyboard input: the next call is told. */
  noteExternalInput(): void {
    this.externalInput++;
  }

  /** Cookies and storage of this session, to save and load into a later one. */
  async storageState(): Promise<StorageState> {
    const context = await this.ensureContext();
    return context.storageState();
  }

  /**
   * What a session store keeps of this session (resume.ts), and the notices its next result still had to give.
   * Read after the calls queued before it, so it sees their effects; undefined when there is nothing to save (no
   * context yet, the session closed, or the read took too long).
   */
  async saveable(): Promise<SavedSession | undefined> {
    const previous = this.queue;
    let release = () => {};
    this.queue = new Promise<void>((resolve) => (release = resolve));
    try {
      await previous;
      const downloads = this.downloads.list().length ? { downloads: this.downloads.saved() } : {};
      if (this.reopen) return { storage: this.options.storageState as StorageState | undefined, ...this.reopen, notices: this.unshownNotices(), ...downloads };
      if (!this.context) return undefined;
      const saved = await readSaveable(this.storage!, this.tabs, this.unshownNotices());
      return saved && { ...saved, ...downloads };
    } finally {
      release();
    }
  }

  /** Closes the context and everything in it. The next call on this session is refused. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopListening();
    // Listeners hear of it while the tabs can still be read, e.g. to remember their URLs.
    this.tabs.activate(undefined);
    this.tabs.stopTelling();
    const context = this.context ?? (await this.opening?.catch(() => undefined));
    this.context = undefined;
    if (context && this.config.trace) await saveTrace(context, this.config.trace, this.key);
    await context?.close().catch(() => {});
  }

  /** A resumed session's first call: its tabs are opened again first (resume.ts). */
  private async reopenTabs(deadline: Deadline): Promise<void> {
    const reopen = this.reopen!;
    this.reopen = undefined;
    await this.ensureContext();
    const problem = await reopenTabs(reopen, this.tabs, deadline, this.config);
    if (problem) this.toTell.push(problem);
    this.urlAfterLastCall = this.tabs.activeTab?.page.url();
  }

  /** Notices the next call would give that a resumed session must still give. */
  private unshownNotices(): string[] {
    const lost = this.lostState ? [`${this.lostState}: the previous page and its state (form input, scroll position) were lost. Navigate again.`] : [];
    return [...this.toTell, ...lost];
  }

  /** The active tab did not answer (a list of the tabs found it not responding): the next call checks it first. */
  suspectActiveTab(): void {
    this.suspect = true;
  }

  /**
   * The call before this one ran out of time, or found the tab not responding. An unfinished load is stopped; a
   * tab that still does not answer a trivial script is hung (an endless loop, a wedged load) and is replaced by a
   * fresh one in the same context, so cookies and logins survive.
   */
  private async recover(): Promise<void> {
    this.suspect = false;
    const tab = this.tabs.activeTab;
    if (!tab || (await rescueTab(tab, { afterTimeout: true })) === 'answers') return;
    this.tabs.activate(undefined);
    // Waited for: a page of its site opened before it has gone would join its hung renderer (Tabs.retireHung).
    const alsoClosed = await this.tabs.retireHung(tab);
    const others = alsoClosed === 1 ? 'another tab hung with it was' : `${alsoClosed} other tabs hung with it were`;
    this.lostState = `The tab stopped responding (a script kept it busy, or its page never finished loading) and was replaced by a new empty tab${alsoClosed ? `, and ${others} closed` : ''}`;
  }

  private ensureContext(): Promise<BrowserContext> {
    if (this.context) return Promise.resolve(this.context);
    this.opening ??= this.openContext().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async openContext(): Promise<BrowserContext> {
    const { config } = this;
    const own = config.sessionSettings ? checkSettings(config.sessionSettings(this.key), `sessionSettings("${this.key}")`) : undefined;
    const context = await this.browser.newContext({
      ...contextSettings(config.settings, own),
      viewport: config.viewport,
      acceptDownloads: true,
      storageState: this.options.storageState,
      // A service worker could answer requests without them passing the allowlist.
      serviceWorkers: config.allowedDomains ? 'block' : 'allow',
    });
    this.tabs.watch(context);
    context.setDefaultTimeout(config.timeout);
    context.setDefaultNavigationTimeout(config.navigationTimeout);
    await context.addInitScript(LISTENERS_INIT_SCRIPT);
    if (config.trace) await startTrace(context, config.trace, this.key);
    if (config.allowedDomains) {
      await installAllowlist(context, config.allowedDomains, (url, page) => {
        const tab = page ? this.tabs.find(page) : this.tabs.activeTab;
        tab?.loading.noteRefused(url);
      });
    }
    // What the new context holds: nothing, or a state given whole; one in a file is Playwright's to read, so the first save reads it all.
    const initial = this.options.storageState ?? { cookies: [], origins: [] };
    this.storage = new StorageReader(context, typeof initial === 'object' ? initial : undefined);
    this.context = context;
    return context;
  }

  private downloadDir(): string {
    // Sessions keep their downloads apart, so two conversations saving "report.csv" do not overwrite each other.
    return this.key === 'default' ? this.config.downloadDir : join(this.config.downloadDir, this.key.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80));
  }
}
