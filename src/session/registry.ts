/**
 * The sessions of one toolset, by key (a Mastra thread, resource, workflow run or MCP connection). Creates
 * a session on its first call, closes sessions left idle for `idleTimeout`, and keeps at most `maxSessions`
 * open by closing the one unused longest. A conversation whose session was closed is told so on its next call.
 *
 * With a session store (`sessionStore`), a call first takes its conversation's lease, so one process drives it
 * at a time; a session this process does not hold, or holds an older copy of, is resumed from the store; and
 * once its calls are done the session is saved and the lease let go (after the reply: off its critical path).
 */
import type { SharedBrowser } from '../browser/shared.js';
import type { ResolvedConfig, StorageState } from '../config.js';
import { BrowserToolError } from '../errors.js';
import { SessionKeeper } from '../store/keeper.js';
import type { SavedDownload } from '../files/downloads.js';
import type { SavedSession } from '../store/types.js';
import { restoredNotice } from './resume.js';
import { BrowserSession } from './session.js';
import { Slots } from './slots.js';
import type { Tab } from './tab.js';

/** A session used this recently belongs to a conversation in progress: it is not evicted to make room. */
const IN_USE_MS = 30_000;

/** How many closed sessions are remembered, to tell their conversations why the browser is empty. */
const REMEMBERED = 1_000;

/** A lease lasts this long unless renewed (every third of it while a call runs): what a crashed holder costs. */
const LEASE_MS = 15_000;

/**
 * Calls that only look at the page: no save after them. Reading a session to save it costs a hidden page load
 * per site it visited that no tab shows (Playwright's storageState), so the most frequent calls skip it.
 */
const LOOKS_ONLY = new Set(['snapshot', 'read', 'screenshot']);

export class SessionRegistry {
  private readonly sessions = new Map<string, BrowserSession>();
  /** Sessions closed by the registry (not by the user), with the reason, for the next call of their key. */
  private readonly evicted = new Map<string, string>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly activeTabListeners = new Set<(session: BrowserSession, tab: Tab | undefined) => void>();
  private readonly slots: Slots;
  /** Sessions taken out of the map whose contexts are still closing: they count against maxSessions until gone. */
  private closing = 0;
  /** The session store's side of this process (leases, saving, loading), when a store is configured. */
  readonly keeper: SessionKeeper | undefined;
  /** The stamp of the stored state each session is a copy of: another stamp in the store means another process moved on. */
  private readonly copies = new WeakMap<BrowserSession, string | undefined>();
  /** Conversations whose session a call may have changed since it was last saved. */
  private readonly unsaved = new Set<string>();
  /** The save under way per conversation, which the next waits for. */
  private readonly saving = new Map<string, Promise<void>>();
  /** What the last save cost (read, seal and write; `bytes` 0 when nothing had changed), for operators and the benchmark. */
  lastSave: { bytes: number; ms: number } | undefined;

  constructor(
    private readonly browser: SharedBrowser,
    private readonly config: ResolvedConfig,
  ) {
    this.slots = new Slots(config.maxConcurrentCalls, config.queueTimeout);
    this.keeper = config.sessionStore
      ? new SessionKeeper(config.sessionStore, {
          secret: config.sessionStoreKey,
          allowPlaintext: config.allowPlaintext,
          leaseMs: LEASE_MS,
          inUse: (key) => this.sessions.get(key)?.busy ?? false,
          abandoned: (key) => this.done(key, { ended: true }),
        })
      : undefined;
  }

  /**
   * The session of `key`, created (or resumed from the store) if needed, and what its next result must say about
   * its past. When every session belongs to a conversation in progress, a new one waits up to `waitMs` for one to
   * go quiet; with a store, the call waits as long for another process to let the conversation go.
   */
  async get(key: string, waitMs = 0): Promise<{ session: BrowserSession; notices: string[] }> {
    if (!this.keeper) return this.open(key, waitMs);
    const stamp = await this.keeper.hold(key, waitMs);
    try {
      const existing = this.sessions.get(key);
      if (existing && this.copies.get(existing) !== stamp) {
        // Another process drove this conversation since this copy was made: it is closed unsaved and resumed anew.
        this.sessions.delete(key);
        await this.closeCounted(existing);
      }
      if (this.sessions.has(key)) return { session: this.sessions.get(key)!, notices: [] };
      const { saved, unreadable } = await this.keeper.load(key);
      const opened = await this.open(key, waitMs, saved);
      if (opened.raced) return opened;
      this.copies.set(opened.session, stamp);
      // Saved after its first call whatever it is: the notices given now must not be given again elsewhere.
      if (unreadable || saved) this.unsaved.add(key);
      if (unreadable) opened.notices = [`This conversation's saved browser state could not be read (${unreadable}): a new empty browser session started; navigate again.`];
      else if (saved) opened.notices = [restoredNotice(saved, this.keeper.keepsLogins), ...saved.notices];
      return opened;
    } catch (error) {
      if (this.keeper.end(key)) void this.keeper.release(key);
      throw error;
    }
  }

  private async open(key: string, waitMs: number, saved?: SavedSession): Promise<{ session: BrowserSession; notices: string[]; raced?: boolean }> {
    const existing = this.sessions.get(key);
    if (existing) return { session: existing, notices: [], raced: true };
    await this.makeRoom(Date.now() + waitMs);
    // Another call for the same key may have created it while room was being made.
    const raced = this.sessions.get(key);
    if (raced) return { session: raced, notices: [], raced: true };
    const session = new BrowserSession(key, this.browser, this.config, {
      storageState: saved?.storage ?? this.storageStateFor(key),
      slots: this.slots,
      reopen: saved,
      downloads: saved?.downloads as SavedDownload[] | undefined,
      afterCall: (what) => {
        if (!this.keeper) return;
        if (!LOOKS_ONLY.has(what)) this.unsaved.add(key);
        if (this.keeper.end(key)) void this.saveAndRelease(key);
      },
    });
    this.sessions.set(key, session);
    session.tabs.onActiveChange((tab) => {
      for (const listener of this.activeTabListeners) listener(session, tab);
    });
    this.startSweeping();
    const reason = this.evicted.get(key);
    this.evicted.delete(key);
    const notices = reason ? [`This conversation's browser session was closed ${reason}: its tabs, cookies and logins are gone. A new session started; navigate again.`] : [];
    return { session, notices };
  }

  /**
   * A caller of `get` that runs no call on the session (a custom step using its page) is done with it: with a
   * store, the session is saved and its lease let go. Tool calls need not call this: their end does it.
   */
  done(key: string, { ended = false } = {}): void {
    if (!this.keeper) return;
    this.unsaved.add(key);
    if (ended || this.keeper.end(key)) void this.saveAndRelease(key);
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

  /**
   * Closes one session (its context, tabs and downloads in progress). Its next call starts a fresh one, unless a
   * session store keeps it: then it is saved first, and resumed by its next call, unless `forget` deletes it.
   */
  async closeSession(key: string, { forget = false } = {}): Promise<void> {
    const session = this.sessions.get(key);
    if (session) {
      this.sessions.delete(key);
      await this.closeCounted(session, { save: !forget });
    }
    if (forget) await this.keeper?.forget(key);
  }

  async closeAll(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    this.evicted.clear();
    await Promise.all(all.map(async (session) => {
      await this.saveLast(session);
      await session.close();
    }));
    await this.keeper?.close();
  }

  /** Closes sessions idle for longer than `idleTimeout`. Runs on a timer; exposed for tests and operators. */
  async sweep(now = Date.now()): Promise<string[]> {
    const idle = [...this.sessions.values()].filter((s) => !s.busy && now - s.lastUsed >= this.config.idleTimeout);
    const minutes = Math.round(this.config.idleTimeout / 60_000);
    await Promise.all(idle.map((s) => this.evict(s, `after ${minutes >= 1 ? `${minutes} min` : `${Math.round(this.config.idleTimeout / 1000)} s`} without use (idleTimeout)`)));
    return idle.map((s) => s.key);
  }

  /** Hears every session's `tabs.onActiveChange`, sessions created later included (the provider's live view). */
  onActiveTabChange(listener: (session: BrowserSession, tab: Tab | undefined) => void): () => void {
    this.activeTabListeners.add(listener);
    return () => this.activeTabListeners.delete(listener);
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
    await this.closeCounted(session, { save: true });
  }

  /**
   * The calls of `key` in this process are done: the session is saved, then its lease let go. One after the
   * other per key; only the last save queued lets the lease go, so that another process never reads the store
   * while a later call's save is still to be written.
   */
  private saveAndRelease(key: string): Promise<void> {
    const next: Promise<void> = (this.saving.get(key) ?? Promise.resolve()).then(() => this.saveThenRelease(key, next));
    this.saving.set(key, next);
    void next.finally(() => {
      if (this.saving.get(key) === next) this.saving.delete(key);
    });
    return next;
  }

  private async saveThenRelease(key: string, self: Promise<void>): Promise<void> {
    const session = this.sessions.get(key);
    try {
      if (session && this.unsaved.delete(key)) await this.save(session);
    } finally {
      if (this.saving.get(key) === self) await this.keeper!.release(key);
    }
  }

  /**
   * Saves a session about to close, when this process may: it holds the lease or can take it at once, and its
   * copy is the one the store last had (else another process moved on, and this copy must not overwrite it).
   */
  private async saveLast(session: BrowserSession): Promise<void> {
    if (!this.keeper) return;
    try {
      const stamp = await this.keeper.hold(session.key, 0);
      try {
        if (stamp === this.copies.get(session)) await this.save(session);
      } finally {
        if (this.keeper.end(session.key)) await this.keeper.release(session.key);
      }
    } catch {
      // Another process drives this conversation now: what it saves is newer than this copy.
    }
  }

  private async save(session: BrowserSession): Promise<void> {
    const started = performance.now();
    try {
      const read = await session.saveable();
      if (!read) return;
      // What the page showed (its address, its refs' names) may echo a secret; cookies and storage are the site's own.
      const saved = this.config.secrets ? { ...read, ...this.config.secrets.scrub({ tabs: read.tabs, refs: read.refs, notices: read.notices }) } : read;
      const bytes = await this.keeper!.save(session.key, saved, (stamp) => this.copies.set(session, stamp));
      this.lastSave = { bytes, ms: performance.now() - started };
    } catch (error) {
      // Only the reason: what the session holds (cookies, storage) never goes to a log.
      console.warn(`mastra-browser-toolset: could not save browser session ${JSON.stringify(session.key)} to the session store: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }

  /** Closes a session out of the map, saved first when asked; it counts against maxSessions until its context is gone. */
  private async closeCounted(session: BrowserSession, { save = false } = {}): Promise<void> {
    this.closing++;
    try {
      if (save) await this.saveLast(session);
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
