/**
 * The example Mastra project (integrations/playground) served over HTTP, used through Mastra's HTTP API as
 * Studio and clients use it: its agent is listed with the browser tools, and its workflow fills a field of a
 * local page. Every host but 127.0.0.1 is unresolvable for its browser.
 *
 * The server is @mastra/deployer's createNodeServer, the function `mastra dev`'s generated entry calls, on the
 * project's source (see helpers/playgroundServer.ts). `mastra dev` itself first bundles the project and needs
 * the package built and installed into it; the README shows that way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { browserPidsUnder, waitForExit } from './helpers/processes.js';
import { OFFLINE_ARGS, startServer, type TestServer } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

let pages: TestServer;
let child: ChildProcess;
let api: string;
let output = '';

beforeAll(async () => {
  pages = await startServer();
  const port = await freePort();
  api = `http://127.0.0.1:${port}/api`;
  child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/playgroundServer.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), MASTRA_HOST: '127.0.0.1', MASTRA_TELEMETRY_DISABLED: '1', PLAYGROUND_BROWSER_ARGS: JSON.stringify(OFFLINE_ARGS) },
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  // Ready when the API answers; the loop ends when the process does.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the playground server exited (${child.exitCode}):\n${output}`);
    const ready = await fetch(`${api}/agents`).then((r) => r.ok, () => false);
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 300_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const browsers = browserPidsUnder(child.pid!);
    child.kill('SIGTERM');
    const left = await waitForExit([child.pid!, ...browsers]);
    if (left.length) child.kill('SIGKILL');
    expect(left, `processes left after SIGTERM:\n${output}`).toEqual([]);
  }
  await pages?.close();
}, 120_000);

it('lists the agent with its browser through GET /api/agents, as Studio reads it', async () => {
  const agents = await (await fetch(`${api}/agents`)).json();
  const agent = agents['web-agent'];
  expect(agent).toMatchObject({ id: 'web-agent', name: 'Web agent', hasBrowser: true });
});

it('runs the workflow through the HTTP API: navigate, then type into the field found in the snapshot', async () => {
  const response = await fetch(`${api}/workflows/fillFieldWorkflow/start-async`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inputData: { url: pages.url('/fixtures/form.html'), field: 'full name', text: 'Ada Lovelace' } }),
  });
  expect(response.status).toBe(200);
  const run = await response.json();
  expect(run.status, JSON.stringify(run)).toBe('success');
  expect(run.steps.browser_navigate.output).toMatchObject({ ok: true, title: 'Create your account', status: 200 });
  expect(run.result).toMatchObject({ ok: true, fieldValue: 'Ada Lovelace' });
  expect(run.result.typedInto).toMatch(/^e\d+ \(textbox "Full name \*"\)$/);
});

it('reports a field the page does not have as a failed result, not a crash', async () => {
  const response = await fetch(`${api}/workflows/fillFieldWorkflow/start-async`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inputData: { url: pages.url('/fixtures/form.html'), field: 'shoe size', text: '42' } }),
  });
  const run = await response.json();
  expect(run.status).toBe('success');
  expect(run.result).toMatchObject({ ok: false, error: { code: 'element_not_found' } });
});
