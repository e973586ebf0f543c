/**
 * Files the agent can read: downloads kept per session by name, read in parts with browser_read { file } (PDF,
 * CSV, TSV, JSON, text, HTML, zip, images), a PDF opened in a tab read like a page, uploads of what was
 * downloaded, and every bad file or name answered with a structured error, the session usable after. Files are
 * made by the tests (pdf-lib, JSZip) or kept small in test/fixtures/files (an encrypted PDF made with qpdf).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '@mastra/core/agent';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserToolset, ToolsetBrowser } from '../src/index.js';
import { serveHttp } from '../src/mcp/server.js';
import { DirectoryStore } from '../src/store/directory.js';
import { makeImagePdf, makeInvoicePdf, makePdf, serveFiles, type FileServer } from './helpers/files.js';
import { scriptedModel, type Decision, type ToolResultSeen } from './helpers/scriptedModel.js';
import { OFFLINE_ARGS } from './helpers/server.js';
import { call, createTestToolset, refOf } from './helpers/toolset.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENCRYPTED = readFileSync(join(ROOT, 'test/fixtures/files/encrypted.pdf'));
/** Another site than 127.0.0.1 that reaches the same server (OFFLINE_ARGS maps it). */
const OTHER_SITE = 'tags.other-site.test';
const MB = 1_000_000;

const reportPages = Array.from({ length: 12 }, (_, p) => Array.from({ length: 30 }, (_, i) => `Section ${p + 1}.${i + 1}: revenue grew in region ${(p * 30 + i) % 17}`));
const invoice = { number: 'INV-2291', items: [['Hosting plan', '12', '240.00'], ['Support hours', '3', '315.00']] as Array<[string, string, string]>, total: '555.00 EUR' };

let server: FileServer;
let browser: BrowserToolset;

beforeAll(async () => {
  const zip = new JSZip();
  zip.file('readme.txt', 'hello');
  zip.file('data/rows.csv', 'a,b\n1,2\n');
  const long = await makePdf(reportPages, 'Annual report');
  server = await serveFiles({
    '/': {
      type: 'text/html',
      body: `<title>Shop</title><h1>Orders</h1>
        <a href="/invoice.pdf" download>Download invoice</a> <a href="/report.pdf">Annual report</a>
        <a href="/orders.csv">Orders as CSV</a> <a href="/slow.csv">Slow export</a> <a href="/cut.csv">Broken export</a>`,
    },
    '/invoice.pdf': { type: 'application/pdf', body: await makeInvoicePdf(invoice) },
    '/report.pdf': { type: 'application/pdf', body: long },
    '/report-inline': { type: 'text/html', body: '<title>Report</title><h1>Report</h1><iframe src="/report.pdf" width="600" height="400"></iframe>' },
    '/orders.csv': { type: 'text/csv', attachment: 'orders.csv', body: 'id;customer;amount\n1;"Smith; Ann";12,50\n2;"Line\nbreak";7\n3;Pipe|Co;0\n' },
    '/people.tsv': { type: 'text/tab-separated-values', attachment: 'people.tsv', body: 'name\tcity\nAda\tLondon\nGrace\tNew York\n' },
    '/data.json': { type: 'application/json', attachment: 'data.json', body: '{"id":12345678901234567890,"tags":["a","b"],"nested":{"ok":true}}' },
    '/notes.txt': { type: 'text/plain', body: 'First line\nSecond line' },
    '/notes-download.txt': { type: 'text/plain', attachment: 'notes.txt', body: 'Plain notes\n\nwith a blank line' },
    '/page.html': { type: 'text/html', attachment: 'article.html', body: '<html><head><title>Saved</title><script>document.title="ran"</script></head><body><nav>Menu</nav><article><h1>Saved article</h1><p>' + 'The article body says the meeting is on Tuesday. '.repeat(12) + '</p></article></body></html>' },
    '/archive.zip': { type: 'application/zip', attachment: 'archive.zip', body: await zip.generateAsync({ type: 'nodebuffer' }) },
    '/logo.png': { type: 'image/png', attachment: 'logo.png', body: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAADklEQVR4nGNgYGBgYGAAAAAFAAE/7XqvAAAAAElFTkSuQmCC', 'base64') },
    '/encrypted.pdf': { type: 'application/pdf', attachment: 'statement.pdf', body: ENCRYPTED },
    '/scan.pdf': { type: 'application/pdf', attachment: 'scan.pdf', body: await makeImagePdf(2) },
    '/truncated.pdf': { type: 'application/pdf', attachment: 'truncated.pdf', body: long.subarray(0, Math.floor(long.length / 3)) },
    '/corrupt.pdf': { type: 'application/pdf', attachment: 'corrupt.pdf', body: '%PDF-1.7\nthis is not a PDF at all\n%%EOF' },
    // 200 MB made as it is sent: nothing of it is kept in memory or committed.
    '/huge.csv': {
      type: 'text/csv',
      body: (res) => {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="huge.csv"', 'content-length': String(200 * MB) });
        const row = Buffer.from('123456,alpha,beta,gamma,delta,epsilon,0.5\n');
        const chunk = Buffer.concat(Array.from({ length: Math.floor(MB / row.length) }, () => row));
        const header = 'id,a,b,c,d,e,f\n';
        res.write(header);
        let sent = header.length;
        const pump = () => {
          while (sent < 200 * MB) {
            const piece = chunk.subarray(0, Math.min(chunk.length, 200 * MB - sent));
            sent += piece.length;
            if (!res.write(piece)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      },
    },
    '/huge.pdf': {
      type: 'application/pdf',
      body: (res) => {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="huge.pdf"', 'content-length': String(60 * MB) });
        res.write('%PDF-1.7\n');
        const zeros = Buffer.alloc(MB);
        let sent = 9;
        const pump = () => {
          while (sent < 60 * MB) {
            const piece = zeros.subarray(0, Math.min(MB, 60 * MB - sent));
            sent += piece.length;
            if (!res.write(piece)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      },
    },
    // Half the file, then nothing: a download that never ends.
    '/slow.csv': { type: 'text/csv', body: (res) => { res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="slow.csv"', 'content-length': '1000' }); res.write('a,b\n'); } },
    // The connection drops half-way: a download that fails.
    '/cut.csv': { type: 'text/csv', body: (res) => { res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="cut.csv"', 'content-length': '1000' }); res.write('a,b\n', () => res.destroy()); } },
    '/upload': {
      type: 'text/html',
      body: `<title>Claims</title><h1>Attach the invoice</h1><form><label>Invoice file <input type="file" name="doc"></label></form><p id="got"></p>
        <script>document.querySelector('input').onchange = async (e) => { const f = e.target.files[0]; const head = new TextDecoder().decode((await f.arrayBuffer()).slice(0, 8));
        document.getElementById('got').textContent = 'Received ' + f.name; fetch('/received?' + new URLSearchParams({ name: f.name, size: f.size, head })); };</script>`,
    },
    '/received': { type: 'text/plain', body: (res) => res.writeHead(204).end() },
  });
  browser = createTestToolset({ downloadDir: mkdtempSync(join(tmpdir(), 'mbt-files-')), navigationTimeout: 15_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const navigate = (path: string) => call(browser, 'browser_navigate', { url: server.url(path) });
const read = (input: Record<string, unknown>) => call(browser, 'browser_read', input as never);

describe('a document opened by a call reads like a page', () => {
  it('a link to a PDF gives its title, page count and first part, and browser_read goes on from there', async () => {
    const home = await navigate('/');
    const clicked = await call(browser, 'browser_click', { ref: refOf(home.snapshot, 'link', 'Annual report') });
    expect(clicked.ok).toBe(true);
    expect(clicked.downloads.map((d: any) => d.file)).toEqual(['report.pdf']);
    expect(clicked.file).toContain('file "report.pdf": PDF, 12 pages');
    expect(clicked.file).toContain('title "Annual report"');
    expect(clicked.file).toContain('## PDF page 1 of 12');
    expect(clicked.file).toContain(reportPages[0]![0]);
    const next = /next: browser_read (\{.*\})\]/.exec(clicked.file)![1]!;
    // Every line of every page is found, under its page's heading, reading on part by part.
    let part = await read(JSON.parse(next));
    const text = [clicked.file];
    while (part.ok) {
      text.push(part.markdown);
      expect(part.tokens).toBeLessThanOrEqual(2_100);
      if (!part.next) break;
      part = await read(JSON.parse(part.next.replace(/^browser_read /, '')));
    }
    expect(part.ok).toBe(true);
    const all = text.join('\n');
    reportPages.forEach((lines, p) => {
      const at = all.indexOf(`## PDF page ${p + 1} of 12`);
      expect(at, `page ${p + 1}`).toBeGreaterThanOrEqual(0);
      for (const line of lines) expect(all.includes(line), line).toBe(true);
    });
  });

  it('navigate to a PDF, and a page that shows one in a frame, list it and read it', async () => {
    const opened = await navigate('/invoice.pdf');
    expect(opened.ok).toBe(true);
    expect(opened.file).toContain('Invoice INV-2291');
    // The table was drawn column by column; it reads row by row, the total on its line.
    expect(opened.file).toContain('Hosting plan 12 240.00');
    expect(opened.file).toContain('Total due: 555.00 EUR');
    const framed = await navigate('/report-inline');
    expect(framed.ok).toBe(true);
    expect(framed.downloads.map((d: any) => d.file)).toEqual([expect.stringMatching(/^report( \(\d\))?\.pdf$/)]);
    expect(framed.notices.join(' ')).toContain('browser_read { file } reads it');
  });

  it('a CSV served as a file reads as a table, header first, every cell whole; text served in a tab reads as text', async () => {
    const opened = await navigate('/orders.csv');
    expect(opened.file).toContain('table "orders.csv" (3 cols, 3 rows):\n| id | customer | amount |');
    expect(opened.file).toContain('| 1 | Smith; Ann | 12,50 |');
    expect(opened.file).toContain('| 2 | Line break | 7 |');
    expect(opened.file).toContain('| 3 | Pipe¦Co | 0 |');
    const text = await navigate('/notes.txt');
    expect(text.snapshot).toContain('Second line');
    expect((await read({})).markdown).toContain('Second line');
  });
});

describe('browser_read { file }', () => {
  it('reads TSV, JSON (its numbers as written), text, HTML through the page reader, a zip’s entries and an image’s kind', async () => {
    for (const path of ['/people.tsv', '/data.json', '/notes-download.txt', '/page.html', '/archive.zip', '/logo.png']) expect((await navigate(path)).ok, path).toBe(true);
    expect((await read({ file: 'people.tsv' })).markdown).toContain('| Grace | New York |');
    const json = (await read({ file: 'data.json' })).markdown;
    expect(json).toContain('"id": 12345678901234567890');
    expect(json).toContain('"ok": true');
    expect((await read({ file: 'notes.txt' })).markdown).toContain('Plain notes\n\nwith a blank line');
    const html = await read({ file: 'article.html' });
    expect(html.markdown).toContain('# Saved article');
    expect(html.markdown).toContain('the meeting is on Tuesday');
    expect(html.markdown).not.toContain('Menu');
    const zip = (await read({ file: 'archive.zip' })).markdown;
    expect(zip).toContain('zip archive');
    expect(zip).toContain('- data/rows.csv (8 bytes)');
    expect((await read({ file: 'logo.png' })).markdown).toContain('PNG image');
  });

  it('lists every download with what caused it, and a name that does not exist says which do', async () => {
    const tabs = await call(browser, 'browser_tabs', { action: 'list' });
    const report = tabs.downloads.find((d: any) => d.file === 'report.pdf');
    // The page it was clicked on; with Chromium's PDF viewer, the PDF page the link opened, where it was saved from.
    expect(report).toMatchObject({ type: 'PDF', from: server.url('/report.pdf'), on: expect.stringMatching(/\/(report\.pdf)?$/) });
    expect(report.by).toMatch(/^browser_click \{"ref":"(f\d+)?e\d+"\}$/);
    const missing = await read({ file: 'nope.pdf' });
    expect(missing.error.code).toBe('invalid_input');
    expect(missing.error.hint).toContain('"report.pdf"');
  });

  it('says what is wrong with an encrypted, a scanned, a truncated and a corrupt PDF, and the session goes on', async () => {
    for (const path of ['/encrypted.pdf', '/scan.pdf', '/truncated.pdf', '/corrupt.pdf']) expect((await navigate(path)).ok, path).toBe(true);
    const encrypted = await read({ file: 'statement.pdf' });
    expect(encrypted.error.code).toBe('invalid_input');
    expect(encrypted.error.message).toContain('encrypted PDF that needs a password');
    const scan = await read({ file: 'scan.pdf' });
    expect(scan.ok).toBe(true);
    expect(scan.notices.join(' ')).toContain('has no text layer');
    expect(scan.markdown).toContain('## PDF page 2 of 2\n(no text on this page');
    for (const file of ['truncated.pdf', 'corrupt.pdf']) {
      const damaged = await read({ file });
      // PDF.js reads what it can of a cut file; what it cannot is named, never returned as empty text.
      if (damaged.ok) expect(damaged.notices.join(' ') + damaged.markdown, file).toMatch(/could not be read|no text/);
      else expect(damaged.error.message, file).toMatch(/not a readable PDF|damaged/);
    }
    expect((await navigate('/')).ok).toBe(true);
  });

  it('a download still under way and one that failed each say so and what to do', async () => {
    const home = await navigate('/');
    const slow = await call(browser, 'browser_click', { ref: refOf(home.snapshot, 'link', 'Slow export') });
    expect(slow.ok).toBe(true);
    expect(slow.downloads).toEqual([expect.objectContaining({ file: 'slow.csv', downloading: true })]);
    const reading = await read({ file: 'slow.csv' });
    expect(reading.error.code).toBe('timeout');
    expect(reading.error.message).toContain('still downloading');
    const cut = await call(browser, 'browser_click', { ref: refOf(home.snapshot, 'link', 'Broken export') });
    expect(cut.downloads).toEqual([expect.objectContaining({ file: 'cut.csv', error: expect.any(String) })]);
    const failed = await read({ file: 'cut.csv' });
    expect(failed.error.code).toBe('navigation_failed');
    expect(failed.error.hint).toContain('Download it again');
    expect((await call(browser, 'browser_snapshot', {})).ok).toBe(true);
  });

  it('a 200 MB CSV is read as far as the limit and says so; a PDF past its limit is refused before it is read', async () => {
    const huge = await navigate('/huge.csv');
    expect(huge.ok, JSON.stringify(huge)).toBe(true);
    const part = await read({ file: 'huge.csv', page: 3 });
    expect(part.ok, JSON.stringify(part).slice(0, 500)).toBe(true);
    expect(part.notices.join(' ')).toContain('huge.csv is 200 MB: only its first 10 MB were read');
    expect(part.markdown).toMatch(/table "huge\.csv" \(7 cols, [\d,]+ rows in its first 10 MB; rows [\d,]+–[\d,]+\):\n\| id \| a \| b \|/);
    expect(part.pages).toBeGreaterThan(100);
    const hugePdf = await navigate('/huge.pdf');
    expect(hugePdf.ok, JSON.stringify(hugePdf).slice(0, 500)).toBe(true);
    const pdf = await read({ file: 'huge.pdf' });
    expect(pdf.error.code).toBe('invalid_input');
    expect(pdf.error.message).toContain('larger than the 50 MB');
  });
});

it('a file larger than the read limit is never read whole into memory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mbt-big-'));
  const path = join(dir, 'big.txt');
  // 200 MB, sparse on disk: its bytes are zeros past a first line, and reading them all would take 200 MB.
  writeFileSync(path, 'first line\n');
  execFileSync('truncate', ['-s', String(200 * MB), path]);
  // What the process read while it read the file, from the kernel's count of its reads (/proc/self/io, rchar):
  // every read counts, whatever the API; not its memory, which the garbage collector and the machine make noisy.
  const script = `
    import { readFileSync } from 'node:fs';
    import { readDownload } from './src/files/reader.ts';
    const bytesRead = () => Number(/^rchar: (\\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
    const entry = { name: 'big.txt', path: ${JSON.stringify(path)}, url: '', page: '', action: '', at: '', state: 'saved', bytes: ${200 * MB}, kind: { kind: 'text', label: 'text' } };
    const before = bytesRead();
    const read = await readDownload(entry, { maxTokens: 2000, part: 1, ms: 60000, htmlToMarkdown: async (h) => h });
    console.log(JSON.stringify({ notes: read.notes, readMb: (bytesRead() - before) / ${MB} }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!);
  expect(out.notes.join(' ')).toContain('only its first 10 MB were read');
  // Its first 10 MB were read, and little else: far from the file's 200 MB.
  expect(out.readMb).toBeGreaterThanOrEqual(10);
  expect(out.readMb).toBeLessThan(50);
});

describe('uploads take downloads', () => {
  it('a document downloaded on one site is uploaded on another by its name; nothing outside the session’s files goes', async () => {
    const home = await navigate('/');
    const got = await call(browser, 'browser_click', { ref: refOf(home.snapshot, 'link', 'Download invoice') });
    const name = got.downloads[0].file;
    expect(name).toMatch(/^invoice( \(\d\))?\.pdf$/);
    const form = await call(browser, 'browser_navigate', { url: server.url('/upload').replace('127.0.0.1', OTHER_SITE) });
    const input = refOf(form.snapshot, 'button', 'Invoice file');
    const sent = await call(browser, 'browser_upload', { ref: input, paths: [name] });
    expect(sent.ok).toBe(true);
    expect(sent.changes).toContain(`Received ${name}`);
    for (const path of ['../../etc/passwd', '/etc/passwd', 'nope.pdf']) {
      const refused = await call(browser, 'browser_upload', { ref: input, paths: [path] });
      expect(refused.error.code, path).toBe('invalid_input');
    }
  });
});

it('downloads are kept in the session store: listed and read by the process that resumes the conversation', async () => {
  const storeDir = mkdtempSync(join(tmpdir(), 'mbt-files-store-'));
  const first = createTestToolset({ sessionStore: new DirectoryStore(storeDir), sessionStoreKey: 'test-secret', downloadDir: mkdtempSync(join(tmpdir(), 'mbt-dl-a-')) });
  const thread = { agent: { threadId: 'files-thread' } };
  try {
    expect(((await (first.tools.browser_navigate.execute as any)({ url: server.url('/invoice.pdf') }, thread)) as any).ok).toBe(true);
  } finally {
    await first.close();
  }
  const second = createTestToolset({ sessionStore: new DirectoryStore(storeDir), sessionStoreKey: 'test-secret', downloadDir: mkdtempSync(join(tmpdir(), 'mbt-dl-b-')) });
  try {
    const again = (await (second.tools.browser_read.execute as any)({ file: 'invoice.pdf' }, thread)) as any;
    expect(again.ok).toBe(true);
    expect(again.markdown).toContain('Total due: 555.00 EUR');
  } finally {
    await second.close();
  }
});

it('over MCP: a PDF navigated to is read, and read on, by a real MCP client', async () => {
  const toolset = createTestToolset({ navigationTimeout: 20_000, downloadDir: mkdtempSync(join(tmpdir(), 'mbt-files-mcp-')) });
  const http = await serveHttp(toolset, { port: 0, version: 'test' });
  const client = new Client({ name: 'files-test', version: '1.0.0' });
  const text = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
    return { isError: result.isError, text: result.content.map((c) => c.text ?? '').join('\n') };
  };
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    // The first call launches the browser; the PDF is opened by the second, as a client's later call would.
    await text('browser_navigate', { url: server.url('/') });
    const opened = await text('browser_navigate', { url: server.url('/report.pdf') });
    expect(opened.isError, opened.text).toBeFalsy();
    expect(opened.text, opened.text.slice(0, 600)).toContain('## PDF page 1 of 12');
    const next = /next: browser_read (\{.*\})\]/.exec(opened.text)![1]!;
    const more = await text('browser_read', JSON.parse(next));
    expect(more.text).toContain('page: 2');
    expect(more.text).toMatch(/## PDF page \d+ of 12/);
    // The download is listed for a later call, with where it came from.
    const listed = await text('browser_tabs', { action: 'list' });
    expect(listed.text).toContain('report.pdf');
    expect(listed.text).toContain(server.url('/report.pdf'));
    const missing = await text('browser_read', { file: 'missing.csv' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('There is no download called "missing.csv"');
  } finally {
    await client.close().catch(() => {});
    await http.close();
    await toolset.close();
  }
});

it('in Studio: a file a person downloads in the live view is announced to the agent and read by it', async () => {
  const provider = new ToolsetBrowser({ timeout: 3_000, navigationTimeout: 20_000, args: OFFLINE_ARGS, downloadDir: mkdtempSync(join(tmpdir(), 'mbt-files-studio-')) });
  const seen: ToolResultSeen[][] = [];
  // Each generate plays its decisions, then answers.
  const turns: Array<Decision | undefined> = [{ tools: [{ name: 'browser_navigate', input: { url: server.url('/') } }] }, undefined];
  const model = scriptedModel((results) => {
    seen.push(results);
    return turns.shift() ?? { text: 'done' };
  });
  const agent = new Agent({ id: 'files', name: 'files', instructions: 'Read files.', model, browser: provider });
  try {
    await agent.generate('Open the shop.', { maxSteps: 2, memory: { thread: 'files-studio', resource: 'ada' } });
    // A person clicks the CSV link in the live view: Studio's input reaches the page.
    const page = (await provider.getActivePage('files-studio'))!;
    const box = (await page.getByRole('link', { name: 'Orders as CSV' }).boundingBox())!;
    const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const saved = page.waitForEvent('download');
    await provider.injectMouseEvent({ type: 'mousePressed', ...at, button: 'left', clickCount: 1 }, 'files-studio');
    await provider.injectMouseEvent({ type: 'mouseReleased', ...at, button: 'left', clickCount: 1 }, 'files-studio');
    await (await saved).path();
    turns.push({ tools: [{ name: 'browser_snapshot', input: {} }] }, { tools: [{ name: 'browser_read', input: { file: 'orders.csv' } }] });
    await agent.generate('Read the orders.', { maxSteps: 3, memory: { thread: 'files-studio', resource: 'ada' } });
    const outputs = seen.flat().map((r) => (typeof r.output === 'string' ? r.output : JSON.stringify(r.output)));
    expect(outputs.length, JSON.stringify(outputs).slice(0, 2000)).toBeGreaterThan(2);
    expect(outputs.find((o) => o.includes('not by your calls'))).toContain('orders.csv');
    expect(outputs.at(-1)).toContain('| 1 | Smith; Ann | 12,50 |');
  } finally {
    await provider.close();
  }
});
