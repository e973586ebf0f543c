/**
 * A session store shared by many processes, on LibSQL (SQLite's open fork, which Mastra's `LibSQLStore` runs on):
 * a `file:` database for the processes of one host, a `libsql://` server (sqld, Turso) for replicas on many. Two
 * tables: the sealed sessions, and the leases, taken with one upsert whose condition the engine checks atomically.
 * Give it a URL, or the `@libsql/client` client your Mastra storage already uses.
 */
import type { Lease, SessionStore } from './types.js';

/** The part of `@libsql/client`'s Client this store uses. */
export interface LibSQLClientLike {
  execute(statement: { sql: string; args?: Array<string | number | null | Uint8Array> } | string): Promise<{ rows: ArrayLike<Record<string, unknown>>; rowsAffected: number }>;
  close?(): void;
}

export type LibSQLSessionStoreOptions =
  | { url: string; authToken?: string; tablePrefix?: string }
  | { client: LibSQLClientLike; tablePrefix?: string };

export class LibSQLSessionStore implements SessionStore {
  private client: LibSQLClientLike | undefined;
  private ready: Promise<LibSQLClientLike> | undefined;
  private readonly sessions: string;
  private readonly leases: string;

  constructor(private readonly options: LibSQLSessionStoreOptions) {
    const prefix = options.tablePrefix ?? 'mastra_browser';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) throw new Error(`LibSQLSessionStore: tablePrefix must be a plain SQL name, got "${prefix}".`);
    this.sessions = `${prefix}_sessions`;
    this.leases = `${prefix}_session_leases`;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const db = await this.db();
    const { rows } = await db.execute({ sql: `SELECT data FROM ${this.sessions} WHERE key = ?`, args: [key] });
    const data = rows[0]?.data;
    if (data === undefined || data === null) return undefined;
    return data instanceof ArrayBuffer ? new Uint8Array(data) : (data as Uint8Array);
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const db = await this.db();
    await db.execute({
      sql: `INSERT INTO ${this.sessions} (key, data, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
      args: [key, data, Date.now()],
    });
  }

  async delete(key: string): Promise<void> {
    const db = await this.db();
    await db.execute({ sql: `DELETE FROM ${this.sessions} WHERE key = ?`, args: [key] });
    await db.execute({ sql: `DELETE FROM ${this.leases} WHERE key = ?`, args: [key] });
  }

  async acquire(key: string, holder: string, ttlMs: number): Promise<Lease | undefined> {
    const db = await this.db();
    const now = Date.now();
    // Taken when there is no lease row, when it is free or expired, or when it is already ours; else no row comes back.
    const { rows } = await db.execute({
      sql: `INSERT INTO ${this.leases} (key, holder, expires_at, stamp) VALUES (?, ?, ?, NULL)
            ON CONFLICT(key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
            WHERE ${this.leases}.holder IS NULL OR ${this.leases}.holder = excluded.holder OR ${this.leases}.expires_at <= ?
            RETURNING stamp`,
      args: [key, holder, now + ttlMs, now],
    });
    if (!rows.length) return undefined;
    const stamp = rows[0]!.stamp;
    return { stamp: typeof stamp === 'string' ? stamp : undefined };
  }

  async renew(key: string, holder: string, ttlMs: number): Promise<boolean> {
    const db = await this.db();
    const now = Date.now();
    const { rowsAffected } = await db.execute({
      sql: `UPDATE ${this.leases} SET expires_at = ? WHERE key = ? AND holder = ? AND expires_at > ?`,
      args: [now + ttlMs, key, holder, now],
    });
    return rowsAffected > 0;
  }

  async release(key: string, holder: string, stamp?: string): Promise<void> {
    const db = await this.db();
    await db.execute({
      sql: `UPDATE ${this.leases} SET holder = NULL, expires_at = 0, stamp = COALESCE(?, stamp) WHERE key = ? AND holder = ?`,
      args: [stamp ?? null, key, holder],
    });
  }

  async close(): Promise<void> {
    // A client handed in belongs to its owner (Mastra's storage): only one this store opened is closed.
    if ('url' in this.options) this.client?.close?.();
    this.client = undefined;
    this.ready = undefined;
  }

  private db(): Promise<LibSQLClientLike> {
    // A failed connection is tried again by the next call rather than remembered.
    return (this.ready ??= this.connect().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    }));
  }

  private async connect(): Promise<LibSQLClientLike> {
    let client: LibSQLClientLike;
    if ('client' in this.options) {
      client = this.options.client;
    } else {
      // Not a dependency of this package: whoever uses this store has it (with @mastra/libsql, it comes along).
      const name = '@libsql/client';
      const libsql = (await import(name).catch(() => {
        throw new Error('LibSQLSessionStore with a url needs the @libsql/client package: npm install @libsql/client');
      })) as { createClient(config: { url: string; authToken?: string }): LibSQLClientLike };
      client = libsql.createClient({ url: this.options.url, authToken: this.options.authToken });
      if (this.options.url.startsWith('file:')) {
        // Several processes on one database file: readers do not block the writer, and a writer waits its turn.
        await client.execute('PRAGMA journal_mode = WAL');
        await client.execute('PRAGMA busy_timeout = 5000');
      }
    }
    await client.execute(`CREATE TABLE IF NOT EXISTS ${this.sessions} (key TEXT PRIMARY KEY, data BLOB NOT NULL, updated_at INTEGER NOT NULL)`);
    await client.execute(`CREATE TABLE IF NOT EXISTS ${this.leases} (key TEXT PRIMARY KEY, holder TEXT, expires_at INTEGER NOT NULL, stamp TEXT)`);
    this.client = client;
    return client;
  }
}
