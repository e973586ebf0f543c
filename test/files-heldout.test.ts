/**
 * Files read whole, on files made for the check (bench/files-check): every piece of text of every PDF page found
 * under its page's heading, every CSV cell in its row and column, reading part after part as an agent does.
 * Also: a PDF gone back or forward to in the history reads like one navigated to, and a call that reads no
 * file never starts the PDF reader.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck, writeFiles } from '../bench/files-check/check.js';
import { generatePdfs, generateTables, type GeneratedFile } from '../bench/files-check/generate.js';
import { hasPdftotext } from '../bench/files-check/truth.js';
import type { BrowserToolset } from '../src/index.js';
import { makePdf, serveFiles, type FileServer } from './helpers/files.js';
import { call, createTestToolset } from './helpers/toolset.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A browser launch and a few dozen files read: a busy 2-core machine takes minutes, not the suite's 60 s. */
const BUSY_MACHINE_MS = 300_000;

describe('held-out files read whole', () => {
  let files: GeneratedFile[];
  let dir: string;
  beforeAll(async () => {
    // A fifth of the benchmark's set: every layout and delimiter, fewer pages and rows; still several parts.
    files = [...(await generatePdfs(23, 0.2)), ...generateTables(23, 0.2)];
    dir = writeFiles(files);
  });

  for (const maxTokens of [undefined, 300]) {
    it(`every PDF line and every CSV cell is found where it belongs, in parts of ${maxTokens ?? 'the default 2,000'} tokens`, async () => {
      const results = await runCheck(
        dir,
        files.map((f) => f.name),
        { generated: files, maxTokens },
      );
      // The generator's own text always; Poppler's pdftotext too where it is installed.
      expect(results.filter((r) => r.truth === 'generator')).toHaveLength(files.length);
      if (hasPdftotext()) expect(results.filter((r) => r.truth === 'pdftotext -layout').length).toBeGreaterThan(0);
      for (const result of results) {
        expect(result.misses, `${result.name} [${result.truth}]`).toEqual([]);
        expect(result.remarks, `${result.name} [${result.truth}]`).toEqual([]);
        expect(result.found, result.name).toBe(result.total);
      }
      // Paging was exercised: the long report and the many rows came in several parts.
      expect(results.find((r) => r.name.startsWith('many-rows'))!.parts).toBeGreaterThan(maxTokens ? 20 : 3);
      expect(results.find((r) => r.name.startsWith('report'))!.parts).toBeGreaterThan(1);
    }, BUSY_MACHINE_MS);
  }
});

describe('a PDF in the history', () => {
  let server: FileServer;
  let browser: BrowserToolset;
  const pages = [['The first page says the balance is 4,210.00'], ['The second page lists the fees']];
  beforeAll(async () => {
    server = await serveFiles({
      '/': { type: 'text/html', body: '<title>Home</title><h1>Home</h1>' },
      '/next': { type: 'text/html', body: '<title>Next</title><h1>Next page</h1>' },
      '/statement.pdf': { type: 'application/pdf', body: await makePdf(pages, 'Statement') },
    });
    browser = createTestToolset({ downloadDir: mkdtempSync(join(tmpdir(), 'mbt-files-history-')) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('going back and forward to a PDF gives its text as navigate does', async () => {
    expect((await call(browser, 'browser_navigate', { url: server.url('/') })).ok).toBe(true);
    const opened = await call(browser, 'browser_navigate', { url: server.url('/statement.pdf') });
    expect(opened.file).toContain('balance is 4,210.00');
    expect((await call(browser, 'browser_navigate', { url: server.url('/next') })).ok).toBe(true);
    const back = await call(browser, 'browser_history', { action: 'back' });
    expect(back.ok).toBe(true);
    if (opened.url === server.url('/statement.pdf')) {
      // A browser with a PDF viewer (Chrome, Debian's Chromium) showed the PDF as a page: back lands on it.
      expect(back.url).toBe(server.url('/statement.pdf'));
      expect(back.file).toContain('## PDF page 1 of 2');
      expect(back.file).toContain('balance is 4,210.00');
      const forward = await call(browser, 'browser_history', { action: 'forward' });
      expect(forward.url).toBe(server.url('/next'));
      expect(forward.file).toBeUndefined();
      const again = await call(browser, 'browser_history', { action: 'back' });
      expect(again.file).toContain('balance is 4,210.00');
    } else {
      // The headless shell downloads a PDF: it never was a page of the history, and back goes to the page before.
      expect(back.url).toBe(server.url('/'));
      expect(back.file).toBeUndefined();
    }
  });
});

it('a call that reads no file does not start the PDF reader; the first PDF does', () => {
  // A fresh process: which worker threads start, and whether PDF.js's code is resolved in it at all.
  const script = `
    import { register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const { port1, port2 } = new MessageChannel();
    const resolved = [];
    port1.on('message', (url) => resolved.push(url));
    port1.unref();
    register('data:text/javascript,' + encodeURIComponent(\`let port;
      export function initialize(data) { port = data.port; }
      export async function resolve(specifier, context, next) {
        const result = await next(specifier, context);
        if (/unpdf|pdfjs/.test(result.url)) port.postMessage(result.url);
        return result;
      }\`), { data: { port: port2 }, transferList: [port2] });
    const workers = [];
    process.on('worker', (worker) => workers.push(worker));
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { BrowserToolset } = await import('./src/index.ts');
    const { makePdf, serveFiles } = await import('./test/helpers/files.ts');
    const { OFFLINE_ARGS } = await import('./test/helpers/server.ts');
    const server = await serveFiles({
      '/': { type: 'text/html', body: '<title>Shop</title><h1>Orders</h1><a href="/orders.csv">Orders</a>' },
      '/orders.csv': { type: 'text/csv', attachment: 'orders.csv', body: 'id,total\\n1,12.50\\n' },
      '/report.pdf': { type: 'application/pdf', attachment: 'report.pdf', body: await makePdf([['Revenue grew']]) },
    });
    const toolset = new BrowserToolset({ args: OFFLINE_ARGS, downloadDir: mkdtempSync(join(tmpdir(), 'mbt-lazy-')) });
    const run = (id, input) => toolset.tools[id].execute(input, {});
    const tick = () => new Promise((done) => setTimeout(done, 200));
    const calls = [await run('browser_navigate', { url: server.url('/') }), await run('browser_snapshot', {}), await run('browser_navigate', { url: server.url('/orders.csv') })];
    await tick();
    const before = { ok: calls.map((c) => c.ok), csv: calls[2].file, workers: workers.length, resolved: [...resolved] };
    const pdf = await run('browser_navigate', { url: server.url('/report.pdf') });
    await tick();
    const after = { ok: pdf.ok, file: pdf.file, workers: workers.length };
    await toolset.close();
    await server.close();
    console.log(JSON.stringify({ before, after }));
    process.exit(0);`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: BUSY_MACHINE_MS - 10_000 });
  const { before, after } = JSON.parse(out.trim().split('\n').pop()!);
  // A page, a snapshot and a CSV (read without PDF.js): no worker, and PDF.js never resolved.
  expect(before.ok).toEqual([true, true, true]);
  expect(before.csv).toContain('| 1 | 12.50 |');
  expect(before.workers).toBe(0);
  expect(before.resolved).toEqual([]);
  // The first PDF starts the reader's worker.
  expect(after.ok).toBe(true);
  expect(after.file).toContain('Revenue grew');
  expect(after.workers).toBe(1);
}, BUSY_MACHINE_MS);
