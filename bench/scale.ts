/**
 * `npm run bench:scale`: snapshot time on generated pages of growing size (1,000 to 50,000 elements),
 * to check that it grows at most linearly, and that a budgeted snapshot never exceeds its budget.
 * Compared with agent-browser's interactive snapshot (what @mastra/agent-browser uses) in the same run.
 */
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BrowserManager } from 'agent-browser';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { BrowserToolset, DEFAULT_CHROMIUM_ARGS } from '../src/index.js';
import { OFFLINE_ARGS } from '../test/helpers/server.js';
import { CHROMIUM } from './systems.js';

const SIZES = (process.argv.find((a) => a.startsWith('--sizes='))?.slice(8) ?? '1000,10000,50000').split(',').map(Number);
const REPEATS = 3;

/** A page of `n` elements: rows of a link, a button, an input and a paragraph, in sections with headings. */
function page(n: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n / 4; i++) {
    if (i % 50 === 0) rows.push(`<h2>Section ${i / 50}</h2>`);
    rows.push(`<div class="row"><a href="/item/${i}">Item ${i}</a> <button>Buy ${i}</button> <input aria-label="Quantity ${i}" value="${i % 7}"> <p>Description of item ${i}.</p></div>`);
  }
  return `<!doctype html><title>Generated ${n}</title><h1>${n} elements</h1>${rows.join('')}`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

const server = createServer((req, res) => {
  const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? 100);
  res.writeHead(200, { 'content-type': 'text/html' }).end(page(n));
});
await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
const port = (server.address() as { port: number }).port;

const ours = new BrowserToolset({ args: OFFLINE_ARGS, navigationTimeout: 120_000 });
const raw = new BrowserManager();
await raw.launch({ headless: true, executablePath: CHROMIUM, args: [...DEFAULT_CHROMIUM_ARGS, ...OFFLINE_ARGS] });

interface Row {
  elements: number;
  oursDefaultMs: number;
  oursPageMs: number;
  oursPageTokens: number;
  budget: number;
  budgetedTokens: number;
  agentBrowserMs: number;
  agentBrowserTokens: number;
}
const rows: Row[] = [];
for (const n of SIZES) {
  const url = `http://127.0.0.1:${port}/?n=${n}`;
  await (ours.tools.browser_navigate.execute as any)({ url }, {});
  await raw.navigate(url);
  const snap = (input: object): Promise<any> => (ours.tools.browser_snapshot.execute as any)(input, {});
  const oursDefault: number[] = [];
  const oursPage: number[] = [];
  const agent: number[] = [];
  let pageTokens = 0;
  let agentTokens = 0;
  for (let r = 0; r < REPEATS; r++) {
    oursDefault.push((await time(() => snap({})))[0]);
    const [pageMs, pageResult] = await time(() => snap({ scope: 'page', maxTokens: 100_000 }));
    oursPage.push(pageMs);
    pageTokens = pageResult.tokens;
    try {
      const [agentMs, agentResult] = await time(() => raw.getSnapshot({ interactive: true }));
      agent.push(agentMs);
      agentTokens = countTokens(agentResult.tree);
    } catch (error) {
      // agent-browser gives up after its own 25 s timeout on the largest pages; record that instead of a time.
      agent.push(Number.POSITIVE_INFINITY);
      console.log(`agent-browser failed on ${n} elements: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const budget = 3_000;
  const budgeted = await snap({ scope: 'page', maxTokens: budget });
  rows.push({
    elements: n,
    oursDefaultMs: Math.round(median(oursDefault)),
    oursPageMs: Math.round(median(oursPage)),
    oursPageTokens: pageTokens,
    budget,
    budgetedTokens: budgeted.tokens,
    agentBrowserMs: median(agent),
    agentBrowserTokens: agentTokens,
  });
  console.log(rows.at(-1));
}
await ours.close();
await raw.close();
server.close();

const lines = [
  `Generated pages (rows of link, button, input, paragraph), median of ${REPEATS} runs, ${new Date().toISOString().slice(0, 10)}:`,
  '',
  '| elements | ours default (ms) | ours page (ms) | ours page tokens | budgeted page snapshot (limit 3,000) | agent-browser interactive (ms) | agent-browser tokens | ms per 1,000 elements, ours page |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.elements.toLocaleString('en-US')} | ${r.oursDefaultMs} | ${r.oursPageMs} | ${r.oursPageTokens.toLocaleString('en-US')} | ${r.budgetedTokens.toLocaleString('en-US')} | ${Number.isFinite(r.agentBrowserMs) ? Math.round(r.agentBrowserMs) : 'failed (its 25 s timeout)'} | ${r.agentBrowserTokens ? r.agentBrowserTokens.toLocaleString('en-US') : '-'} | ${((r.oursPageMs / r.elements) * 1000).toFixed(1)} |`),
];
console.log(lines.join('\n'));
writeFileSync(join(dirname(new URL(import.meta.url).pathname), 'results', 'scale.md'), `${lines.join('\n')}\n`);
