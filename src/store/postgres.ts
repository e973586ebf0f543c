/**
 * A session store shared by many processes, on Postgres (the engine of Mastra's `PostgresStore`): one table holding
 * each session's sealed bytes and its lease, the lease taken with one upsert whose condition Postgres checks on the
 * row it has locked, so two processes never both get it. Give it the client you already have (a node-postgres
 * `Pool` or `Client`, the `pool` of Mastra's `PostgresStore`: anything with `query(text, params)` returning
 * `{ rows }`), or a connection string.
 */
import type { Lease, SessionStore } from './types.js';

/** The part of a Postgres client this store uses: node-postgres' `Pool` and `Client` have it, and so does PGlite. */
export interface PostgresClientLike {
  query(text: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

export type PostgresSessionStoreOptions =
  | { client: PostgresClientLike; table?: string }
  | { connectionString: string; table?: string };

/** A plain SQL name, or one in a schema (`browser.sessions`): it is written into statements, so nothing else passes. */
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** Errors of two processes creating the table at the same moment: the other one made it, which is all we wanted. */
const CREATED_BY_ANOTHER = new Set(['42P07', '23505']);

/**
 * Lease times are the database's clock, never a process's: replicas on different hosts disagree on the time, and
 * the one clock they all read is the server's.
 */
const NOW = 'clock_timestamp()';
const LATER = (param: string) => `clock_timestamp() + ${param} * interval '1 millisecond'`;

export class PostgresSessionStore implements SessionStore {
  private ready: Promise<PostgresClientLike> | undefined;
  private pool: { end(): Promise<void> } | undefined;
  private readonly table: string;

  constructor(private readonly options: PostgresSessionStoreOptions) {
    this.table = options.table ?? 'mastra_browser_sessions';
    if (!TABLE_NAME.test(this.table)) throw new Error(`PostgresSessionStore: table must be a plain SQL name (or schema.name), got "${this.table}".`);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const db = await this.db();
    const { rows } = await db.query(`SELECT data FROM ${this.table} WHERE key = $1`, [key]);
    const data = rows[0]?.data;
    return data === undefined || data === null ? undefined : (data as Uint8Array);
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const db = await this.db();
    // Only the bytes change: a lease held on the key stays as it is.
    await db.query(
      `INSERT INTO ${this.table} (key, data, updated_at) VALUES ($1, $2, ${NOW})
       ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data, updated_at = EXCLUDED.updated_at`,
      [key, data],
    );
  }

  async delete(key: string): Promise<void> {
    const db = await this.db();
    await db.query(`DELETE FROM ${this.table} WHERE key = $1`, [key]);
  }

  async acquire(key: string, holder: string, ttlMs: number): Promise<Lease | undefined> {
    const db = await this.db();
    // Taken when there is no row, when the lease is free or expired, or when it is already ours; else no row comes back.
    const { rows } = await db.query(
      `INSERT INTO ${this.table} AS t (key, holder, expires_at) VALUES ($1, $2, ${LATER('$3')})
       ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE t.holder IS NULL OR t.holder = EXCLUDED.holder OR t.expires_at <= ${NOW}
       RETURNING t.stamp`,
      [key, holder, ttlMs],
    );
    if (!rows.length) return undefined;
    const stamp = rows[0]!.stamp;
    return { stamp: typeof stamp === 'string' ? stamp : undefined };
  }

  async renew(key: string, holder: string, ttlMs: number): Promise<boolean> {
    const db = await this.db();
    const { rows } = await db.query(
      `UPDATE ${this.table} SET expires_at = ${LATER('$3')} WHERE key = $1 AND holder = $2 AND expires_at > ${NOW} RETURNING 1 AS renewed`,
      [key, holder, ttlMs],
    );
    return rows.length > 0;
  }

  async release(key: string, holder: string, stamp?: string): Promise<void> {
    const db = await this.db();
    await db.query(
      `UPDATE ${this.table} SET holder = NULL, expires_at = 'epoch', stamp = COALESCE($3, stamp) WHERE key = $1 AND holder = $2`,
      [key, holder, stamp ?? null],
    );
  }

  async close(): Promise<void> {
    // A client handed in belongs to its owner (Mastra's storage, the app): only a pool this store opened is ended.
    const pool = this.pool;
    this.pool = undefined;
    this.ready = undefined;
    await pool?.end();
  }

  private db(): Promise<PostgresClientLike> {
    // A failed connection is tried again by the next call rather than remembered.
    return (this.ready ??= this.connect().catch(async (error: unknown) => {
      this.ready = undefined;
      await this.pool?.end().catch(() => {});
      this.pool = undefined;
      throw error;
    }));
  }

  private async connect(): Promise<PostgresClientLike> {
    let client: PostgresClientLike;
    if ('client' in this.options) {
      client = this.options.client;
    } else {
      // Not a dependency of this package: whoever uses this store has it (with @mastra/pg, it comes along).
      const name = 'pg';
      const pg = (await import(name).catch(() => {
        throw new Error('PostgresSessionStore with a connectionString needs the pg package: npm install pg');
      })) as { default?: PgModule } & PgModule;
      const pool = new (pg.default ?? pg).Pool({ connectionString: this.options.connectionString });
      this.pool = pool;
      client = pool;
    }
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.table} (
           key TEXT PRIMARY KEY,
           data BYTEA,
           updated_at TIMESTAMPTZ,
           holder TEXT,
           expires_at TIMESTAMPTZ NOT NULL DEFAULT 'epoch',
           stamp TEXT
         )`,
      );
    } catch (error) {
      if (!CREATED_BY_ANOTHER.has(String((error as { code?: unknown }).code))) throw error;
    }
    return client;
  }
}

interface PgModule {
  Pool: new (config: { connectionString: string }) => PostgresClientLike & { end(): Promise<void> };
}
