/**
 * One process of a server with a session store, for test/session-store.test.ts: it answers tool calls read as
 * JSON lines on stdin ({ id, tool, input, thread }) with JSON lines on stdout ({ id, result }), each call in the
 * thread's session, as a Mastra agent's call would be. `STORE` names the store: `dir:<path>`, `libsql:<url>` or
 * `postgres:<table>:<connection string>`;
 * `WS_ENDPOINT`, a Playwright browser server to connect to instead of launching a browser.
 */
import { createInterface } from 'node:readline';
import { BrowserToolset, LibSQLSessionStore, PostgresSessionStore, type SessionStore } from '../src/index.js';
import { OFFLINE_ARGS } from './helpers/server.js';

const spec = process.env.STORE ?? '';
function openStore(): string | SessionStore {
  if (spec.startsWith('libsql:')) return new LibSQLSessionStore({ url: spec.slice('libsql:'.length) });
  const postgres = /^postgres:(\w+):(.*)$/.exec(spec);
  if (postgres) return new PostgresSessionStore({ table: postgres[1], connectionString: postgres[2]! });
  return spec.replace(/^dir:/, '');
}
const sessionStore = openStore();
// With WS_ENDPOINT, every process connects to one Playwright browser server, as replicas of a remote browser do.
const remote = process.env.WS_ENDPOINT ? { wsEndpoint: process.env.WS_ENDPOINT } : {};
const toolset = new BrowserToolset({ timeout: 4_000, navigationTimeout: 10_000, args: OFFLINE_ARGS, sessionStore, ...remote });

const write = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, tool, input, thread } = JSON.parse(line) as { id: number; tool: string; input: unknown; thread: string };
  void (async () => {
    if (tool === 'close') {
      await toolset.close();
      write({ id, result: { ok: true } });
      process.exit(0);
    }
    if (tool === 'settled') {
      // Until this process has saved the thread's session and let its lease go: then a kill loses nothing saved.
      while (toolset.sessions.keeper?.holds(`thread:${thread}`)) await new Promise((resolve) => setTimeout(resolve, 20));
      write({ id, result: { ok: true, lastSave: toolset.sessions.lastSave } });
      return;
    }
    const started = performance.now();
    const result = await (toolset.tools as Record<string, { execute: (input: unknown, context: unknown) => Promise<unknown> }>)[tool]!.execute(input, { agent: { threadId: thread } });
    write({ id, result, ms: performance.now() - started });
  })();
});
write({ ready: true });
