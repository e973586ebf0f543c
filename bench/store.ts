/**
 * `npx tsx bench/store.ts` (issue 47): what a session store costs. Two toolsets (two browsers, as two replicas
 * would have) share one store; a conversation logged in with a cookie and some site storage:
 *
 * - warm: calls on the toolset that holds the session (navigate between two pages), with and without a store:
 *   the difference is what saving adds to a reply (it runs after the reply is ready, so it should be ~0).
 * - save: what each save costs after its reply (read cookies, storage and tabs, seal, write), and the bytes stored.
 * - resume: calls alternating between the two toolsets, so that every call resumes the session from the store
 *   (lease, read, new context, the page loaded again, then the call's own work).
 *
 * For the directory store, the LibSQL store (a `file:` database) and the Postgres store (PGlite, Postgres compiled
 * to WebAssembly, behind its socket server in this process: node-postgres reaches it over TCP as it would a server).
 * Writes bench/results/store.md. Options: `--calls 30`, `--no-write`, `--stores directory,libsql,postgres` (some
 * only; the table of visited sites runs only with the directory store).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BrowserToolset, DirectoryStore, LibSQLSessionStore, PostgresSessionStore, type SessionStore } from '../src/index.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { OFFLINE_ARGS, startServer } from '../test/helpers/server.js';
import { quantile } from './stats.js';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const argument = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const CALLS = Number(argument('calls') ?? 30);
const WRITE = !process.argv.includes('--no-write');
const STORES = (argument('stores') ?? 'directory,libsql,postgres').split(',');
const KEY = 'bench passphrase';
const THREAD = { agent: { threadId: 'bench' } };

const server = await startServer();
const pages = [server.url('/fixtures/page-a.html'), server.url('/fixtures/page-b.html')];
const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));

type Tool = { execute: (input: unknown, context: unknown) => Promise<any> };
async function call(toolset: BrowserToolset, tool: string, input: unknown): Promise<{ ms: number; result: any }> {
  const started = performance.now();
  const result = await ((toolset.tools as unknown as Record<string, Tool>)[tool]!).execute(input, THREAD);
  if (!result.ok) throw new Error(`${tool}: ${JSON.stringify(result.error)}`);
  return { ms: performance.now() - started, result };
}

/** Until the toolset has saved and let the conversation go. */
async function settled(toolset: BrowserToolset): Promise<void> {
  while (toolset.sessions.keeper?.holds('thread:bench')) await new Promise((resolve) => setTimeout(resolve, 5));
}

function toolset(store?: SessionStore): BrowserToolset {
  return new BrowserToolset({ args: OFFLINE_ARGS, allowEvaluate: true, sessionStore: store, sessionStoreKey: store ? KEY : undefined });
}

/** A login cookie and 4 KB of site storage (a token, cached data: not compressible), as a signed-in app would have. */
async function signIn(t: BrowserToolset): Promise<void> {
  await call(t, 'browser_navigate', { url: pages[0] });
  await call(t, 'browser_evaluate', { script: `document.cookie = 'sid=${randomBytes(24).toString('hex')}; path=/; max-age=3600'; localStorage.setItem('app', ${JSON.stringify(randomBytes(3_000).toString('base64'))}); return 1` });
}

const stats = (values: number[]) => ({ p50: Math.round(quantile(values, 0.5)!), p95: Math.round(quantile(values, 0.95)!) });

/**
 * Navigates between the two pages on `t` and, call by call, on `plain` (no store): paired, so that the machine's
 * drift weighs on both alike. Returns the replies of each and the cost of each save after its reply.
 */
async function warm(t: BrowserToolset, plain: BrowserToolset): Promise<{ reply: number[]; plain: number[]; save: number[] }> {
  const reply: number[] = [];
  const without: number[] = [];
  const save: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    without.push((await call(plain, 'browser_navigate', { url: pages[(i + 1) % 2] })).ms);
    reply.push((await call(t, 'browser_navigate', { url: pages[(i + 1) % 2] })).ms);
    await settled(t);
    if (t.sessions.lastSave) save.push(t.sessions.lastSave.ms);
  }
  return { reply, plain: without, save };
}

const rows: string[] = [];
const leases: string[] = [];
const noStore = toolset();
await signIn(noStore);

const postgres = STORES.includes('postgres') ? await startPostgres() : undefined;
const kinds: Array<[kind: string, name: string, make: () => SessionStore]> = [
  ['directory', 'directory', () => new DirectoryStore(join(dir, 'sessions'))],
  ['libsql', 'LibSQL (file:)', () => new LibSQLSessionStore({ url: `file:${join(dir, 'sessions.db')}` })],
  ['postgres', 'Postgres (PGlite over TCP)', () => new PostgresSessionStore({ connectionString: postgres!.url })],
];
for (const [, name, make] of kinds.filter(([kind]) => STORES.includes(kind))) {
  const a = toolset(make());
  const b = toolset(make());
  await signIn(a);
  await warm(a, noStore); // warm-up
  const { reply, plain, save } = await warm(a, noStore);
  await settled(a);
  const store = a.config.sessionStore!;
  const bytes = (await store.get('thread:bench'))!.byteLength;
  // What a warm call adds before its work: taking the lease (the save and the release come after the reply).
  const lease: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await store.acquire('bench:lease', 'bench', 15_000);
    lease.push(performance.now() - started);
    await store.release('bench:lease', 'bench');
  }
  const resume: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    // The other toolset moves the conversation on (a navigate, saved), so this one's copy is old and must resume.
    const [t, other] = i % 2 ? [a, b] : [b, a];
    await call(other, 'browser_navigate', { url: pages[i % 2] });
    await settled(other);
    const { ms, result } = await call(t, 'browser_snapshot', {});
    if (!String(result.notices ?? '').includes('restored')) throw new Error(`call ${i} did not resume: ${JSON.stringify(result).slice(0, 400)}`);
    resume.push(ms);
    await settled(t);
  }
  await Promise.all([a.close(), b.close()]);
  rows.push(`| ${name} | warm navigate, no store (paired) | ${stats(plain).p50} | ${stats(plain).p95} | | |`);
  rows.push(`| ${name} | warm navigate | ${stats(reply).p50} | ${stats(reply).p95} | ${stats(save).p50} / ${stats(save).p95} | ${bytes.toLocaleString('en-US')} |`);
  rows.push(`| ${name} | resumed snapshot | ${stats(resume).p50} | ${stats(resume).p95} | | |`);
  leases.push(`| ${name} | ${quantile(lease, 0.5)!.toFixed(2)} | ${quantile(lease, 0.95)!.toFixed(2)} |`);
}
await noStore.close();
await postgres?.close();

/**
 * The save after a call, for a conversation that visited N sites (each wrote to its localStorage) and now works on
 * the last one: ours reads only what ran since the last save; Playwright's whole read (`storageState`, timed
 * right after each save on the same session) loads every other site visited in a hidden page.
 */
const siteRows: string[] = [];
for (const n of STORES.includes('directory') ? [1, 5, 20] : []) {
  const sitesDir = mkdtempSync(join(tmpdir(), 'bench-store-sites-'));
  const t = new BrowserToolset({
    args: [`--host-resolver-rules=MAP *.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`],
    allowEvaluate: true,
    sessionStore: sitesDir,
    sessionStoreKey: KEY,
  });
  const on = (i: number, page: string) => page.replace('127.0.0.1', `site${i}.test`);
  for (let i = 0; i < n; i++) {
    await call(t, 'browser_navigate', { url: on(i, pages[0]!) });
    await call(t, 'browser_evaluate', { script: `localStorage.setItem('app', ${JSON.stringify(randomBytes(300).toString('base64'))}); return 1` });
    await settled(t);
  }
  const ours: number[] = [];
  const whole: number[] = [];
  for (let i = 0; i < Math.max(10, Math.round(CALLS / 2)); i++) {
    await call(t, 'browser_navigate', { url: on(n - 1, pages[(i + 1) % 2]!) });
    await settled(t);
    ours.push(t.sessions.lastSave!.ms);
    const started = performance.now();
    await t.sessions.peek('thread:bench')!.storageState();
    whole.push(performance.now() - started);
  }
  await t.close();
  rmSync(sitesDir, { recursive: true, force: true });
  siteRows.push(`| ${n} | ${stats(ours).p50} / ${stats(ours).p95} | ${stats(whole).p50} / ${stats(whole).p95} |`);
}
await server.close();
rmSync(dir, { recursive: true, force: true });

const report = `# Session store (issue 47)

${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${CALLS} calls per row, local pages.
A conversation signed in (a cookie and 4 KB of localStorage). "warm navigate": the toolset holding the session
navigates between two pages; the save runs after each reply (its cost is the "save" column, off the reply). The
same navigations on a toolset without a store, call by call in between, are the "no store (paired)" row.
"resumed snapshot": two toolsets (two browsers) share the store and take turns: one navigates, then the other
takes a snapshot, which resumes the session: lease, read, a new context with the cookies and storage, the page
loaded again, then the snapshot.

| store | call | p50 ms | p95 ms | save after the reply, p50 / p95 ms | bytes stored |
|---|---|---|---|---|---|
${rows.join('\n')}

On a warm call, the one step the store adds before the reply is taking the lease:

| store | lease taken, p50 ms | p95 ms |
|---|---|---|
${leases.join('\n')}

The save after a navigate, for a conversation that visited N sites (each wrote to its localStorage) and now
works on the last one, directory store. A save reads the cookies and the storage of what ran since the last save
(here the tab's own site); Playwright's whole read (\`storageState\`, what a save read before) loads every other
site visited in a hidden page:

| sites visited | save p50 / p95 ms | Playwright's whole read p50 / p95 ms |
|---|---|---|
${siteRows.join('\n')}
`;
console.log(report);
if (WRITE) writeFileSync(join(ROOT, 'bench/results/store.md'), report);
