/** The command line as a person runs it: real processes, a real Chromium, local pages. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_FLAGS, parse, storeConfig, toolsetConfig } from '../src/cli/options.js';
import { BrowserToolset, LibSQLSessionStore, PostgresSessionStore } from '../src/index.js';
import { OFFLINE_ARGS, startServer, type TestServer } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OFFLINE = OFFLINE_ARGS.map((arg) => `--browser-arg=${arg}`);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI from source, as `npx mastra-browser-toolset` runs it from dist. */
function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], { cwd: ROOT, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** A failure is one line on stderr: no stack trace. */
function expectOneLineError(run: Run, pattern: RegExp): void {
  const lines = run.stderr.trim().split('\n').filter((line) => !line.startsWith('browser: '));
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('without a browser', { timeout: 180_000 }, () => {
  it('has --help for the tool and for every command, and a version', async () => {
    const [top, mcp, snapshot, version, none] = await Promise.all([cli('--help'), cli('mcp', '--help'), cli('snapshot', '--help'), cli('--version'), cli()]);
    expect(top).toMatchObject({ code: 0 });
    expect(top.stdout).toMatch(/^Usage: mastra-browser-toolset <command>/);
    expect(top.stdout).toContain('snapshot <url>');
    expect(mcp.code).toBe(0);
    expect(mcp.stdout).toContain('--port <n>');
    expect(mcp.stdout).toContain('--allowed-domains');
    expect(mcp.stdout).toContain('--session-store <dir|url>');
    expect(snapshot.code).toBe(0);
    expect(snapshot.stdout).toMatch(/^Usage: mastra-browser-toolset snapshot <url>/);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // No command: the usage, on stderr, and a failure.
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage:');
  });

  it('rejects mistakes in the command line with exit code 2 and one line', async () => {
    const [option, command, viewport, missingUrl, config] = await Promise.all([
      cli('snapshot', 'http://127.0.0.1/', '--bogus'),
      cli('fly'),
      cli('snapshot', 'http://127.0.0.1/', '--viewport', 'wide'),
      cli('snapshot'),
      cli('snapshot', 'http://127.0.0.1/', '--config', '/nonexistent/config.json'),
    ]);
    for (const run of [option, command, viewport, missingUrl, config]) expect(run.code, run.stderr).toBe(2);
    expectOneLineError(option, /^mastra-browser-toolset: Unknown option '--bogus'/);
    expectOneLineError(command, /unknown command "fly"/);
    expectOneLineError(viewport, /--viewport takes WIDTHxHEIGHT/);
    expectOneLineError(missingUrl, /snapshot takes one URL/);
    expectOneLineError(config, /cannot read the config file/);
  });

  it('accepts the options of the integrations/mcp snippets and config example', () => {
    for (const file of ['integrations/mcp/claude-code/.mcp.json', 'integrations/mcp/cursor/.cursor/mcp.json']) {
      const { command, args } = JSON.parse(readFileSync(join(ROOT, file), 'utf8')).mcpServers.browser;
      expect(command).toBe('npx');
      expect(args.slice(0, 3)).toEqual(['-y', 'mastra-browser-toolset', 'mcp']);
      expect(() => new BrowserToolset(toolsetConfig(parse(args.slice(3), MCP_FLAGS).values)), file).not.toThrow();
    }
    const config = toolsetConfig({ config: join(ROOT, 'integrations/mcp/browser.config.json'), headed: true });
    expect(config).toMatchObject({ headless: false, allowedDomains: ['example.com', '*.example.com'] });
    expect(Object.keys(new BrowserToolset(config).tools)).not.toContain('browser_screenshot');
  });

  it('takes --session-store for the HTTP server only: a directory, or a Postgres or LibSQL database by URL', async () => {
    const [stdio, plaintext] = await Promise.all([cli('mcp', '--session-store', '/tmp/sessions'), cli('mcp', '--port', '0', '--allow-plaintext')]);
    expect(stdio.code).toBe(2);
    expectOneLineError(stdio, /--session-store needs --port/);
    expect(plaintext.code).toBe(2);
    expectOneLineError(plaintext, /--allow-plaintext needs --session-store/);
    expect(storeConfig({ 'session-store': 'sessions', 'allow-plaintext': true })).toEqual({ sessionStore: 'sessions', allowPlaintext: true });
    for (const url of ['file:/var/lib/browser.db', 'libsql://db.example.com?authToken=t']) {
      expect(storeConfig({ 'session-store': url }).sessionStore).toBeInstanceOf(LibSQLSessionStore);
    }
    for (const url of ['postgres://app@db.internal:5432/app', 'postgresql://app:secret@db.internal/app?sslmode=require']) {
      expect(storeConfig({ 'session-store': url }).sessionStore).toBeInstanceOf(PostgresSessionStore);
    }
  });

  it('reports a browser that is not there as browser_not_found, exit code 1', async () => {
    const run = await cli('snapshot', server.url('/fixtures/form.html'), '--executable-path', '/nonexistent/chrome');
    expect(run.code).toBe(1);
    expectOneLineError(run, /^mastra-browser-toolset: browser_not_found: .*\/nonexistent\/chrome.* Hint: /);
  });
});

describe('snapshot', { timeout: 180_000 }, () => {
  it('prints what the agent reads of a page, and which browser was used on stderr only', async () => {
    const run = await cli('snapshot', server.url('/fixtures/form.html'), ...OFFLINE);
    expect(run.code, run.stderr).toBe(0);
    // Page content comes inside the session's content boundary (boundary.ts).
    expect(run.stdout).toMatch(/^\d{6}\{\nstatus: 200\npage "Create your account" http:\/\/127\.0\.0\.1:\d+\/fixtures\/form\.html\n/);
    expect(run.stdout).toMatch(/^e\d+ textbox "Full name \*" required$/m);
    expect(run.stdout).not.toContain('browser:');
    expect(run.stderr).toMatch(/^browser: (system|bundled|CHROME_PATH|executablePath) \//m);
  });

  it('fails with navigation_failed and exit code 1 when the page cannot be opened', async () => {
    const run = await cli('snapshot', 'http://nowhere.invalid/', ...OFFLINE);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expectOneLineError(run, /^mastra-browser-toolset: navigation_failed: .* Hint: /);
  });

  it('fails with invalid_input and exit code 2 for a URL that is not one', async () => {
    const run = await cli('snapshot', 'http://[oops', ...OFFLINE);
    expect(run.code).toBe(2);
    expectOneLineError(run, /^mastra-browser-toolset: invalid_input: /);
  });
});
