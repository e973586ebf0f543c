/**
 * Where a conversation's browser is kept between processes (replicas, restarts, serverless instances): a store of
 * opaque bytes by session key, and a lease per key so that only one process drives a conversation at a time.
 * Stores never see a session in clear: what they hold is sealed by envelope.ts before it reaches them.
 */
import type { BrowserContext } from 'playwright-core';

/** A lease a process holds on a session key. */
export interface Lease {
  /**
   * What the last holder released the lease with: the stamp of the state it saved last (undefined when nothing was
   * saved yet). A process whose copy of the session carries another stamp holds an old copy and must load it again.
   */
  stamp?: string;
}

export interface SessionStore {
  /** The bytes saved under `key`, or undefined. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Saves `data` under `key`, replacing what was there; a reader sees the old bytes or the new, never a mix. */
  put(key: string, data: Uint8Array): Promise<void>;
  /** Forgets `key`: its bytes and its lease. */
  delete(key: string): Promise<void>;
  /**
   * Takes the lease on `key` for `holder` until `ttlMs` from now, when it is free, expired or already `holder`'s;
   * undefined when another holder has it. Atomic across every process sharing the store.
   */
  acquire(key: string, holder: string, ttlMs: number): Promise<Lease | undefined>;
  /** Extends `holder`'s lease; false when it was lost (expired and taken by another). */
  renew(key: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Lets the lease go, leaving `stamp` (when given) for the next holder to read. Does nothing unless `holder` has it. */
  release(key: string, holder: string, stamp?: string): Promise<void>;
  /** Lets go of connections and files. */
  close?(): Promise<void>;
}

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** One tab as saved: enough to open it again. */
export interface SavedTab {
  url: string;
  title: string;
}

/** What is kept of a session: its logins and storage, its tabs, and what its next result still had to say. */
export interface SavedSession {
  /** Cookies and each origin's storage; absent when the store may not hold secrets (no encryption key). */
  storage?: StorageState;
  tabs: SavedTab[];
  /** Index of the active tab in `tabs`, -1 when none was active. */
  active: number;
  /** Notices not yet shown to the model. */
  notices: string[];
  /** The session's downloads (files/downloads.ts `SavedDownload`): listed, with the bytes of the newest up to 5 MB in all. */
  downloads?: Array<{ name: string; data?: string; [field: string]: unknown }>;
  /** The refs the model was given for the active tab's page, with role and name, to find them again once it is loaded anew. */
  refs?: { url: string; refs: Array<[ref: string, role: string, name: string]> };
}
