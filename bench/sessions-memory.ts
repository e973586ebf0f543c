/**
 * `npm run bench:memory`: what a conversation's browser costs. For 1 and 10 Mastra threads, each thread's tool
 * call opens the same local article, then the Chromium process tree is measured: process count, and memory summed
 * over the tree from /proc/<pid>/smaps_rollup (PSS, which shares each shared page among the processes using it,
 * so the sum is what the tree costs; RSS, which counts shared pages once per process, for comparison).
 *
 * Ours: ToolsetBrowser, one browser for the provider and an isolated context per thread. Theirs:
 * @mastra/agent-browser's AgentBrowser with its default `scope: 'thread'`, which launches a browser per thread.
 * Both launch the same Chromium with the same flags. Linux only (/proc).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentBrowser } from '@mastra/agent-browser';
import type { MastraBrowser } from '@mastra/core/browser';
import { BrowserManager } from 'agent-browser';
import { ToolsetBrowser } from '../src/index.js';
import { OFFLINE_ARGS, startServer } from '../test/helpers/server.js';
import { CHROMIUM, CHROMIUM_ARGS, VIEWPORT } from './systems.js';

const THREADS = (process.argv.find((a) => a.startsWith('--threads='))?.slice(10) ?? '1,10').split(',').map(Number);
/** Samples per measurement, a second apart; the median is kept (memory moves a little while renderers settle). */
const SAMPLES = 3;

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
}

function readProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command name (in parentheses, and it may contain spaces): state, ppid, pgrp, ...
      const [, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.push({ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid) });
    } catch {
      // The process ended while we looked.
    }
  }
  return procs;
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/**
 * The Chromium processes this benchmark started: browsers launched by this process, everything they started, and
 * anything left in their process groups (Playwright starts each browser as a group leader; a helper that is
 * reparented after its parent forks it stays in the group). Other people's Chromiums on the machine are not counted.
 */
function chromiumTree(): number[] {
  const procs = readProcs();
  const roots = procs.filter((p) => p.ppid === process.pid && cmdline(p.pid).includes(CHROMIUM));
  const groups = new Set(roots.map((p) => p.pgid));
  const tree = new Set(roots.map((p) => p.pid));
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of procs) {
      if (!tree.has(p.pid) && (tree.has(p.ppid) || groups.has(p.pgid))) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

function rollup(pid: number): { pss: number; rss: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    return { pss: kb('Pss'), rss: kb('Rss') };
  } catch {
    return { pss: 0, rss: 0 };
  }
}

interface Sample {
  processes: number;
  pssMb: number;
  rssMb: number;
}

function sample(): Sample {
  const pids = chromiumTree();
  const sums = pids.map(rollup).reduce((a, b) => ({ pss: a.pss + b.pss, rss: a.rss + b.rss }), { pss: 0, rss: 0 });
  return { processes: pids.length, pssMb: sums.pss / 1024, rssMb: sums.rss / 1024 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * AgentBrowser has no option for Chromium flags; without the offline rule its pages would try the network. Its
 * launches go through agent-browser's BrowserManager (the module ours uses too), so the flags are added there.
 */
const launch = BrowserManager.prototype.launch;
BrowserManager.prototype.launch = function (this: BrowserManager, options) {
  return launch.call(this, options.args === undefined && !options.cdpUrl ? { ...options, args: CHROMIUM_ARGS } : options);
};

interface Provider {
  name: string;
  make: () => MastraBrowser;
  /** The provider's navigation tool and its arguments. */
  navigate: (url: string) => [tool: string, input: Record<string, unknown>];
}

const PROVIDERS: Provider[] = [
  {
    name: 'mastra-browser-toolset ToolsetBrowser',
    make: () => new ToolsetBrowser({ executablePath: CHROMIUM, args: OFFLINE_ARGS, viewport: VIEWPORT }),
    navigate: (url) => ['browser_navigate', { url }],
  },
  {
    name: '@mastra/agent-browser AgentBrowser',
    make: () => new AgentBrowser({ headless: true, executablePath: CHROMIUM, viewport: VIEWPORT }),
    navigate: (url) => ['browser_goto', { url, waitUntil: 'load' }],
  },
];

const server = await startServer();
const url = server.url('/fixtures/article.html');
const rows: Array<{ provider: string; threads: number } & Sample> = [];

for (const provider of PROVIDERS) {
  for (const threads of THREADS) {
    const browser = provider.make();
    const tools = browser.getTools() as Record<string, { execute?: (input: unknown, context: unknown) => Promise<unknown> }>;
    const [toolName, input] = provider.navigate(url);
    // One tool call per thread, as Mastra makes it: the thread id in the agent context.
    for (let i = 0; i < threads; i++) {
      const result = (await tools[toolName]!.execute!(input, { agent: { threadId: `thread-${i}`, resourceId: 'bench' } })) as { ok?: boolean; success?: boolean };
      if (result.ok !== true && result.success !== true) throw new Error(`${provider.name}: ${toolName} failed: ${JSON.stringify(result).slice(0, 300)}`);
    }
    await sleep(2_000);
    const samples: Sample[] = [];
    for (let s = 0; s < SAMPLES; s++) {
      samples.push(sample());
      await sleep(1_000);
    }
    const row = {
      provider: provider.name,
      threads,
      processes: median(samples.map((s) => s.processes)),
      pssMb: median(samples.map((s) => s.pssMb)),
      rssMb: median(samples.map((s) => s.rssMb)),
    };
    rows.push(row);
    console.log(row);
    await browser.close();
    // The next measurement starts from no Chromium of ours.
    for (let wait = 0; chromiumTree().length > 0 && wait < 20; wait++) await sleep(500);
  }
}
await server.close();

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const lines = [
  `Chromium process tree after each thread opened ${'`/fixtures/article.html`'} through the provider's navigation tool; median of ${SAMPLES} samples; ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${CHROMIUM}.`,
  '',
  '| provider | threads | processes | PSS (MB) | RSS (MB) | PSS per thread (MB) |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.provider} | ${r.threads} | ${r.processes} | ${fmt(r.pssMb)} | ${fmt(r.rssMb)} | ${fmt(r.pssMb / r.threads)} |`),
];
for (const provider of PROVIDERS) {
  const mine = rows.filter((r) => r.provider === provider.name).sort((a, b) => a.threads - b.threads);
  const [first, last] = [mine[0], mine.at(-1)];
  if (first && last && last.threads > first.threads) {
    const per = (last.pssMb - first.pssMb) / (last.threads - first.threads);
    const procs = (last.processes - first.processes) / (last.threads - first.threads);
    lines.push('', `${provider.name}: each thread beyond the first adds ${fmt(per)} MB PSS and ${procs.toFixed(1)} processes.`);
  }
}
console.log(lines.join('\n'));
const results = join(dirname(new URL(import.meta.url).pathname), 'results');
writeFileSync(join(results, 'sessions-memory.md'), `${lines.join('\n')}\n`);
writeFileSync(join(results, 'sessions-memory.json'), `${JSON.stringify(rows, null, 2)}\n`);
