/**
 * `npx tsx bench/long-visit.ts`: what a long visit to one site costs the tab's renderer. One tab opens the corpus
 * pages one after another from the local test server (one site), back to back as an agent's calls may come, then
 * the renderer processes' memory is read from /proc: at once after the last call, and after the session has been
 * quiet for a while (our garbage collection of left frames runs in quiet moments; loading/browsingInstance.ts).
 *
 *   npx tsx bench/long-visit.ts                                         100 pages
 *   npx tsx bench/long-visit.ts --pages=30 --pause-ms=500              fewer pages, a pause between calls
 *   npx tsx bench/long-visit.ts --without-chromium-arg=--process-per-site   without one of our default flags
 *
 * Prints only; the ledger in docs/loading.md quotes it. Linux only (/proc).
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { BrowserToolset, DEFAULT_CHROMIUM_ARGS } from '../src/index.js';
import { CORPUS_DIR, OFFLINE_ARGS, startServer } from '../test/helpers/server.js';
import { median, quantile } from './stats.js';
import { CHROMIUM, VIEWPORT } from './systems.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '100' },
    'pause-ms': { type: 'string', default: '0' },
    'quiet-ms': { type: 'string', default: '3000' },
    'without-chromium-arg': { type: 'string' },
  },
});
const without = values['without-chromium-arg'];
if (without) {
  // The toolset reads DEFAULT_CHROMIUM_ARGS when it resolves its config: taken out here, the flag is not passed.
  const at = DEFAULT_CHROMIUM_ARGS.indexOf(without);
  if (at < 0) throw new Error(`${without} is not one of ${DEFAULT_CHROMIUM_ARGS.join(' ')}`);
  DEFAULT_CHROMIUM_ARGS.splice(at, 1);
}
const COUNT = Number(values.pages);
const PAUSE_MS = Number(values['pause-ms']);
const QUIET_MS = Number(values['quiet-ms']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** PSS and private memory summed over the renderer processes below this Node process (MB). */
async function renderers(): Promise<{ processes: number; pssMb: number; privateMb: number }> {
  let processes = 0;
  let pssKb = 0;
  let privateKb = 0;
  for (const pid of await rendererPids()) {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    if (!rollup) continue;
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
    processes++;
    pssKb += kb('Pss');
    privateKb += kb('Private_Clean') + kb('Private_Dirty');
  }
  return { processes, pssMb: Math.round(pssKb / 1024), privateMb: Math.round(privateKb / 1024) };
}

async function rendererPids(): Promise<number[]> {
  const pids: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    const command = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (!command.includes('--type=renderer') || !/chrom/i.test(command.split('\0')[0] ?? '')) continue;
    if (await below(Number(name), process.pid)) pids.push(Number(name));
  }
  return pids;
}

async function below(pid: number, root: number): Promise<boolean> {
  for (let at = pid, hops = 0; at > 1 && hops < 10; hops++) {
    const stat = await readFile(`/proc/${at}/stat`, 'utf8').catch(() => '');
    at = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (at === root) return true;
  }
  return false;
}

const server = await startServer();
const corpus = readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.html')).sort();
const toolset = new BrowserToolset({ executablePath: CHROMIUM, args: OFFLINE_ARGS, viewport: VIEWPORT, headless: true });
try {
  await toolset.page();
  const navigate = toolset.tools.browser_navigate.execute!;
  const times: number[] = [];
  let errors = 0;
  const along: string[] = [];
  for (let n = 0; n < COUNT; n++) {
    const url = server.url(`/corpus/${corpus[n % corpus.length]}`);
    const start = performance.now();
    const result = (await navigate({ url } as never, {} as never)) as { ok: boolean };
    times.push(performance.now() - start);
    if (!result.ok) errors++;
    if ((n + 1) % 25 === 0) along.push(`${n + 1}: ${(await renderers()).pssMb} MB`);
    if (PAUSE_MS) await sleep(PAUSE_MS);
  }
  const atOnce = await renderers();
  await sleep(QUIET_MS);
  const quiet = await renderers();
  console.log(
    [
      `long visit: ${COUNT} corpus pages in one tab, ${PAUSE_MS} ms between calls, Chromium flags ${without ? `without ${without}` : 'default'}`,
      `navigate: median ${Math.round(median(times) ?? 0)} ms, p95 ${Math.round(quantile(times, 0.95) ?? 0)} ms, errors ${errors}`,
      `renderer PSS along the way: ${along.join(', ')}`,
      `renderers at once after the last call: ${atOnce.processes} processes, PSS ${atOnce.pssMb} MB, private ${atOnce.privateMb} MB`,
      `after ${QUIET_MS} ms quiet: ${quiet.processes} processes, PSS ${quiet.pssMb} MB, private ${quiet.privateMb} MB`,
    ].join('\n'),
  );
} finally {
  await toolset.close();
  await server.close();
}
