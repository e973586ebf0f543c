/**
 * `npm run bench:deploy`: how much memory a deployment needs. A Node process holding a Mastra Agent with the
 * browser tools (what a Mastra server carries), plus the Chromium tree, with 1 and with 5 conversations each on
 * a real page. docs/deploy.md shows its table, copied from `bench/results/deploy.md` by bench/readme-figures.ts.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '@mastra/core/agent';
import { BrowserToolset } from '../src/index.js';
import { CORPUS_DIR, OFFLINE_ARGS, startServer } from '../test/helpers/server.js';
import { chromiumTree } from './sessions/processes.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = readdirSync(CORPUS_DIR, { withFileTypes: true }).some((f) => f.name === 'wikipedia.html') ? '/corpus/wikipedia.html' : '/fixtures/article.html';
const mb = (kb: number) => Math.round(kb / 1024);

const server = await startServer();
const browser = new BrowserToolset({ args: OFFLINE_ARGS });
// What a Mastra server holds besides the browser: the framework and an agent with the tools.
new Agent({ id: 'web', name: 'web', instructions: 'Browse.', model: 'openai/gpt-4o-mini', tools: browser.tools });

const rows: string[] = [];
let info: ReturnType<() => BrowserToolset['browserInfo']>;
async function measure(conversations: number): Promise<void> {
  await Promise.all(
    Array.from({ length: conversations }, (_, i) =>
      (browser.tools.browser_navigate.execute as (i: unknown, c: unknown) => Promise<unknown>)({ url: server.url(PAGE) }, { agent: { threadId: `t${i}` } }),
    ),
  );
  info = browser.browserInfo;
  const tree = await chromiumTree();
  const node = process.memoryUsage().rss / 1024;
  rows.push(`| ${conversations} | ${tree.processes} | ${mb(tree.pssKb)} | ${mb(tree.rssKb)} | ${mb(node)} | ${mb(tree.pssKb + node)} |`);
}

try {
  await measure(1);
  await measure(5);
} finally {
  await browser.close();
  await server.close();
}

const report = [
  `# Deployment memory`,
  '',
  `${new Date().toISOString()}; load average ${loadavg()[0]!.toFixed(1)}; browser: ${info?.source ?? '?'} (Chromium ${info?.version ?? '?'}); page: ${PAGE}.`,
  '',
  '| conversations | Chromium processes | Chromium PSS (MB) | Chromium RSS (MB) | Node RSS (MB) | total PSS + Node (MB) |',
  '|---:|---:|---:|---:|---:|---:|',
  ...rows,
  '',
].join('\n');
console.log(report);
if (!process.argv.includes('--no-write')) writeFileSync(join(ROOT, 'bench/results/deploy.md'), report);
