/**
 * The toolset as a Mastra browser provider: `new Agent({ browser: new ToolsetBrowser(config) })`. The agent gets the
 * toolset's own tools; Mastra Studio gets what it needs for its live view and human takeover: a screencast of
 * each thread's active tab, mouse and keyboard input into it, tab state, and word of a thread's browser opening
 * and closing.
 *
 * Nothing here is a second browser. The provider's launch and close are the toolset's shared browser, and a
 * Mastra thread's browser is the toolset's session for that thread: an isolated context in the one browser,
 * created by the thread's first tool call. Studio addresses threads by Mastra thread id; the tools key sessions
 * `thread:<id>`, or `default` for calls without a thread and for every call with `scope: 'shared'`.
 */
import {
  DEFAULT_THREAD_ID,
  MastraBrowser,
  type BrowserLifecycleHook,
  type BrowserState,
  type BrowserTabState,
  type KeyboardEventParams,
  type MouseEventParams,
  type ScreencastOptions,
  type ScreencastStream,
} from '@mastra/core/browser';
import type { InputProcessor, InputProcessorOrWorkflow } from '@mastra/core/processors';
import type { Page } from 'playwright-core';
import type { BrowserToolsetConfig } from '../config.js';
import { BrowserToolError } from '../errors.js';
import { isBetweenPages } from '../loading/index.js';
import type { BrowserSession } from '../session/session.js';
import type { Tab } from '../session/tab.js';
import { titleWithin } from '../session/tabs.js';
import { navigateTool } from '../tools/navigation/navigate.js';
import { BrowserToolset, type BrowserTools } from '../toolset.js';
import { BrowserStateProcessor } from './context.js';
import { changesPage, dispatchKey, dispatchMouse } from './input.js';
import { PageScreencast } from './screencast.js';

export interface ToolsetBrowserConfig extends BrowserToolsetConfig {
  /** Format, quality and size of the live view's frames (Mastra's screencast options). */
  screencast?: ScreencastOptions;
  /** Called once the browser is up (Mastra's lifecycle hook). */
  onLaunch?: BrowserLifecycleHook;
  /** Called before the browser closes. */
  onClose?: BrowserLifecycleHook;
}

type UrlChangeSource = NonNullable<BrowserState['activeUrlChangeSource']>;

/** Closed threads whose last state is kept for Mastra to describe, as the registry remembers evictions. */
const REMEMBERED = 1_000;

/**
 * A tab's title, or '' if the tab does not answer soon: Mastra asks for the state before every model call, and a
 * tab stuck in a script must not hold the agent up (the next tool call deals with it, within its deadline).
 */
async function titleOf(page: Page): Promise<string> {
  return (await titleWithin(page, 1_000)) ?? '';
}

let instances = 0;

export class ToolsetBrowser extends MastraBrowser {
  readonly id: string;
  override readonly name = 'ToolsetBrowser';
  readonly provider = 'mastra-browser-toolset';
  /** The toolset whose tools the agent gets and whose sessions are the threads' browsers. */
  readonly toolset: BrowserToolset;
  /** Live views by session key. */
  private readonly streams = new Map<string, Set<PageScreencast>>();
  /** Sessions that have a tab now, i.e. whose opening was announced and whose closing will be. */
  private readonly open = new Set<string>();
  /** The state of a thread's browser when it closed, with why, for Mastra to tell the model. */
  private readonly lastStates = new Map<string, BrowserState>();
  /** Why a session is being closed, set just before closing it. */
  private readonly closeReasons = new Map<string, NonNullable<BrowserState['closeReason']>>();
  /** Who moved each session's active tab to its URL last: a tool call (`agent`) or anything else (`user`). */
  private readonly lastNavigation = new WeakMap<BrowserSession, { url: string; source: UrlChangeSource }>();
  private readonly watchedTabs = new WeakSet<Tab>();

  /** Takes a toolset config (a new toolset is made from it) or a toolset to share, e.g. with a workflow. */
  constructor(config: ToolsetBrowserConfig | BrowserToolset = {}) {
    const toolset = config instanceof BrowserToolset ? config : new BrowserToolset(config);
    const own: ToolsetBrowserConfig = config instanceof BrowserToolset ? {} : config;
    // cdpUrl, wsEndpoint and executablePath stay with the toolset: Mastra's base class refuses cdpUrl with thread
    // scope because its other providers launch a browser per thread; here threads are contexts in one browser.
    super({
      headless: toolset.config.headless,
      viewport: toolset.config.viewport,
      timeout: toolset.config.timeout,
      scope: toolset.config.scope,
      screencast: own.screencast,
      onLaunch: own.onLaunch,
      onClose: own.onClose,
    });
    this.toolset = toolset;
    this.id = `mastra-browser-toolset-${++instances}`;
    toolset.sessions.onActiveTabChange((session, tab) => this.activeTabChanged(session, tab));
  }

  /** The toolset's tools, the same objects `toolset.tools` holds. */
  getTools(): BrowserTools {
    return this.toolset.tools;
  }

  /** Mastra's browser line and state signal, the state signal only on runs with memory (see context.ts). */
  override getInputProcessors(configuredProcessors: InputProcessorOrWorkflow[] = []): InputProcessor[] {
    if (configuredProcessors.some((p) => 'id' in p && p.id === 'browser-context')) return [];
    return [new BrowserStateProcessor()];
  }

  protected async doLaunch(): Promise<void> {
    await this.toolset.launch();
  }

  protected async doClose(): Promise<void> {
    for (const key of this.toolset.sessions.keys()) this.closeReasons.set(key, 'agent');
    try {
      await this.toolset.close();
    } finally {
      this.closeReasons.clear();
    }
  }

  protected override async checkBrowserAlive(): Promise<boolean> {
    return this.toolset.browserInfo !== undefined;
  }

  /** Whether the browser is up and, given a thread, whether that thread's session has a tab (what a live view needs). */
  override isBrowserRunning(threadId?: string): boolean {
    if (!this.toolset.browserInfo) return false;
    if (threadId === undefined || this.getScope() === 'shared') return true;
    return this.sessionOf(threadId)?.tabs.current !== undefined;
  }

  override hasThreadSession(threadId: string): boolean {
    return this.getScope() === 'shared' || this.toolset.sessions.has(this.keyOf(threadId));
  }

  /**
   * Closes one thread's session: its context, tabs and cookies; its next tool call starts a fresh one. With
   * `scope: 'shared'` it does nothing, as in Mastra's providers: the one session is every thread's (use `close()`).
   */
  override async closeThreadSession(threadId: string): Promise<void> {
    const key = this.keyOf(threadId);
    if (this.getScope() === 'shared' || !this.toolset.sessions.has(key)) return;
    // Read when the session reports its end, which happens inside closeSession (a session without a tab reports none).
    this.closeReasons.set(key, 'user');
    try {
      await this.toolset.sessions.closeSession(key);
    } finally {
      this.closeReasons.delete(key);
    }
  }

  override getSessionId(threadId?: string): string {
    return threadId && this.getScope() === 'thread' ? `${this.id}:${threadId}` : this.id;
  }

  /** The Playwright page a thread's tools act on, or null before its first tool call. Opens nothing. */
  async getActivePage(threadId?: string): Promise<Page | null> {
    return this.sessionOf(threadId)?.tabs.current?.page ?? null;
  }

  override async getCurrentUrl(threadId?: string): Promise<string | null> {
    return this.sessionOf(threadId)?.tabs.current?.page.url() ?? null;
  }

  override async getBrowserState(threadId?: string): Promise<BrowserState | null> {
    const session = this.sessionOf(threadId);
    if (!session?.browserContext) return null;
    const tabs: BrowserTabState[] = await Promise.all(
      session.tabs.all().map(async (tab) => ({ url: tab.page.url(), title: await titleOf(tab.page) })),
    );
    return { ...this.stateOf(session), tabs };
  }

  protected getBrowserStateForThread(threadId?: string): BrowserState | null {
    const session = this.sessionOf(threadId);
    return session?.browserContext ? this.stateOf(session) : null;
  }

  override async getTabState(threadId?: string): Promise<BrowserTabState[]> {
    return (await this.getBrowserState(threadId))?.tabs ?? [];
  }

  override async getActiveTabIndex(threadId?: string): Promise<number> {
    return this.getBrowserStateForThread(threadId)?.activeTabIndex ?? 0;
  }

  /** What a thread's browser showed when it closed. Never another thread's: Mastra tells the model about it. */
  override getLastBrowserState(threadId?: string): BrowserState | undefined {
    const key = this.keyOf(threadId);
    return this.lastStates.get(key) ?? (key === 'default' ? this.lastBrowserState : undefined);
  }

  /**
   * Opens a URL in the current thread's active tab as browser_navigate would (the next result will say the page
   * changed): after the thread's calls in progress, within a navigation's time, a hung tab replaced and a file
   * downloaded as they are for the agent. It returns once the page is usable; a page the server answered with
   * an error is shown as it is; other failures (a server that never answers: a `timeout`) are thrown.
   */
  override async navigateTo(url: string): Promise<void> {
    const key = this.keyOf(this.getCurrentThread());
    const result = await navigateTool.runForPerson({ registry: this.toolset.sessions, config: this.toolset.config }, { url }, key);
    // An error page the server sent is shown, as an address bar shows it.
    if (result.ok || (result.error.code === 'navigation_failed' && result.error.snapshot !== undefined)) return;
    throw new BrowserToolError(result.error.code, result.error.message, { hint: result.error.hint, retryable: result.error.retryable });
  }

  /**
   * A live view of a thread's active tab (`options.threadId`), following it across tab changes. A thread without a
   * tab yet gets a stream that starts with its first one. Mastra's `startScreencastIfBrowserActive`, which Studio
   * calls, returns null instead until the thread has a tab.
   */
  override async startScreencast(options: ScreencastOptions = {}): Promise<ScreencastStream> {
    const key = this.keyOf(options.threadId);
    const streams = this.streams.get(key) ?? new Set<PageScreencast>();
    this.streams.set(key, streams);
    const forget = () => {
      streams.delete(stream);
      if (streams.size === 0 && this.streams.get(key) === streams) this.streams.delete(key);
    };
    const stream = new PageScreencast(() => this.toolset.sessions.peek(key)?.tabs.current?.page, { ...this.config.screencast, ...options }, forget);
    streams.add(stream);
    await stream.start();
    return stream;
  }

  /** A person's mouse input from the live view, into the thread's active tab; the thread's next tool result says so. */
  override async injectMouseEvent(event: MouseEventParams, threadId?: string): Promise<void> {
    const { session, tab } = this.target(threadId);
    await dispatchMouse(tab, event);
    if (changesPage(event)) session.noteExternalInput();
  }

  /** A person's keyboard input from the live view, into the thread's active tab; the thread's next tool result says so. */
  override async injectKeyboardEvent(event: KeyboardEventParams, threadId?: string): Promise<void> {
    const { session, tab } = this.target(threadId);
    await dispatchKey(tab, event);
    if (changesPage(event)) session.noteExternalInput();
  }

  /** The session key the tools use for a Mastra thread (tools/defineTool.ts `sessionKey`). */
  private keyOf(threadId: string | undefined): string {
    if (this.getScope() === 'shared' || !threadId || threadId === DEFAULT_THREAD_ID) return 'default';
    return `thread:${threadId}`;
  }

  /**
   * The Mastra thread a session's events are announced to: its own in thread scope, every listener (undefined) in
   * shared scope. Sessions of a resource, an MCP connection or a named workflow run have no thread to announce to.
   */
  private threadOf(key: string): string | undefined | null {
    if (this.getScope() === 'shared') return undefined;
    if (key === 'default') return DEFAULT_THREAD_ID;
    return key.startsWith('thread:') ? key.slice('thread:'.length) : null;
  }

  private sessionOf(threadId: string | undefined): BrowserSession | undefined {
    return this.toolset.sessions.peek(this.keyOf(threadId));
  }

  /** Where a person's input goes. The error's wording is one Mastra's input handler treats as "no browser yet". */
  private target(threadId: string | undefined): { session: BrowserSession; tab: Tab } {
    const session = this.sessionOf(threadId);
    const tab = session?.tabs.current;
    if (!session || !tab) throw new Error(`No active target: ${threadId ? `thread ${threadId}` : 'this browser'} has no open tab.`);
    return { session, tab };
  }

  private stateOf(session: BrowserSession): BrowserState {
    const tabs = session.tabs.all();
    const current = session.tabs.current;
    const activeUrl = current?.page.url();
    const navigation = this.lastNavigation.get(session);
    return {
      tabs: tabs.map((tab) => ({ url: tab.page.url() })),
      activeTabIndex: current ? Math.max(0, tabs.indexOf(current)) : 0,
      ...(navigation && navigation.url === activeUrl ? { activeUrlChangeSource: navigation.source } : {}),
    };
  }

  /** Everything the live view follows happens here: a session's first tab, tab changes, and its end. */
  private activeTabChanged(session: BrowserSession, tab: Tab | undefined): void {
    const { key } = session;
    const thread = this.threadOf(key);
    if (tab) {
      this.watchNavigations(session, tab);
      for (const stream of this.streams.get(key) ?? []) void stream.follow();
      if (this.open.has(key)) return;
      this.open.add(key);
      this.lastStates.delete(key);
      if (thread === null) return;
      if (this.status === 'ready') this.notifyBrowserReady(thread);
      // The tools launched the browser themselves; launching here only records it, and announces it to every thread.
      else void this.ensureReady().catch(() => {});
      return;
    }
    // No active tab: either a moment inside one call (a hung tab is being replaced), or the session's end (closed,
    // evicted, or its context lost with the browser). Only the end closes the live views.
    const ended = this.toolset.sessions.peek(key) !== session || !session.browserContext;
    if (!ended) {
      for (const stream of this.streams.get(key) ?? []) void stream.follow();
      return;
    }
    if (!this.open.delete(key)) return;
    const reason = this.closeReasons.get(key) ?? (session.browserContext ? undefined : 'error');
    this.closeReasons.delete(key);
    const state = session.browserContext ? this.stateOf(session) : undefined;
    if (state?.tabs.length) this.lastStates.set(key, { ...state, ...(reason ? { closeReason: reason } : {}) });
    if (this.lastStates.size > REMEMBERED) this.lastStates.delete(this.lastStates.keys().next().value!);
    for (const stream of [...(this.streams.get(key) ?? [])]) void stream.stop('browser_closed');
    if (thread !== null) this.notifyBrowserClosed(thread);
  }

  /**
   * Records who moved the active tab, for Mastra's browser state: a navigation during a tool call is the agent's,
   * any other (a person in the live view, the page itself) is not.
   */
  private watchNavigations(session: BrowserSession, tab: Tab): void {
    if (this.watchedTabs.has(tab)) return;
    this.watchedTabs.add(tab);
    const { page } = tab;
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame() || tab !== session.tabs.current || isBetweenPages(frame.url())) return;
      this.lastNavigation.set(session, { url: frame.url(), source: session.busy ? 'agent' : 'user' });
    });
  }
}
