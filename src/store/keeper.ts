/**
 * What a process does with a session store: takes the lease of a conversation for the calls it runs (renewed
 * while they run), reads a saved session back, and saves one sealed. The registry (session/registry.ts) decides
 * when; this module knows nothing of browsers.
 */
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { BrowserToolError } from '../errors.js';
import { open, seal, storeKey, UnreadableState } from './envelope.js';
import type { SavedSession, SessionStore } from './types.js';

/** How often a process that waits for another's lease asks again. */
const POLL_MS = 100;

export interface KeeperOptions {
  /** The configured encryption secret, if any. */
  secret?: string;
  /** Save cookies and storage in clear when there is no secret. */
  allowPlaintext: boolean;
  /** How long a lease lasts unless renewed; a process that dies holding one blocks its conversation this long. */
  leaseMs: number;
  /** Whether a call of this key is running here: a lease taken for one that never ran is let go after `leaseMs`. */
  inUse: (key: string) => boolean;
  /** A lease was taken for calls that never ran (or ended unseen): the registry saves and lets go. */
  abandoned: (key: string) => void;
}

interface Held {
  /** Calls of this process that took the lease and have not ended. */
  count: number;
  /** The stamp of the state the store holds for the key, as this process knows it. */
  stamp?: string;
  lastTaken: number;
  renewer?: NodeJS.Timeout;
  /** Set while the store is asked for the lease: other calls of the key wait for that answer. */
  taking?: Promise<unknown>;
  /** The lease expired before it was renewed (this process stalled) and may be another's now: nothing is saved over theirs. */
  lost?: boolean;
}

export class SessionKeeper {
  /** Who this process is in the store's leases: `host:pid:random` (the directory store reads the first two). */
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** Whether cookies and storage are saved (encrypted, or in clear because allowed). */
  readonly keepsLogins: boolean;
  private readonly key: Buffer | undefined;
  private readonly held = new Map<string, Held>();
  private readonly releasing = new Map<string, Promise<void>>();
  /** A digest of what was saved last per key, so a call that changed nothing writes nothing. */
  private readonly lastSaved = new Map<string, string>();

  constructor(
    readonly store: SessionStore,
    private readonly options: KeeperOptions,
  ) {
    this.key = options.secret ? storeKey(options.secret) : undefined;
    this.keepsLogins = this.key !== undefined || options.allowPlaintext;
  }

  /**
   * Takes the lease of `key` for one call, waiting up to `waitMs` for another process to let it go; past that, a
   * retryable `busy` error. Returns the stamp of the state the store holds.
   */
  async hold(key: string, waitMs: number): Promise<string | undefined> {
    const until = Date.now() + waitMs;
    for (;;) {
      await this.releasing.get(key);
      const held = this.held.get(key);
      if (held?.taking) {
        await held.taking.catch(() => {});
        continue;
      }
      if (held) {
        held.count++;
        held.lastTaken = Date.now();
        return held.stamp;
      }
      const entry: Held = { count: 0, lastTaken: Date.now() };
      const taking = this.take(key, until);
      entry.taking = taking;
      this.held.set(key, entry);
      try {
        entry.stamp = await taking;
      } catch (error) {
        this.held.delete(key);
        throw error;
      }
      entry.taking = undefined;
      entry.count = 1;
      entry.lastTaken = Date.now();
      entry.renewer = setInterval(() => void this.renew(key, entry), Math.max(50, this.options.leaseMs / 3));
      entry.renewer.unref();
      return entry.stamp;
    }
  }

  /** One call of `key` ended; true when no other call of this process holds the lease. */
  end(key: string): boolean {
    const held = this.held.get(key);
    if (!held) return true;
    held.count = Math.max(0, held.count - 1);
    return held.count === 0;
  }

  /** Whether this process holds the lease of `key`. */
  holds(key: string): boolean {
    const held = this.held.get(key);
    return held !== undefined && !held.taking;
  }

  /** The stamp this process knows for `key` (what it saved or loaded last). */
  stampOf(key: string): string | undefined {
    return this.held.get(key)?.stamp;
  }

  /** Lets the lease of `key` go, unless a call of this process took it again meanwhile. */
  async release(key: string): Promise<void> {
    const held = this.held.get(key);
    if (!held || held.taking || held.count > 0) return;
    clearInterval(held.renewer);
    this.held.delete(key);
    const going = this.store.release(key, this.holder, held.stamp).catch(() => {
      // The lease expires by itself; nothing else to do.
    });
    this.releasing.set(key, going);
    await going;
    if (this.releasing.get(key) === going) this.releasing.delete(key);
  }

  /** The saved session of `key`, if any; what made it unreadable, if it was. Never throws for bad bytes. */
  async load(key: string): Promise<{ saved?: SavedSession; unreadable?: string }> {
    const bytes = await unreachable(this.store.get(key));
    if (!bytes) return {};
    try {
      const saved = open(bytes, key, this.key);
      this.lastSaved.set(key, digest(JSON.stringify(saved)));
      return { saved };
    } catch (error) {
      if (error instanceof UnreadableState) return { unreadable: error.message };
      throw error;
    }
  }

  /**
   * Saves `saved` under `key` while this process holds its lease, and returns the bytes written (0 when nothing
   * changed since the last save). Cookies and storage are left out when they may not be stored. `saw` hears the
   * new stamp in the same instant it is set, so a call taking the lease then finds the copy current.
   */
  async save(key: string, saved: SavedSession, saw: (stamp: string | undefined) => void): Promise<number> {
    const held = this.held.get(key);
    if (!held || held.taking || held.lost) return 0;
    const kept: SavedSession = this.keepsLogins ? saved : { ...saved, storage: undefined };
    const text = digest(JSON.stringify(kept));
    if (this.lastSaved.get(key) === text) return 0;
    const bytes = seal(kept, key, this.key);
    await this.store.put(key, bytes);
    this.lastSaved.set(key, text);
    held.stamp = randomUUID();
    saw(held.stamp);
    return bytes.byteLength;
  }

  /** Forgets the saved session of `key` (the user closed it for good). */
  async forget(key: string): Promise<void> {
    this.lastSaved.delete(key);
    const held = this.held.get(key);
    if (held) held.stamp = undefined;
    await this.store.delete(key);
  }

  async close(): Promise<void> {
    for (const key of [...this.held.keys()]) {
      const held = this.held.get(key)!;
      held.count = 0;
      await this.release(key);
    }
    await this.store.close?.();
  }

  private async take(key: string, until: number): Promise<string | undefined> {
    for (;;) {
      const lease = await unreachable(this.store.acquire(key, this.holder, this.options.leaseMs));
      if (lease) return lease.stamp;
      const now = Date.now();
      if (now >= until) {
        throw new BrowserToolError('busy', "Another process of this server is driving this conversation's browser right now, and did not finish in time.", {
          hint: 'Wait a few seconds and call the tool again: the browser is still there, with its pages and logins.',
          retryable: true,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, until - now)));
    }
  }

  private async renew(key: string, held: Held): Promise<void> {
    if (this.held.get(key) !== held || held.taking) return;
    if (!this.options.inUse(key) && Date.now() - held.lastTaken > this.options.leaseMs) {
      held.count = 0;
      this.options.abandoned(key);
      return;
    }
    if (!(await this.store.renew(key, this.holder, this.options.leaseMs).catch(() => true))) held.lost = true;
  }
}

/**
 * A store that fails to answer (its database down, its disk full) fails the call with a retryable error that says
 * so, rather than driving the browser without the lease or from a copy that may be old.
 */
async function unreachable<T>(asked: Promise<T>): Promise<T> {
  try {
    return await asked;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new BrowserToolError('browser_error', `The session store that keeps this conversation's browser did not answer (${reason}).`, {
      hint: 'Call the tool again in a few seconds; if it keeps failing, the server operator must check the session store.',
      retryable: true,
    });
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}
