/**
 * A conversation's browser kept in a session store and resumed by other processes: real OS processes (each its
 * own Chromium) sharing one store and one local site with a login, for the directory store, LibSQL and Postgres.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { BrowserToolset, DEFAULT_CHROMIUM_ARGS, DirectoryStore, findBrowser, LibSQLSessionStore, PostgresSessionStore, type SessionStore } from '../src/index.js';
import { seal } from '../src/store/envelope.js';
import { startLoginSite, type LoginSite } from './helpers/loginSite.js';
import { startPostgres, type TestPostgres } from './helpers/postgres.js';
import { browserPidsUnder, killWithBrowsers, waitForExit } from './helpers/processes.js';
import { refOf } from './helpers/refs.js';
import { createTestToolset, OFFLINE_ARGS } from './helpers/toolset.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY = 'a passphrase only the tests know';
const RESTORED = "This conversation's browser was restored from saved state: pages were loaded again; unsaved form input and scroll positions were lost; logins kept.";

/** One server process with the store; `call` sends a tool call of a thread and returns its structured result. */
class Worker {
  readonly child: ChildProcess;
  private next = 0;
  private readonly waiting = new Map<number, (result: any) => void>();
  readonly ready: Promise<void>;
  stderr = '';

  constructor(store: string, wsEndpoint?: string) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'test/session-store.worker.ts'], {
      cwd: ROOT,
      env: { ...process.env, STORE: store, MASTRA_BROWSER_STORE_KEY: KEY, ...(wsEndpoint ? { WS_ENDPOINT: wsEndpoint } : {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr!.on('data', (chunk) => (this.stderr += chunk));
    let ready = () => {};
    this.ready = new Promise((resolve) => (ready = resolve));
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line);
      if (message.ready) ready();
      else this.waiting.get(message.id)?.(message.result);
    });
  }

  call(tool: string, input: Record<string, unknown>, thread = 'chat'): Promise<any> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, resolve);
      this.child.once('exit', (code) => reject(new Error(`worker exited (${code}):\n${this.stderr}`)));
      this.child.stdin!.write(`${JSON.stringify({ id, tool, input, thread })}\n`);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const browsers = browserPidsUnder(this.child.pid!);
    await this.call('close', {}).catch(() => {});
    await waitForExit([this.child.pid!, ...browsers]);
  }

  /** Ends the process at once, as a crash or an OOM kill would, with its browser. */
  async kill(): Promise<void> {
    await killWithBrowsers(this.child.pid!);
  }
}

/** Everything a result says, to search: its snapshot, notices and error. */
const text = (result: any) => JSON.stringify(result);

let site: LoginSite;
let postgres: TestPostgres;
const dirs: string[] = [];
beforeAll(async () => {
  [site, postgres] = await Promise.all([startLoginSite(), startPostgres()]);
});
afterAll(async () => {
  await Promise.all([site.close(), postgres.close()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Every file in `paths`, end to end. */
const filesOf = (paths: string[]) => Buffer.concat(paths.map((file) => readFileSync(file)));
/** One Postgres serves every test: each test directory gets a table of its own. */
const tableOf = (dir: string) => `sessions_${createHash('sha256').update(dir).digest('hex').slice(0, 12)}`;

const STORES: Array<{ name: string; make: (dir: string) => string; open: (dir: string) => SessionStore; stored: (dir: string) => Promise<Buffer> }> = [
  {
    name: 'a directory store',
    make: (dir) => `dir:${join(dir, 'sessions')}`,
    open: (dir) => new DirectoryStore(join(dir, 'sessions')),
    stored: async (dir) => filesOf(readdirSync(join(dir, 'sessions')).map((f) => join(dir, 'sessions', f))),
  },
  {
    name: 'a LibSQL store',
    make: (dir) => `libsql:file:${join(dir, 'sessions.db')}`,
    open: (dir) => new LibSQLSessionStore({ url: `file:${join(dir, 'sessions.db')}` }),
    // The database file and its write-ahead log.
    stored: async (dir) => filesOf(readdirSync(dir).map((f) => join(dir, f))),
  },
  {
    name: 'a Postgres store',
    make: (dir) => `postgres:${tableOf(dir)}:${postgres.url}`,
    open: (dir) => new PostgresSessionStore({ connectionString: postgres.url, table: tableOf(dir) }),
    // Every value of every row as the server gives it (bytes as bytes, not as hex text, where a cookie would hide).
    stored: async (dir) => {
      const client = new pg.Client(postgres.url);
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT key, data, holder, stamp FROM ${tableOf(dir)}`);
        return Buffer.concat(rows.flatMap((row) => Object.values(row).filter((v) => v !== null).map((v) => (Buffer.isBuffer(v) ? v : Buffer.from(String(v))))));
      } finally {
        await client.end();
      }
    },
  },
];

describe.each(STORES)('with $name shared by two processes', { timeout: 240_000 }, (kind) => {
  let dir: string;
  let a: Worker;
  let b: Worker;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'session-store-'));
    dirs.push(dir);
    a = new Worker(kind.make(dir));
    b = new Worker(kind.make(dir));
    await Promise.all([a.ready, b.ready]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('a conversation alternating between the processes call by call stays logged in on its page', async () => {
    const login = await a.call('browser_navigate', { url: site.url('/login') }, 'chat');
    expect(login.snapshot, text(login)).toContain('Signed in as Ada: step 1');

    let page = login.snapshot as string;
    const workers = [b, a, b, a];
    for (const [i, worker] of workers.entries()) {
      const next = await worker.call('browser_click', { ref: refOf(page, 'link', 'Next step') }, 'chat');
      expect(next.ok, text(next)).toBe(true);
      const snap = await worker.call('browser_snapshot', {}, 'chat');
      expect(snap.snapshot, text(snap)).toContain(`Signed in as Ada: step ${i + 2}`);
      // Each move to the other process is said once, in the call that resumed the browser there.
      expect(next.notices ?? []).toContain(RESTORED);
      expect(snap.notices ?? []).not.toContain(RESTORED);
      page = snap.snapshot;
    }
  });

  it('resumes every tab in its order, the active one active, and a switch to another shows its page', async () => {
    await a.call('browser_navigate', { url: site.url('/login') }, 'tabs');
    await a.call('browser_tabs', { action: 'new', url: site.url('/step/7') }, 'tabs');
    await a.call('browser_tabs', { action: 'new', url: site.url('/step/8') }, 'tabs');
    const switched = await a.call('browser_tabs', { action: 'switch', index: 1 }, 'tabs');
    expect(switched.ok, text(switched)).toBe(true);

    const listed = await b.call('browser_tabs', { action: 'list' }, 'tabs');
    expect(listed.notices, text(listed)).toEqual([RESTORED]);
    expect(listed.tabs.map((t: { url: string; active: boolean }) => [new URL(t.url).pathname, t.active])).toEqual([
      ['/step/1', false],
      ['/step/7', true],
      ['/step/8', false],
    ]);
    const other = await b.call('browser_tabs', { action: 'switch', index: 2 }, 'tabs');
    expect(text(other)).toContain('Signed in as Ada: step 8');
  });

  it("the stored bytes do not contain the login cookie's value in clear", async () => {
    const stored = await kind.stored(dir);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.includes(site.secret)).toBe(false);
    // The process that saved it could read it back: the cookie is in there, sealed.
    const tabs = await b.call('browser_tabs', { action: 'list' }, 'chat');
    expect(text(tabs)).toContain('/step/5');
  });

  it('a process killed in the middle of a conversation, then started again, loses only unsaved input, with one notice', async () => {
    const login = await a.call('browser_navigate', { url: site.url('/login') }, 'crash');
    const next = await a.call('browser_click', { ref: refOf(login.snapshot, 'link', 'Next step') }, 'crash');
    expect(next.ok, text(next)).toBe(true);
    const typed = await a.call('browser_type', { ref: refOf(next.snapshot ?? (await a.call('browser_snapshot', {}, 'crash')).snapshot, 'textbox', 'Note'), text: 'half a thought' }, 'crash');
    expect(typed.ok, text(typed)).toBe(true);
    await a.call('settled', {}, 'crash');
    await a.kill();

    a = new Worker(kind.make(dir));
    await a.ready;
    const resumed = await a.call('browser_snapshot', {}, 'crash');
    expect(resumed.notices, text(resumed)).toEqual([RESTORED]);
    expect(resumed.snapshot).toContain('Signed in as Ada: step 2');
    expect(resumed.snapshot).not.toContain('half a thought');
    const after = await a.call('browser_click', { ref: refOf(resumed.snapshot, 'link', 'Next step') }, 'crash');
    expect(after.ok, text(after)).toBe(true);
    expect(after.notices).toBeUndefined();
    expect((await a.call('browser_snapshot', {}, 'crash')).snapshot).toContain('Signed in as Ada: step 3');

    // Both processes killed and started again (a deploy that went badly): the conversation is still there.
    await a.call('settled', {}, 'crash');
    await Promise.all([a.kill(), b.kill()]);
    [a, b] = [new Worker(kind.make(dir)), new Worker(kind.make(dir))];
    await Promise.all([a.ready, b.ready]);
    for (const worker of [b, a]) {
      const back = await worker.call('browser_snapshot', {}, 'crash');
      expect(back.notices, text(back)).toEqual([RESTORED]);
      expect(back.snapshot).toContain('Signed in as Ada: step 3');
    }
  });

  it.runIf(kind.name === 'a directory store')('a process killed in the middle of a call leaves no lease behind on its host: the restarted one goes on at once', async () => {
    await a.call('browser_navigate', { url: site.url('/login') }, 'midcall');
    await a.call('settled', {}, 'midcall');
    void a.call('browser_navigate', { url: site.url('/hold/midcall?ms=5000') }, 'midcall').catch(() => {});
    await expect.poll(() => site.events.includes('enter midcall'), { timeout: 10_000 }).toBe(true);
    await a.kill();
    a = new Worker(kind.make(dir));
    await a.ready;
    // Pressing a key waits at most 4 s for the conversation, far less than the dead process's lease would last.
    const resumed = await a.call('browser_press', { key: 'Tab' }, 'midcall');
    expect(resumed.ok, text(resumed)).toBe(true);
    expect(resumed.notices).toEqual([RESTORED]);
    expect((await a.call('browser_snapshot', {}, 'midcall')).snapshot).toContain('Signed in as Ada: step 1');
  });

  it('two processes given the same conversation at once take turns; the page is that of the last call', async () => {
    await a.call('browser_navigate', { url: site.url('/login') }, 'both');
    await a.call('settled', {}, 'both');
    site.events.length = 0;
    const [first, second] = await Promise.all([
      a.call('browser_navigate', { url: site.url('/hold/a?ms=1500') }, 'both'),
      b.call('browser_navigate', { url: site.url('/hold/b?ms=1500') }, 'both'),
    ]);
    expect(first.ok, text(first)).toBe(true);
    expect(second.ok, text(second)).toBe(true);
    // Never both in the browser at once: each page was served whole before the next was asked for (the second
    // process, resuming, loads the first one's page again before its own).
    const order = site.events.filter((e) => /^(enter|leave) [ab]$/.test(e));
    for (let i = 0; i < order.length; i += 2) expect([order[i], order[i + 1]?.replace('leave', 'enter')], order.join(', ')).toEqual([order[i], order[i]]);
    expect(new Set(order.map((e) => e.slice(-1)))).toEqual(new Set(['a', 'b']));
    const last = order.at(-1)!.slice(-1);
    // Whichever process answers next shows the page of the call that ran last, still logged in.
    const now = await a.call('browser_snapshot', {}, 'both');
    expect(now.snapshot, text(now)).toContain(`Signed in as Ada: held ${last}`);
  });

  it('a call that cannot have the conversation within its time limit gets a retryable busy error', async () => {
    await a.call('browser_navigate', { url: site.url('/login') }, 'long');
    await a.call('settled', {}, 'long');
    const slow = a.call('browser_navigate', { url: site.url('/hold/long?ms=7000') }, 'long');
    await expect.poll(() => site.events.includes('enter long'), { timeout: 10_000 }).toBe(true);
    // Pressing a key may take 4 s (the action timeout), less than the other process keeps the conversation.
    const refused = await b.call('browser_press', { key: 'Tab' }, 'long');
    expect(refused.ok, text(refused)).toBe(false);
    expect(refused.error).toMatchObject({ code: 'busy', retryable: true });
    expect((await slow).ok).toBe(true);
    const then = await b.call('browser_snapshot', {}, 'long');
    expect(then.snapshot, text(then)).toContain('Signed in as Ada: held long');
  });

  it('a stored state that is cut short, of another version or sealed with another key gives a fresh session and a notice', async () => {
    const store = kind.open(dir);
    const sealed = (thread: string) => seal({ tabs: [{ url: site.url('/step/1'), title: 'Step 1' }], active: 0, notices: [] }, `thread:${thread}`, Buffer.alloc(32, 7));
    const otherVersion = (thread: string) => Object.assign(Buffer.from(sealed(thread)), { 4: 9 });
    const cases: Array<[string, Uint8Array, RegExp]> = [
      ['cut', sealed('cut').subarray(0, 20), /cut short|damaged/],
      ['version', otherVersion('version'), /another format \(version 9/],
      ['key', sealed('key'), /cannot be decrypted with this key/],
    ];
    for (const [bad, bytes, reason] of cases) {
      await store.put(`thread:${bad}`, bytes);
      const result = await b.call('browser_snapshot', {}, bad);
      expect(result.ok, text(result)).toBe(true);
      expect(result.notices, text(result)).toHaveLength(1);
      expect(result.notices[0]).toMatch(/^This conversation's saved browser state could not be read \(/);
      expect(result.notices[0]).toMatch(reason);
      const fresh = await b.call('browser_tabs', { action: 'list' }, bad);
      expect(fresh.ok).toBe(true);
      expect(text(fresh)).toContain('about:blank');
      await b.call('settled', {}, bad);
      // The next process reads what this one saved over it: no notice of damage any more.
      const next = await a.call('browser_snapshot', {}, bad);
      expect(next.ok, text(next)).toBe(true);
      expect(text(next)).not.toContain('could not be read');
    }
    await store.close?.();
  });
});

describe.each(STORES)('the leases of $name', (kind) => {
  it('one holder at a time; free again once released (leaving its stamp for the next) or expired', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'session-store-'));
    dirs.push(dir);
    const [one, two] = [kind.open(dir), kind.open(dir)];
    try {
      expect(await one.acquire('k', 'one', 60_000)).toEqual({ stamp: undefined });
      expect(await two.acquire('k', 'two', 60_000)).toBeUndefined();
      expect(await one.acquire('k', 'one', 60_000)).toEqual({ stamp: undefined }); // its own again: renewed
      await two.release('k', 'two', 'not-mine'); // not its lease: nothing happens
      expect(await two.acquire('k', 'two', 60_000)).toBeUndefined();
      await one.release('k', 'one', 'saved-1');
      expect(await two.acquire('k', 'two', 1)).toEqual({ stamp: 'saved-1' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Two's lease has expired: it can no longer renew it, and another may take it.
      expect(await two.renew('k', 'two', 60_000)).toBe(false);
      expect(await one.acquire('k', 'one', 60_000)).toEqual({ stamp: 'saved-1' });
      await one.put('k', new Uint8Array([1, 2, 3]));
      expect([...(await two.get('k'))!]).toEqual([1, 2, 3]);
      await two.delete('k');
      expect(await one.get('k')).toBeUndefined();
    } finally {
      await Promise.all([one.close?.(), two.close?.()]);
    }
  });
});

describe('replicas connected to one remote browser (a Playwright browser server)', { timeout: 180_000 }, () => {
  it('each connects on its own, and the store carries the conversation between them, logged in', async () => {
    const { chromium } = await import('playwright-core');
    const executablePath = (await findBrowser({})).executablePath!;
    const remote = await chromium.launchServer({ executablePath, args: [...DEFAULT_CHROMIUM_ARGS, ...OFFLINE_ARGS], port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'session-store-'));
    dirs.push(dir);
    const [a, b] = [new Worker(`dir:${dir}`, remote.wsEndpoint()), new Worker(`dir:${dir}`, remote.wsEndpoint())];
    try {
      await Promise.all([a.ready, b.ready]);
      const login = await a.call('browser_navigate', { url: site.url('/login') }, 'remote');
      expect(login.snapshot, text(login)).toContain('Signed in as Ada: step 1');
      const next = await b.call('browser_click', { ref: refOf(login.snapshot, 'link', 'Next step') }, 'remote');
      expect(next.notices, text(next)).toEqual([RESTORED]);
      const back = await a.call('browser_snapshot', {}, 'remote');
      expect(back.notices, text(back)).toEqual([RESTORED]);
      expect(back.snapshot).toContain('Signed in as Ada: step 2');
    } finally {
      await Promise.all([a.close(), b.close()]);
      await remote.close();
    }
  });
});

describe('a store without an encryption key', { timeout: 120_000 }, () => {
  const saved = (toolset: BrowserToolset) => expect.poll(() => toolset.sessions.keeper!.holds('thread:nokey'), { timeout: 10_000 }).toBe(false);

  it('is said once at startup, and keeps the tabs but not the login; allowPlaintext keeps the login, readable in the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'session-store-'));
    dirs.push(dir);
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    const inThread = { agent: { threadId: 'nokey' } };
    const [first, second] = [createTestToolset({ sessionStore: join(dir, 'bare') }), createTestToolset({ sessionStore: join(dir, 'bare') })];
    const [third, fourth] = [createTestToolset({ sessionStore: join(dir, 'plain'), allowPlaintext: true }), createTestToolset({ sessionStore: join(dir, 'plain'), allowPlaintext: true })];
    try {
      expect(warnings.filter((w) => w.includes('sessionStore has no encryption key'))).toHaveLength(1);

      const login = await first.tools.browser_navigate.execute!({ url: site.url('/login') }, inThread as never);
      expect(text(login)).toContain('Signed in as Ada: step 1');
      await saved(first);
      const resumed: any = await second.tools.browser_snapshot.execute!({}, inThread as never);
      expect(resumed.notices).toEqual([
        "This conversation's browser was restored from saved state: pages were loaded again; unsaved form input and scroll positions were lost; logins were not kept (the session store has no encryption key: sessionStoreKey).",
      ]);
      expect(resumed.snapshot).toContain('Signed out');
      expect(readdirSync(join(dir, 'bare')).map((f) => readFileSync(join(dir, 'bare', f)).toString('latin1')).join('')).not.toContain(site.secret);

      await third.tools.browser_navigate.execute!({ url: site.url('/login') }, inThread as never);
      await saved(third);
      // Stored as it is: the check of the sealed stores above would see a cookie left in clear.
      expect(readdirSync(join(dir, 'plain')).map((f) => readFileSync(join(dir, 'plain', f)).toString('latin1')).join('')).toContain(site.secret);
      const kept: any = await fourth.tools.browser_snapshot.execute!({}, inThread as never);
      expect(kept.notices).toEqual([RESTORED]);
      expect(kept.snapshot).toContain('Signed in as Ada: step 1');
    } finally {
      console.warn = warn;
      await Promise.all([first, second, third, fourth].map((t) => t.close()));
    }
  });
});

describe("sharing the LibSQL client of Mastra's own storage", { timeout: 120_000 }, () => {
  it("keeps sessions in the database Mastra's LibSQLStore uses, beside its tables, and leaves the client open", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'session-store-'));
    dirs.push(dir);
    const { createClient } = await import('@libsql/client');
    const { LibSQLStore } = await import('@mastra/libsql');
    const client = createClient({ url: `file:${join(dir, 'mastra.db')}` });
    const storage = new LibSQLStore({ id: 'mastra-storage', client });
    await storage.init();
    const config = { sessionStore: new LibSQLSessionStore({ client }), sessionStoreKey: KEY };
    const [first, second] = [createTestToolset(config), createTestToolset(config)];
    const inThread = { agent: { threadId: 'mastra' } } as never;
    try {
      await first.tools.browser_navigate.execute!({ url: site.url('/login') }, inThread);
      await first.close();
      const resumed: any = await second.tools.browser_snapshot.execute!({}, inThread);
      expect(resumed.notices).toEqual([RESTORED]);
      expect(resumed.snapshot).toContain('Signed in as Ada: step 1');
      await second.close();
      const tables = (await client.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map((row) => String(row.name));
      expect(tables).toEqual(expect.arrayContaining(['mastra_threads', 'mastra_browser_sessions', 'mastra_browser_session_leases']));
    } finally {
      await Promise.all([first.close(), second.close()]);
      client.close();
    }
  });
});

describe('a Postgres store on a pool the application already has', { timeout: 120_000 }, () => {
  it("keeps sessions in one table of its own in that database, and leaves the pool open", async () => {
    // The pool an app hands to Mastra's PostgresStore ({ pool }) and reads back from it (storage.pool).
    const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    await pool.query('CREATE TABLE IF NOT EXISTS app_notes (id serial PRIMARY KEY, body text)');
    const config = { sessionStore: new PostgresSessionStore({ client: pool }), sessionStoreKey: KEY };
    const [first, second] = [createTestToolset(config), createTestToolset(config)];
    const inThread = { agent: { threadId: 'pg-pool' } } as never;
    try {
      await first.tools.browser_navigate.execute!({ url: site.url('/login') }, inThread);
      await first.close();
      const resumed: any = await second.tools.browser_snapshot.execute!({}, inThread);
      expect(resumed.notices).toEqual([RESTORED]);
      expect(resumed.snapshot).toContain('Signed in as Ada: step 1');
      await second.close();
      const { rows } = await pool.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('app_notes', 'mastra_browser_sessions') ORDER BY table_name");
      expect(rows.map((row) => row.table_name)).toEqual(['app_notes', 'mastra_browser_sessions']);
      const saved = await pool.query("SELECT data FROM mastra_browser_sessions WHERE key = 'thread:pg-pool'");
      expect(saved.rows).toHaveLength(1);
      expect(Buffer.from(saved.rows[0].data).includes(site.secret)).toBe(false);
    } finally {
      await Promise.all([first.close(), second.close()]);
      await pool.end();
    }
  });

  it('gives a lease asked for on many connections at the same moment (as by many replicas) to exactly one', async () => {
    // Each store on a pool of its own, as separate replicas would be: the upsert decides, not this process.
    const stores = Array.from({ length: 8 }, () => new PostgresSessionStore({ connectionString: postgres.url, table: 'race_leases' }));
    try {
      for (const round of [1, 2, 3]) {
        const key = `race-${round}`;
        const won = await Promise.all(stores.map((store, i) => store.acquire(key, `holder-${i}`, 60_000)));
        expect(won.filter(Boolean), `round ${round}`).toHaveLength(1);
      }
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('refuses a table name that is not a plain SQL name', () => {
    expect(() => new PostgresSessionStore({ connectionString: postgres.url, table: 'sessions; DROP TABLE x' })).toThrow(/plain SQL name/);
  });
});

describe('saving the storage of a conversation that went from site to site', { timeout: 120_000 }, () => {
  it("keeps each site's storage as last written, for a site left, come back to, or not seen since", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'session-store-'));
    dirs.push(dir);
    const config = { sessionStore: join(dir, 'sessions'), sessionStoreKey: KEY, allowEvaluate: true };
    const [first, second] = [createTestToolset(config), createTestToolset(config)];
    const inThread = { agent: { threadId: 'sites' } } as never;
    const here = site.url('/step/1');
    const there = here.replace('127.0.0.1', 'tags.other-site.test');
    const tools = (t: BrowserToolset) => t.tools as Record<string, { execute: (input: unknown, context: never) => Promise<any> }>;
    // Each step is saved before the next (a save follows every call that may change the page).
    const step = async (t: BrowserToolset, tool: string, input: Record<string, unknown>) => {
      const result = await tools(t)[tool]!.execute(input, inThread);
      expect(result.ok, text(result)).toBe(true);
      await expect.poll(() => t.sessions.keeper!.holds('thread:sites'), { timeout: 10_000 }).toBe(false);
      return result;
    };
    const write = (t: BrowserToolset, value: string) => step(t, 'browser_evaluate', { script: `localStorage.setItem('v', '${value}'); return 1` });
    try {
      await step(first, 'browser_navigate', { url: here });
      await write(first, 'here 1');
      await step(first, 'browser_navigate', { url: there });
      await write(first, 'there 1');
      await step(first, 'browser_tabs', { action: 'new', url: here });
      await write(first, 'here 2');
      await step(first, 'browser_tabs', { action: 'close', index: 0 });
      await write(first, 'here 3');
      await write(first, 'here 4');

      // A site that keeps data in IndexedDB too: written, then saved again after a call that changed only localStorage.
      await step(first, 'browser_evaluate', {
        script: `await new Promise((done, fail) => { const open = indexedDB.open('app', 1); open.onupgradeneeded = () => open.result.createObjectStore('notes');
          open.onsuccess = () => { const tx = open.result.transaction('notes', 'readwrite'); tx.objectStore('notes').put('kept', 'draft'); tx.oncomplete = () => { open.result.close(); done(1); }; tx.onerror = fail; }; open.onerror = fail; }); return 1`,
      });
      await write(first, 'here 5');

      const evaluate = async (t: BrowserToolset, script: string) => JSON.parse((await tools(t).browser_evaluate!.execute({ script }, inThread)).result);
      expect(await evaluate(second, "localStorage.getItem('v')")).toBe('here 5');
      const draft = `await new Promise((done) => { const open = indexedDB.open('app', 1); open.onupgradeneeded = () => open.result.createObjectStore('notes');
        open.onsuccess = () => { const get = open.result.transaction('notes').objectStore('notes').get('draft'); get.onsuccess = () => done(get.result ?? null); get.onerror = () => done(null); }; }) `;
      expect(await evaluate(second, draft)).toBe('kept');
      await tools(second).browser_navigate!.execute({ url: there }, inThread);
      expect(await evaluate(second, "localStorage.getItem('v')")).toBe('there 1');
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('a session store that does not answer', () => {
  it('fails the call with a retryable error that names the store, rather than driving without the lease', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'session-store-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'a-file'), '');
    // A directory store under a file: every write fails (ENOTDIR), as a full or read-only disk would.
    const toolset = createTestToolset({ sessionStore: join(dir, 'a-file', 'sessions'), sessionStoreKey: KEY });
    try {
      const result: any = await toolset.tools.browser_navigate.execute!({ url: site.url('/login') }, { agent: { threadId: 'down' } } as never);
      expect(result.ok).toBe(false);
      expect(result.error).toMatchObject({ code: 'browser_error', retryable: true });
      expect(result.error.message).toMatch(/^The session store that keeps this conversation's browser did not answer \(.*ENOTDIR/);
    } finally {
      await toolset.close();
    }
  });
});
