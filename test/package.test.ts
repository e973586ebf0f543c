/**
 * The package as npm users get it: built, packed, installed into an empty project beside @mastra/core, then
 * imported (ESM) and required (CommonJS) there to drive a local page; its command runs from node_modules/.bin.
 * One install serves every check; `npm install --omit=optional` then prunes the npm-shipped Chromium to see
 * what a user without it is told.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_ARGS, startServer, type TestServer } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function registryReachable(): boolean {
  try {
    execFileSync(NPM, ['ping'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

const online = registryReachable();
if (!online) console.warn('package test skipped: the npm registry is unreachable (`npm ping` failed), so the packed package cannot be installed');

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

async function mustRun(command: string, args: string[], cwd: string): Promise<string> {
  const result = await run(command, args, cwd);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return result.stdout;
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** `npm run build`, unless dist/ is newer than everything it is built from (CI's second Node version reuses it). */
async function build(): Promise<void> {
  const inputs = Math.max(newestMtime(join(ROOT, 'src')), newestMtime(join(ROOT, 'package.json')), newestMtime(join(ROOT, 'tsup.config.ts')));
  const outputs = ['index.js', 'index.cjs', 'index.d.ts', 'cli.js'].map((file) => {
    try {
      return statSync(join(ROOT, 'dist', file)).mtimeMs;
    } catch {
      return 0;
    }
  });
  if (Math.min(...outputs) > inputs) return;
  await mustRun(NPM, ['run', 'build'], ROOT);
}

/** What a user's first script does: open a page, read it, take a snapshot. Printed as JSON for the test to check. */
function script(load: string, config: object): string {
  return `(async () => {
  const { BrowserToolset } = ${load};
  const toolset = new BrowserToolset(${JSON.stringify(config)});
  try {
    const url = process.argv[2];
    const nav = await toolset.tools.browser_navigate.execute({ url }, {});
    const read = await toolset.tools.browser_read.execute({}, {});
    const snapshot = await toolset.tools.browser_snapshot.execute({}, {});
    console.log(JSON.stringify({ nav, read, snapshot, source: toolset.browserInfo && toolset.browserInfo.source }));
  } finally {
    await toolset.close();
  }
})();
`;
}

// npm and fresh Node processes: slow on a busy machine, so generous limits (they bound, they do not measure).
describe.skipIf(!online)('the packed package in an empty project', { timeout: 300_000 }, () => {
  let project: string;
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
    project = mkdtempSync(join(tmpdir(), 'mbt-package-'));
    await build();
    const packed = JSON.parse(await mustRun(NPM, ['pack', '--json', '--pack-destination', project], ROOT)) as Array<{ filename: string }>;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'package-test', version: '1.0.0', private: true }));
    await mustRun(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(project, packed[0]!.filename), `@mastra/core@${rootPackage.devDependencies['@mastra/core']}`], project);
  }, 900_000);

  afterAll(async () => {
    await server?.close();
    if (project) await rm(project, { recursive: true, force: true });
  }, 300_000);

  const config = { args: OFFLINE_ARGS, timeout: 5_000, navigationTimeout: 15_000 };

  function expectItWorked(stdout: string) {
    const result = JSON.parse(stdout);
    expect(result.nav).toMatchObject({ ok: true, title: 'A history of kettles', status: 200 });
    expect(result.read).toMatchObject({ ok: true, title: 'A history of kettles' });
    expect(result.read.markdown).toContain('## Chapter 1');
    expect(result.snapshot.ok).toBe(true);
    expect(result.snapshot.snapshot).toMatch(/^page "A history of kettles" /);
    return result;
  }

  it('imports as ESM and drives a page with the npm-shipped Chromium: navigate, read, snapshot', async () => {
    writeFileSync(join(project, 'esm.mjs'), script(`await import('mastra-browser-toolset')`, { ...config, chromium: 'bundled' }));
    const result = await run(process.execPath, ['esm.mjs', server.url('/fixtures/article.html')], project);
    expect(result.code, result.stderr).toBe(0);
    expect(expectItWorked(result.stdout).source).toBe('bundled');
  });

  it('requires as CommonJS and does the same', async () => {
    writeFileSync(join(project, 'cjs.cjs'), script(`require('mastra-browser-toolset')`, config));
    const result = await run(process.execPath, ['cjs.cjs', server.url('/fixtures/article.html')], project);
    expect(result.code, result.stderr).toBe(0);
    expectItWorked(result.stdout);
  });

  it('ships types for both and a working command', async () => {
    const installed = join(project, 'node_modules', 'mastra-browser-toolset');
    expect(readdirSync(join(installed, 'dist'))).toEqual(expect.arrayContaining(['index.d.ts', 'index.d.cts', 'cli.js']));
    const help = await run(join(project, 'node_modules', '.bin', 'mastra-browser-toolset'), ['--help'], project);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: mastra-browser-toolset <command>');
  });

  // Last: it removes the npm-shipped Chromium from the project.
  it('without optional dependencies, chromium: "bundled" gives one browser_not_found result naming @sparticuz/chromium', async () => {
    await mustRun(NPM, ['install', '--omit=optional', '--prefer-offline', '--no-audit', '--no-fund'], project);
    writeFileSync(join(project, 'bundled.mjs'), script(`await import('mastra-browser-toolset')`, { ...config, chromium: 'bundled' }));
    const result = await run(process.execPath, ['bundled.mjs', server.url('/fixtures/article.html')], project);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const { nav } = JSON.parse(result.stdout);
    expect(nav.ok).toBe(false);
    expect(nav.error.code).toBe('browser_not_found');
    expect(`${nav.error.message} ${nav.error.hint}`).toContain('@sparticuz/chromium');
    expect(nav.error.message).not.toMatch(/\n\s+at /);
  });
});
