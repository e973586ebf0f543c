/**
 * The MCP server behind a load balancer: two `mastra-browser-toolset mcp --port` processes (each its own Chromium)
 * sharing one session store, a round-robin balancer in front of them, and one real MCP client whose one MCP
 * session id reaches both replicas in turn; a local site with a login.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryStore, LibSQLSessionStore, PostgresSessionStore, type SessionStore } from '../src/index.js';
import { startLoginSite, type LoginSite } from './helpers/loginSite.js';
import { startPostgres, type TestPostgres } from './helpers/postgres.js';
import { browserPidsUnder, killWithBrowsers, waitForExit } from './helpers/processes.js';
import { refOf } from './helpers/refs.js';
import { OFFLINE_ARGS } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY = 'a passphrase only the tests know';
const RESTORED = "note: This conversation's browser was restored from saved state: pages were loaded again; unsaved form input and scroll positions were lost; logins kept.";

/** One replica: the CLI from source, as `npx mastra-browser-toolset mcp --port 0 --session-store <dir|url>` runs it. */
class Replica {
  readonly child: ChildProcess;
  readonly url: Promise<string>;
  stderr = '';

  constructor(store: string) {
    const args = ['--import', 'tsx', 'src/cli/index.ts', 'mcp', '--port', '0', '--session-store', store];
    this.child = spawn(process.execPath, [...args, ...OFFLINE_ARGS.map((arg) => `--browser-arg=${arg}`)], {
      cwd: ROOT,
      env: { ...process.env, MASTRA_BROWSER_STORE_KEY: KEY },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.url = new Promise((resolve, reject) => {
      this.child.stderr!.on('data', (chunk) => {
        this.stderr += chunk;
        const match = /over MCP at (http:\/\/\S+)/.exec(this.stderr);
        if (match) resolve(match[1]!);
      });
      this.child.once('exit', (code) => reject(new Error(`the replica exited (${code}) before listening:\n${this.stderr}`)));
    });
  }

  /** Ends the process at once, as a crash or an OOM kill would, with its browser. */
  async kill(): Promise<void> {
    await killWithBrowsers(this.child.pid!);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const browsers = browserPidsUnder(this.child.pid!);
    this.child.kill('SIGTERM');
    await waitForExit([this.child.pid!, ...browsers]);
  }
}

/**
 * A load balancer without session affinity: each POST goes to the next replica in turn (GET and DELETE to the
 * current one), and to the other when one does not answer, as a health-checking balancer would. `pinned` sends
 * everything to one replica, as a balancer with affinity does. `served` records who got each JSON-RPC method.
 */
function startBalancer(backends: string[]): Promise<{ url: string; backends: string[]; pinned?: number; served: Array<[replica: number, method: string]>; close: () => Promise<void> }> {
  let turn = 0;
  const balancer = {
    url: '',
    backends,
    pinned: undefined as number | undefined,
    served: [] as Array<[number, string]>,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const forward = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, body: Buffer, index: number, tries: number) => {
    const target = new URL(balancer.backends[index]!);
    const up = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      if (req.method === 'POST') balancer.served.push([index, (JSON.parse(body.toString() || '{}') as { method?: string }).method ?? '?']);
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => {
      if (tries > 0 && !res.headersSent) forward(req, res, body, (index + 1) % balancer.backends.length, tries - 1);
      else if (!res.headersSent) res.writeHead(502).end();
    });
    res.once('close', () => up.destroy());
    up.end(body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = balancer.pinned ?? (req.method === 'POST' ? turn++ : turn) % balancer.backends.length;
      forward(req, res, Buffer.concat(chunks), index, balancer.backends.length - 1);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      balancer.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
      resolve(balancer);
    }),
  );
}

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'replicas-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
  return { text: result.content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true };
}

const count = (text: string, part: string) => text.split(part).length - 1;

let site: LoginSite;
let dir: string;
let store: SessionStore;
/** What each replica is given as --session-store. */
let where: string;
let replicas: Replica[];
let balancer: Awaited<ReturnType<typeof startBalancer>>;
/** The Postgres the replicas share, for the runs on Postgres. */
let postgres: TestPostgres | undefined;

/** Until the replicas have saved the session and let its lease go (saving happens after the reply). */
async function settled(transport: StreamableHTTPClientTransport): Promise<void> {
  const key = `mcp:${transport.sessionId}`;
  await expect
    .poll(async () => {
      const lease = await store.acquire(key, 'test-probe', 1);
      if (lease) await store.release(key, 'test-probe');
      return lease !== undefined;
    }, { timeout: 20_000 })
    .toBe(true);
}

const STORES = [
  { name: 'a directory', where: (dir: string) => join(dir, 'sessions'), open: (dir: string): SessionStore => new DirectoryStore(join(dir, 'sessions')) },
  { name: 'a LibSQL database', where: (dir: string) => `file:${join(dir, 'sessions.db')}`, open: (dir: string): SessionStore => new LibSQLSessionStore({ url: `file:${join(dir, 'sessions.db')}` }) },
  { name: 'a Postgres database', postgres: true, where: () => postgres!.url, open: (): SessionStore => new PostgresSessionStore({ connectionString: postgres!.url }) },
];

describe.each(STORES)('the MCP HTTP server on two replicas sharing $name, behind a load balancer', { timeout: 300_000 }, (kind) => {
  beforeAll(async () => {
    site = await startLoginSite();
    if ('postgres' in kind) postgres = await startPostgres();
    dir = mkdtempSync(join(tmpdir(), 'mcp-replicas-'));
    where = kind.where(dir);
    store = kind.open(dir);
    replicas = [new Replica(where), new Replica(where)];
    balancer = await startBalancer(await Promise.all(replicas.map((r) => r.url)));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await balancer?.close();
    await store?.close?.();
    await site?.close();
    await postgres?.close();
    postgres = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('one MCP session whose calls alternate between the replicas stays logged in on its page', async () => {
    const { client } = await connect(balancer.url);
    try {
      balancer.served.length = 0;
      const login = await call(client, 'browser_navigate', { url: site.url('/login') });
      expect(login.text).toContain('Signed in as Ada: step 1');
      let page = login.text;
      for (let step = 2; step <= 5; step++) {
        const next = await call(client, 'browser_click', { ref: refOf(page, 'link', 'Next step') });
        expect(next.isError, next.text).toBe(false);
        // Each call lands on the other replica: it resumes the conversation there and says so, once.
        expect(count(next.text, RESTORED), next.text).toBe(1);
        const snap = await call(client, 'browser_snapshot');
        expect(snap.text).toContain(`Signed in as Ada: step ${step}`);
        expect(count(snap.text, RESTORED), snap.text).toBe(1);
        page = snap.text;
      }
      const calls = balancer.served.filter(([, method]) => method === 'tools/call').map(([replica]) => replica);
      expect(calls).toHaveLength(9);
      for (let i = 1; i < calls.length; i++) expect(calls[i], calls.join(' ')).not.toBe(calls[i - 1]);
    } finally {
      await client.close();
    }
  });

  it('two calls of the session at the same moment on both replicas take turns; the page is that of the last call', async () => {
    const { client, transport } = await connect(balancer.url);
    try {
      await call(client, 'browser_navigate', { url: site.url('/login') });
      await settled(transport);
      site.events.length = 0;
      const before = balancer.served.length;
      const [a, b] = await Promise.all([
        call(client, 'browser_navigate', { url: site.url('/hold/a?ms=1500') }),
        call(client, 'browser_navigate', { url: site.url('/hold/b?ms=1500') }),
      ]);
      expect(a.isError, a.text).toBe(false);
      expect(b.isError, b.text).toBe(false);
      expect(new Set(balancer.served.slice(before).map(([replica]) => replica))).toEqual(new Set([0, 1]));
      // Never both in the browser at once: each page was served whole before the next was asked for (the replica
      // that resumes loads the other's page again before its own).
      const order = site.events.filter((e) => /^(enter|leave) [ab]$/.test(e));
      for (let i = 0; i < order.length; i += 2) expect(order[i + 1], order.join(', ')).toBe(order[i]!.replace('enter', 'leave'));
      expect(new Set(order.map((e) => e.slice(-1)))).toEqual(new Set(['a', 'b']));
      const last = order.at(-1)!.slice(-1);
      const now = await call(client, 'browser_snapshot');
      expect(now.text).toContain(`Signed in as Ada: held ${last}`);
    } finally {
      await client.close();
    }
  });

  it('a replica killed mid-conversation, then both started again: the conversation goes on, one notice, then business as usual', async () => {
    const { client, transport } = await connect(balancer.url);
    try {
      const login = await call(client, 'browser_navigate', { url: site.url('/login') });
      const next = await call(client, 'browser_click', { ref: refOf(login.text, 'link', 'Next step') });
      expect(next.isError, next.text).toBe(false);
      const step2 = await call(client, 'browser_snapshot');
      expect(step2.text).toContain('Signed in as Ada: step 2');
      const typed = await call(client, 'browser_type', { ref: refOf(step2.text, 'textbox', 'Note'), text: 'half a thought' });
      expect(typed.isError, typed.text).toBe(false);
      await settled(transport);

      // One replica dies; the balancer sends the session's next call to the other, which goes on with it.
      await replicas[0]!.kill();
      const survived = await call(client, 'browser_snapshot');
      expect(survived.isError, survived.text).toBe(false);
      expect(survived.text).toContain('Signed in as Ada: step 2');
      await settled(transport);

      // A deploy: both replicas replaced, one after the other.
      replicas[0] = new Replica(where);
      balancer.backends[0] = await replicas[0].url;
      await replicas[1]!.kill();
      replicas[1] = new Replica(where);
      balancer.backends[1] = await replicas[1].url;

      // With affinity, the conversation is told once that its browser was restored, then goes on as before.
      balancer.pinned = 1;
      const resumed = await call(client, 'browser_snapshot');
      expect(resumed.isError, resumed.text).toBe(false);
      expect(count(resumed.text, RESTORED), resumed.text).toBe(1);
      expect(resumed.text).toContain('Signed in as Ada: step 2');
      expect(resumed.text).not.toContain('half a thought');
      const after = await call(client, 'browser_click', { ref: refOf(resumed.text, 'link', 'Next step') });
      expect(after.isError, after.text).toBe(false);
      expect(after.text).not.toContain('note:');
      const step3 = await call(client, 'browser_snapshot');
      expect(step3.text).toContain('Signed in as Ada: step 3');
      expect(step3.text).not.toContain('note:');

      // And without affinity again, on either replica.
      balancer.pinned = undefined;
      for (let i = 0; i < 2; i++) expect((await call(client, 'browser_snapshot')).text).toContain('Signed in as Ada: step 3');
    } finally {
      balancer.pinned = undefined;
      await client.close();
    }
  });

  it("the client's DELETE, on a replica that did not begin the session, ends it and forgets it in the store", async () => {
    const { client, transport } = await connect(balancer.url);
    await call(client, 'browser_navigate', { url: site.url('/login') });
    await settled(transport);
    const key = `mcp:${transport.sessionId}`;
    expect(await store.get(key)).toBeDefined();
    const began = [...balancer.served].reverse().find(([, method]) => method === 'initialize')![0];
    balancer.pinned = 1 - began;
    try {
      await transport.terminateSession();
    } finally {
      balancer.pinned = undefined;
      await client.close();
    }
    expect(await store.get(key)).toBeUndefined();
  });
});
