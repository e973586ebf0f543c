/**
 * The sessions of one toolset, by key (a Mastra thread, resource, workflow run or MCP connection). Creates
 * a session on its first call, closes sessions left idle for `idleTimeout`, and keeps at most `maxSessions`
 * open by closing the one unused longest. A conversation whose session was closed is told so on its next call.
 */
import type { Page } from 'playwright-core';
import type { SharedBrowser } from '../browser/shared.js';
import type { ResolvedConfig } from '../config.js';
import { BrowserToolError } from '../errors.js';
import { BrowserSession, type StorageState } from './session.js';
import { Slots } from './slots.js';

/** A session used this recently belongs to a conversation in progress: it is not evicted to make room. */
const IN_USE_MS = 30_000;

/** How many closed sessions are remembered, to tell their conversations why the browser is empty. */
const REMEMBERED = 1_000;

export class SessionRegistry {
  private readonly sessions = new Map<string, BrowserSession>();
  /** Sessions closed by the registry (not by the user), with the reason, for the next call of their key. */
  private readonly evicted = new Map<string, string>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly activePageListeners = new Set<(session: BrowserSession, page: Page | undefined) => void>();
  private readonly slots: Slots;
  /** Sessions taken out of the map whose contexts are still closing: they count against maxSessions until gone. */
  private closing = 0;

  constructor(
    private readonly browser: SharedBrowser,
    private readonly config: ResolvedConfig,
  ) {
    this.slots = new Slots(config.maxConcurrentCalls, config.queueTimeout);
  }

  /**
   * The session of `key`, created if needed, and what its next result must say about its past. When every
   * session belongs to a conversation in progress, a new one waits up to `waitMs` for one to go quiet.
   */
  async get(key: string, waitMs = 0): Promise<{ session: BrowserSession; notices: string[] }> {
    const existing = this.sessions.get(key);
    if (existing) return { session: existing, notices: [] };
    await this.makeRoom(Date.now() + waitMs);
    // Another call for the same key may have created it while room was being made.
    const raced = this.sessions.get(key);
    if (raced) return { session: raced, notices: [] };
    const session = new BrowserSession(key, this.browser, this.config, { storageState: this.storageStateFor(key), slots: this.slots });
    this.sessions.set(key, session);
    session.tabs.onActiveChange((page) => {
      for (const listener of this.activePageListeners) listener(session, page);
    });
    this.startSweeping();
    const reason = this.evicted.get(key);
    this.evicted.delete(key);
    const notices = reason ? [`This conversation's browser session was closed ${reason}: its tabs, cookies and logins are gone. A new session started; navigate again.`] : [];
    return { session, notices };
  }

  /** The session of `key` if it is open, without creating one. */
  peek(key: string): BrowserSession | undefined {
    return this.sessions.get(key);
  }

  has(key: string): boolean {
    return this.sessions.has(key);
  }

  keys(): string[] {
    return [...this.sessions.keys()];
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Closes one session (its context, tabs and downloads in progress). Its next call starts a fresh one. */
  async closeSession(key: string): Promise<void> {
    const session = this.sessions.get(key);
    if (!session) return;
    this.sessions.delete(key);
    await this.closeCounted(session);
  }

  async closeAll(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    this.evicted.clear();
    await Promise.all(all.map((session) => session.close()));
  }

  /** Closes sessions idle for longer than `idleTimeout`. Runs on a timer; exposed for tests and operators. */
  async sweep(now = Date.now()): Promise<string[]> {
    const idle = [...this.sessions.values()].filter((s) => !s.busy && now - s.lastUsed >= this.config.idleTimeout);
    const minutes = Math.round(this.config.idleTimeout / 60_000);
    await Promise.all(idle.map((s) => this.evict(s, `after ${minutes >= 1 ? `${minutes} min` : `${Math.round(this.config.idleTimeout / 1000)} s`} without use (idleTimeout)`)));
    return idle.map((s) => s.key);
  }

  /** Hears every session's `tabs.onActiveChange`, sessions created later included (the provider's live view). */
  onActivePageChange(listener: (session: BrowserSession, page: Page | undefined) => void): () => void {
    this.activePageListeners.add(listener);
    return () => this.activePageListeners.delete(listener);
  }

  /**
   * Closes the session unused longest to make room, waiting for its context to go so that open contexts never
   * exceed maxSessions. A session used in the last half minute is in a conversation (its model is thinking):
   * rather than take it away, the newcomer waits until `until` for one to go quiet, then is refused with a
   * retryable error.
   */
  private async makeRoom(until: number): Promise<void> {
    while (this.sessions.size + this.closing >= this.config.maxSessions) {
      const now = Date.now();
      const idle = [...this.sessions.values()].filter((s) => !s.busy && now - s.lastUsed >= IN_USE_MS).sort((a, b) => a.lastUsed - b.lastUsed)[0];
      // A room another newcomer is making (a context closing): wait for it rather than take one more.
      if ((!idle || this.sessions.size < this.config.maxSessions) && now < until) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(250, until - now)));
        continue;
      }
      if (!idle) {
        throw new BrowserToolError('browser_error', `All ${this.config.maxSessions} browser sessions are in use by other conversations (maxSessions).`, {
          hint: 'The browser is at capacity. Wait half a minute and call the tool again.',
          retryable: true,
        });
      }
      await this.evict(idle, `to make room for other conversations (maxSessions ${this.config.maxSessions})`);
    }
  }

  private async evict(session: BrowserSession, reason: string): Promise<void> {
    if (this.sessions.get(session.key) !== session) return;
    this.sessions.delete(session.key);
    this.evicted.set(session.key, reason);
    if (this.evicted.size > REMEMBERED) this.evicted.delete(this.evicted.keys().next().value!);
    await this.closeCounted(session);
  }

  private async closeCounted(session: BrowserSession): Promise<void> {
    this.closing++;
    try {
      await session.close();
    } finally {
      this.closing--;
    }
  }

  private storageStateFor(key: string): StorageState | string | undefined {
    const { storageState } = this.config;
    return typeof storageState === 'function' ? storageState(key) : storageState;
  }

  private startSweeping(): void {
    if (this.sweeper || !Number.isFinite(this.config.idleTimeout)) return;
    this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, Math.max(1_000, this.config.idleTimeout / 4)));
    this.sweeper.unref(); // an idle sweeper must not keep the process alive
  }
}
