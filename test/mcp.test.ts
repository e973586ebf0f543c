/**
 * The MCP server as clients meet it: `mastra-browser-toolset mcp` started as a process, driven by the official
 * MCP SDK client over stdio and over streamable HTTP, with a real Chromium and local pages; and, in process, the
 * HTTP server's sessions as the toolset counts them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserToolset } from '../src/index.js';
import { serveHttp } from '../src/mcp/server.js';
import { browserPidsUnder, waitForExit } from './helpers/processes.js';
import { refOf } from './helpers/refs.js';
import { createTestToolset } from './helpers/toolset.js';
import { OFFLINE_ARGS, startServer, type TestServer } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The CLI from source, as `npx mastra-browser-toolset mcp` runs it from dist. */
const CLI = ['--import', 'tsx', 'src/cli/index.ts', 'mcp', '--timeout', '5000', '--navigation-timeout', '20000', ...OFFLINE_ARGS.map((arg) => `--browser-arg=${arg}`)];

type Content = Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
interface CallResult {
  content: Content;
  isError?: boolean;
}

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallResult;
  return { ...result, text: result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n') };
}

function newClient(): Client {
  return new Client({ name: 'mcp-test', version: '1.0.0' });
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('over stdio', { timeout: 180_000 }, () => {
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';

  beforeAll(async () => {
    transport = new StdioClientTransport({ command: process.execPath, args: CLI, cwd: ROOT, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    client = newClient();
    await client.connect(transport);
  }, 180_000);
  afterAll(async () => {
    await client.close().catch(() => {});
  });

  it('lists every tool with its description, JSON input schema and annotations', async () => {
    const { tools } = await client.listTools();
    const expected = new BrowserToolset().tools;
    expect(tools.map((t) => t.name)).toEqual(Object.keys(expected));
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.browser_navigate!.description).toBe(expected.browser_navigate.description);
    expect(byName.browser_navigate!.inputSchema).toMatchObject({ type: 'object', required: ['url'], properties: { url: { type: 'string' } } });
    expect(byName.browser_snapshot!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.browser_navigate!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    expect(byName.browser_click!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const tool of tools) expect(tool.annotations?.title, tool.name).toBeTruthy();
    // Opt-in tools stay out unless asked for.
    expect(byName.browser_evaluate).toBeUndefined();
  });

  it('answers with the text the model reads, and failures as MCP tool errors with our code and hint', async () => {
    const nav = await callTool(client, 'browser_navigate', { url: server.url('/fixtures/form.html') });
    expect(nav.isError).toBeFalsy();
    expect(nav.content).toHaveLength(1);
    // Plain text, as in a Mastra agent: not the JSON of the result.
    expect(nav.text).toMatch(/^\d+\{\nstatus: 200\npage "Create your account" /);
    expect(nav.text).not.toContain('"ok"');
    const name = refOf(nav.text, 'textbox', 'Full name *');

    const typed = await callTool(client, 'browser_type', { ref: name, text: 'Ada' });
    expect(typed.isError).toBeFalsy();
    // The field holds the text sent: the value is not echoed; the change on the page is.
    expect(typed.text).not.toContain('fieldValue');
    expect(typed.text).toMatch(/^(changes: )?~ e\d+ textbox "Full name \*" value="Ada"/m);

    const missing = await callTool(client, 'browser_click', { ref: 'e9999' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^error element_not_found \((not )?retryable\): /m);
    expect(missing.text).toMatch(/^hint: \S/m);

    const invalid = await callTool(client, 'browser_click', {});
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/^error invalid_input /m);
  });

  it('sends screenshots as MCP image content', async () => {
    const shot = await callTool(client, 'browser_screenshot');
    expect(shot.isError).toBeFalsy();
    const image = shot.content.find((c) => c.type === 'image');
    expect(image?.mimeType).toBe('image/jpeg');
    expect(Buffer.from(image!.data!, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(shot.text).toMatch(/^Screenshot \d+x\d+/);
  });

  it('stops when the client closes its stdin, and leaves no Chromium process', async () => {
    const pid = transport.pid!;
    const browsers = browserPidsUnder(pid);
    expect(browsers.length).toBeGreaterThan(0);
    await client.close();
    expect(await waitForExit([pid, ...browsers])).toEqual([]);
    // Our own shutdown ran, not the SDK client's fallback SIGTERM.
    expect(stderr).toContain('stopping (stdin closed)');
    expect(stderr).toMatch(/browser: \w+ /);
  });

  it('stops on SIGINT too, closing its browser', async () => {
    const other = new StdioClientTransport({ command: process.execPath, args: CLI, cwd: ROOT, stderr: 'pipe' });
    let otherStderr = '';
    other.stderr?.on('data', (chunk) => (otherStderr += chunk));
    const otherClient = newClient();
    await otherClient.connect(other);
    await callTool(otherClient, 'browser_navigate', { url: server.url('/fixtures/form.html') });
    const pid = other.pid!;
    const browsers = browserPidsUnder(pid);
    expect(browsers.length).toBeGreaterThan(0);
    process.kill(pid, 'SIGINT');
    expect(await waitForExit([pid, ...browsers])).toEqual([]);
    expect(otherStderr).toContain('stopping (SIGINT)');
    await otherClient.close().catch(() => {});
  });
});

describe('over streamable HTTP', { timeout: 180_000 }, () => {
  let child: ChildProcess;
  let url: URL;
  let stderr = '';

  beforeAll(async () => {
    child = spawn(process.execPath, [...CLI, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    url = await new Promise<URL>((resolve, reject) => {
      child.stderr!.on('data', (chunk) => {
        stderr += chunk;
        const match = /serving \d+ browser tools over MCP at (http:\/\/\S+)/.exec(stderr);
        if (match) resolve(new URL(match[1]!));
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)));
    });
  }, 180_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('listens on 127.0.0.1 only, and refuses a Host header that is not its own', async () => {
    expect(url.hostname).toBe('127.0.0.1');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: url.port, path: '/mcp', method: 'POST', headers: { host: `evil.example:${url.port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }));
    });
    expect(status).toBe(403);
  });

  it('gives each MCP session its own browser session, and closes it with the session', async () => {
    const a = newClient();
    const b = newClient();
    const transportA = new StreamableHTTPClientTransport(url);
    await a.connect(transportA);
    await b.connect(new StreamableHTTPClientTransport(url));

    const nav = await callTool(a, 'browser_navigate', { url: server.url('/fixtures/form.html') });
    expect(nav.text).toContain('page "Create your account"');
    // B's session has its own tab: A's page is not in it.
    const tabsB = await callTool(b, 'browser_tabs', { action: 'list' });
    expect(tabsB.text).not.toContain('form.html');
    const tabsA = await callTool(a, 'browser_tabs', { action: 'list' });
    expect(tabsA.text).toContain('form.html');

    // A ends its session; its browser session closes, B goes on.
    await transportA.terminateSession();
    await a.close();
    const snapB = await callTool(b, 'browser_navigate', { url: server.url('/fixtures/form.html') });
    expect(snapB.isError).toBeFalsy();
    await b.close();
  });

  it('stops on SIGTERM and leaves no Chromium process', async () => {
    const browsers = browserPidsUnder(child.pid!);
    expect(browsers.length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    expect(await waitForExit([child.pid!, ...browsers])).toEqual([]);
    expect(stderr).toContain('stopping (SIGTERM)');
  });
});

describe('streamable HTTP sessions, in process', { timeout: 120_000 }, () => {
  it("an MCP session's DELETE closes its browser session; another session keeps its own", async () => {
    const toolset = createTestToolset();
    const http = await serveHttp(toolset, { port: 0, version: 'test' });
    const a = newClient();
    const b = newClient();
    try {
      const transportA = new StreamableHTTPClientTransport(new URL(http.url));
      await a.connect(transportA);
      await b.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      await callTool(a, 'browser_navigate', { url: server.url('/fixtures/form.html') });
      await callTool(b, 'browser_navigate', { url: server.url('/fixtures/form.html') });
      expect(toolset.sessions.size).toBe(2);

      await transportA.terminateSession();
      await expect.poll(() => toolset.sessions.size, { timeout: 10_000 }).toBe(1);
      expect(http.sessions()).toBe(1);
      const tabsB = await callTool(b, 'browser_tabs', { action: 'list' });
      expect(tabsB.isError).toBeFalsy();
      expect(tabsB.text).toContain('form.html');
    } finally {
      await a.close().catch(() => {});
      await b.close().catch(() => {});
      await http.close();
      await toolset.close();
    }
  });
});
