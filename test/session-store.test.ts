/**
 * A conversation's browser kept in a session store and resumed by other processes: real OS processes (each its
 * own Chromium) sharing one store and one local site with a login, for the directory store and for LibSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibSQLSessionStore } from '../src/index.js';
import { browserPidsUnder, waitForExit } from './helpers/processes.js';
import { refOf } from './helpers/refs.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY = 'a passphrase only the tests know';
const RESTORED = "This conversation's browser was restored from saved state: pages were loaded again; unsaved form input and scroll positions were lost; logins kept.";

/** A site with a login: the session cookie is HttpOnly, so only the browser's cookie jar carries it. */
function startSite(): Promise<{ url: (path: string) => string; secret: string; close: () => Promise<void> }> {
  const secret = `sid-${randomUUID()}`;
  const server: Server = createServer((req, res) => {
    const signedIn = (req.headers.cookie ?? '').includes(`sid=${secret}`);
    const page = (title: string, body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${title}</title>${body}`);
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/login') {
      res.writeHead(303, { 'set-cookie': `sid=${secret}; HttpOnly; Path=/; Max-Age=3600`, location: '/step/1' }).end();
    } else if (path.startsWith('/step/')) {
      const n = Number(path.slice('/step/'.length));
      if (!signedIn) page('Signed out', '<h1>Signed out</h1><a href="/login">Sign in</a>');
      else page(`Step ${n}`, `<h1>Signed in as Ada: step ${n}</h1><a href="/step/${n + 1}">Next step</a><label>Note <input name="note"></label>`);
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: (path) => `http://127.0.0.1:${port}${path}`, secret, close: () => new Promise<void>((done) => server.close(() => done())) });
    }),
  );
}

/** One server process with the store; `call` sends a tool call of a thread and returns its structured result. */
class Worker {
  readonly child: ChildProcess;
  private next = 0;
  private readonly waiting = new Map<number, (result: any) => void>();
  readonly ready: Promise<void>;
  stderr = '';

  constructor(store: string) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'test/session-store.worker.ts'], {
      cwd: ROOT,
      env: { ...process.env, STORE: store, MASTRA_BROWSER_STORE_KEY: KEY },
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
    const browsers = browserPidsUnder(this.child.pid!);
    this.child.kill('SIGKILL');
    for (const pid of browsers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await waitForExit([this.child.pid!, ...browsers]);
  }
}

/** Everything a result says, to search: its snapshot, notices and error. */
const text = (result: any) => JSON.stringify(result);

let site: Awaited<ReturnType<typeof startSite>>;
const dirs: string[] = [];
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const STORES = [
  { name: 'a directory store', make: (dir: string) => `dir:${join(dir, 'sessions')}`, files: (dir: string) => readdirSync(join(dir, 'sessions')).filter((f) => f.endsWith('.session')).map((f) => join(dir, 'sessions', f)) },
  { name: 'a LibSQL store', make: (dir: string) => `libsql:file:${join(dir, 'sessions.db')}`, files: (dir: string) => readdirSync(dir).map((f) => join(dir, f)) },
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
    const login = await a.call('browser_navigate', { url: site.url('/login') });
    expect(login.snapshot, text(login)).toContain('Signed in as Ada: step 1');

    let page = login.snapshot as string;
    const workers = [b, a, b, a];
    for (const [i, worker] of workers.entries()) {
      const next = await worker.call('browser_click', { ref: refOf(page, 'link', 'Next step') });
      expect(next.ok, text(next)).toBe(true);
      const snap = await worker.call('browser_snapshot', {});
      expect(snap.snapshot, text(snap)).toContain(`Signed in as Ada: step ${i + 2}`);
      // Each move to the other process is said once, in the call that resumed the browser there.
      expect(next.notices ?? []).toContain(RESTORED);
      expect(snap.notices ?? []).not.toContain(RESTORED);
      page = snap.snapshot;
    }
  });

  it("the stored bytes do not contain the login cookie's value in clear", async () => {
    const stored = Buffer.concat(kind.files(dir).map((file) => readFileSync(file)));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.includes(site.secret)).toBe(false);
    // The process that saved it could read it back: the cookie is in there, sealed.
    const tabs = await b.call('browser_tabs', { action: 'list' });
    expect(text(tabs)).toContain('/step/5');
  });
});
