/**
 * `npm run bench:sessions` (issues 12.7 and 8): many conversations on one browser.
 *
 * 1. Concurrency: N threads at once (10, 50, 100) on one toolset, each doing a short task on local pages with
 *    a marker of its own; failures (any `ok: false`, another thread's marker seen, its own missing), tool
 *    latency, and the Chromium process tree's processes and memory, per session.
 * 2. Peer: the same task on @mastra/agent-browser for 10 threads (a browser per thread), for the ratio.
 * 3. Soak: open a session, act, close it, N cycles; processes and memory every 20 cycles should stay flat.
 * 4. Eviction: maxSessions 10 with 30 threads arriving in waves; every evicted thread's next call must say so.
 *
 * Options: `--threads 10,50,100`, `--cycles 200`, `--no-write` (print only). Pages come from the local test
 * server on 127.0.0.1; every other host is unresolvable.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AgentBrowser } from '@mastra/agent-browser';
import { BrowserManager } from 'agent-browser';
import { BrowserToolset, DEFAULT_CHROMIUM_ARGS } from '../src/index.js';
import { OFFLINE_ARGS, startServer } from '../test/helpers/server.js';
import { chromiumTree, Sampler, settleTo, type Peak, type TreeMemory } from './sessions/processes.js';
import { formTask, Latencies, markerOf, ourDriver, peerDriver, step, Tally, TaskError, type Driver, type TaskFailure } from './sessions/task.js';
import { quantile } from './stats.js';
import { CHROMIUM } from './systems.js';
import { describeSource, packageVersion } from './provenance.js';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');

function option(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return process.argv[i]!.includes('=') ? process.argv[i]!.split('=')[1] : process.argv[i + 1];
}
const THREADS = (option('threads') ?? '10,50,100').split(',').map(Number);
const CYCLES = Number(option('cycles') ?? 200);
const WRITE = !process.argv.includes('--no-write');
const PEER_THREADS = 10;
const SAMPLE_EVERY = 20;
const SOAK_LANES = Number(option('soak-lanes') ?? 4);
const EVICTION = { maxSessions: 10, threads: 30, waves: 3, waveGapMs: 2_000, thinkMs: [150, 450] as const };

// Heap figures mean something only after a collection; expose gc without a command-line flag.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => Number(loadavg()[0]!.toFixed(2));
const mb = (kb: number) => Math.round(kb / 1024);
const ms = (x: number | null) => (x === null ? null : Math.round(x));

const server = await startServer();
/** Every toolset here: the default config but for the offline rule, the same Chromium as the peer, and evaluate for the markers. */
const baseConfig = { executablePath: CHROMIUM, args: OFFLINE_ARGS, allowEvaluate: true };

function latencySummary(latencies: Latencies) {
  const { all } = latencies;
  return { calls: all.length, p50: ms(quantile(all, 0.5)), p95: ms(quantile(all, 0.95)), max: ms(all.length ? Math.max(...all) : null) };
}

function byTool(latencies: Latencies) {
  return Object.fromEntries([...latencies.byTool].map(([tool, xs]) => [tool, { calls: xs.length, p50: ms(quantile(xs, 0.5)), p95: ms(quantile(xs, 0.95)) }]));
}

function codeCounts(failures: TaskFailure[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of failures) counts[f.code] = (counts[f.code] ?? 0) + 1;
  return counts;
}

function asFailure(error: unknown): TaskFailure {
  return error instanceof TaskError ? error.failure : { step: 'task', code: 'crash', message: String(error).slice(0, 300) };
}

/** Browser contexts open in a toolset's browser, read from private fields: a leak detector for the soak. */
function contextsOf(toolset: BrowserToolset): number {
  const browser = (toolset as unknown as { browser: { connection?: { browser: { contexts(): unknown[] } } } }).browser;
  return browser.connection?.browser.contexts().length ?? 0;
}

/** N threads at once, one task each. */
interface ThreadsRun {
  threads: number;
  wallMs: number;
  latency: ReturnType<typeof latencySummary>;
  byTool: ReturnType<typeof byTool>;
  /** Calls answered `ok: false`, plus leaks and wrong state: the goal is zero. */
  failures: number;
  failureCodes: Record<string, number>;
  /** Tasks that reached their end (a timed-out call is retried once). */
  tasksCompleted: number;
  taskFailures: Array<TaskFailure & { thread: number }>;
  notices: Record<string, number>;
  idle: TreeMemory;
  peak: Peak;
  /** All tasks done, every session still open. */
  end: TreeMemory;
  /** Sessions with a tab open at the end: what the memory per session is divided by (threads whose first call timed out may have none). */
  sessionsWithTab: number;
  /** Chromium processes left after close(): should be 0. */
  leftAfterClose: number;
  loadAverage: number;
}

/** Failures that are not a failed call: another thread's state seen, own state missing, an exception. */
const NOT_A_CALL = new Set(['leak', 'wrong_state', 'crash']);

async function runThreads(
  threads: number,
  drive: (i: number, latencies: Latencies) => Driver,
  phase: string,
  idle: TreeMemory,
  tabsOpen: () => number,
): Promise<Omit<ThreadsRun, 'leftAfterClose'>> {
  const loadAverage = load();
  const latencies = new Latencies();
  const tally = new Tally();
  const failed: Array<TaskFailure & { thread: number }> = [];
  const sampler = new Sampler().start(1_000);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: threads }, (_, i) =>
      formTask(drive(i, latencies), markerOf(phase, i), server.url, tally).catch((error) => void failed.push({ thread: i, ...asFailure(error) })),
    ),
  );
  const wallMs = Math.round(performance.now() - start);
  const end = await chromiumTree();
  const sessionsWithTab = tabsOpen();
  const peak = await sampler.stop(end);
  const other = failed.filter((f) => NOT_A_CALL.has(f.code));
  const failureCodes = { ...tally.failedCalls };
  for (const f of other) failureCodes[f.code] = (failureCodes[f.code] ?? 0) + 1;
  return {
    threads,
    wallMs,
    latency: latencySummary(latencies),
    byTool: byTool(latencies),
    failures: tally.failed + other.length,
    failureCodes,
    tasksCompleted: threads - failed.length,
    taskFailures: failed.slice(0, 5),
    notices: tally.notices,
    idle,
    peak,
    end,
    sessionsWithTab,
    loadAverage,
  };
}

async function concurrency(threads: number): Promise<ThreadsRun> {
  const toolset = new BrowserToolset({ ...baseConfig, maxSessions: threads });
  try {
    // Launch and first-use costs are not what is measured; the idle browser is the baseline per session.
    await ourDriver(toolset, 'warmup', new Latencies()).call('navigate', { url: server.url('/fixtures/form.html') });
    await toolset.closeSession('warmup');
    await sleep(1_500);
    const idle = await chromiumTree();
    const tabs = () => toolset.sessions.keys().filter((key) => toolset.sessions.peek(key)!.tabs.all().length > 0).length;
    const run = await runThreads(threads, (i, latencies) => ourDriver(toolset, `c${threads}-${i}`, latencies), `c${threads}`, idle, tabs);
    await toolset.close();
    return { ...run, leftAfterClose: (await settleTo(0)).processes };
  } finally {
    await toolset.close();
  }
}

/**
 * AgentBrowser has no option for Chromium flags; its launches go through agent-browser's BrowserManager (the
 * module instance ours uses too), so the flags every system gets are added there, to launches that set none.
 * Ours always passes its own args, so it is unaffected.
 */
function givePeerOurFlags(): void {
  const launch = BrowserManager.prototype.launch;
  BrowserManager.prototype.launch = function (this: BrowserManager, options) {
    return launch.call(this, options.args === undefined && !options.cdpUrl ? { ...options, args: [...DEFAULT_CHROMIUM_ARGS, ...OFFLINE_ARGS] } : options);
  };
}

async function peer(threads: number): Promise<ThreadsRun> {
  givePeerOurFlags();
  const browser = new AgentBrowser({ headless: true, executablePath: CHROMIUM, viewport: { width: 1280, height: 720 } });
  try {
    // Each thread's browser opens with its tab; the peer exposes no count, and every thread reached its first page here or failed.
    const run = await runThreads(threads, (i, latencies) => peerDriver(browser, `peer-${i}`, latencies), 'peer', await chromiumTree(), () => threads);
    await browser.close();
    return { ...run, leftAfterClose: (await settleTo(0)).processes };
  } finally {
    await browser.close().catch(() => {});
  }
}

interface SoakSample {
  cycle: number;
  processes: number;
  pssMb: number;
  privateMb: number;
  rssMb: number;
  contexts: number;
  sessions: number;
  nodeRssMb: number;
  nodeHeapMb: number;
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}

async function soak(cycles: number) {
  const toolset = new BrowserToolset(baseConfig);
  const latencies = new Latencies();
  const tally = new Tally();
  const failures: Array<TaskFailure & { cycle: number }> = [];
  const samples: SoakSample[] = [];
  /** Open a session, fill the form by refs from the navigation's snapshot, close the session. */
  const cycle = async (i: number) => {
    const thread = `soak-${i}`;
    const marker = markerOf('soak', i % 1000);
    const driver = ourDriver(toolset, thread, latencies);
    try {
      const form = await step(driver, marker, 'open form', 'navigate', { url: server.url('/fixtures/form.html') }, tally);
      await step(driver, marker, 'type name', 'type', { ref: driver.ref(form.snapshot ?? '', 'textbox', 'Full name *'), text: marker }, tally);
      await step(driver, marker, 'tick terms', 'click', { ref: driver.ref(form.snapshot ?? '', 'checkbox', 'I accept the terms') }, tally);
    } catch (error) {
      failures.push({ cycle: i, ...asFailure(error) });
    } finally {
      await toolset.closeSession(thread);
    }
  };
  const sample = async (cycle: number) => {
    await sleep(500); // closed renderers take a moment to exit
    gc();
    const tree = await chromiumTree();
    const node = process.memoryUsage();
    const s: SoakSample = {
      cycle,
      processes: tree.processes,
      pssMb: mb(tree.pssKb),
      privateMb: mb(tree.privateKb),
      rssMb: mb(tree.rssKb),
      contexts: contextsOf(toolset),
      sessions: toolset.sessions.size,
      nodeRssMb: Math.round(node.rss / 2 ** 20),
      nodeHeapMb: Math.round((node.heapUsed / 2 ** 20) * 10) / 10,
    };
    samples.push(s);
    console.log(`  soak ${JSON.stringify(s)}`);
  };
  const loadAverage = load();
  const start = performance.now();
  try {
    await cycle(-1); // launch and first-use costs, outside the samples
    await sample(0);
    // Batches of SAMPLE_EVERY cycles, run by SOAK_LANES conversations at a time; samples fall between batches, with no session open.
    for (let done = 0; done < cycles; done += SAMPLE_EVERY) {
      let next = done;
      const end = Math.min(cycles, done + SAMPLE_EVERY);
      await Promise.all(
        Array.from({ length: SOAK_LANES }, async () => {
          while (next < end) await cycle(next++);
        }),
      );
      await sample(end);
    }
  } finally {
    await toolset.close();
  }
  const leftAfterClose = (await settleTo(0)).processes;
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const perCycle = (key: keyof SoakSample) => Math.round(slope(samples.map((s) => [s.cycle, s[key]])) * 1000) / 1000;
  return {
    cycles,
    wallMs: Math.round(performance.now() - start),
    loadAverage,
    lanes: SOAK_LANES,
    latency: latencySummary(latencies),
    byTool: byTool(latencies),
    failures: tally.failed + failures.filter((f) => NOT_A_CALL.has(f.code)).length,
    failureCodes: { ...tally.failedCalls, ...codeCounts(failures.filter((f) => NOT_A_CALL.has(f.code))) },
    cyclesCompleted: cycles - failures.filter((f) => f.cycle >= 0).length,
    failureSamples: failures.slice(0, 5),
    notices: tally.notices,
    samples,
    first,
    last,
    slopePerCycle: { processes: perCycle('processes'), pssMb: perCycle('pssMb'), privateMb: perCycle('privateMb'), rssMb: perCycle('rssMb'), contexts: perCycle('contexts'), nodeRssMb: perCycle('nodeRssMb'), nodeHeapMb: perCycle('nodeHeapMb') },
    leftAfterClose,
  };
}

/** A tiny seeded generator, so think times are the same from run to run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EVICTED_NOTICE = /session was closed .*maxSessions/;
const AT_CAPACITY = /sessions are in use.*\(maxSessions\)/;

type Arrival = 'one after another' | 'overlapping';

/**
 * maxSessions 10, 30 threads in 3 waves. `one after another`: a wave arrives once the one before has finished
 * its task, so the sessions pushed out are finished ones. `overlapping`: waves arrive EVICTION.waveGapMs apart,
 * so 30 conversations are under way at once for 10 sessions.
 */
async function eviction(arrival: Arrival) {
  const { maxSessions, threads, waves, waveGapMs, thinkMs } = EVICTION;
  const perWave = threads / waves;
  const toolset = new BrowserToolset({ ...baseConfig, maxSessions });
  const registry = toolset.sessions;

  // Ground truth, observed around the registry's own get() (its behaviour unchanged): which sessions each new
  // session pushed out, and so whether the next call of a thread must say its session was closed.
  let evictions = 0;
  const closedSince = new Set<string>();
  const mustTell = new Map<string, boolean>();
  const get = registry.get.bind(registry);
  registry.get = async (key: string, waitMs?: number) => {
    const before = registry.keys();
    const tell = !before.includes(key) && closedSince.has(key);
    try {
      const got = await get(key, waitMs);
      if (!before.includes(key)) {
        mustTell.set(key, tell);
        closedSince.delete(key);
      }
      return got;
    } finally {
      // Sessions closed while this call made room: their threads must be told on their next call.
      const after = new Set(registry.keys());
      for (const k of before.filter((k) => !after.has(k) && k !== key && !closedSince.has(k))) {
        evictions++;
        closedSince.add(k);
      }
    }
  };

  const counts = { told: 0, missed: 0, falseNotices: 0, restarts: 0, capacityRefusals: 0, gaveUp: 0, completed: 0 };
  const failures: Array<TaskFailure & { thread: number }> = [];
  /** Latency of calls that ran; calls refused at capacity are counted, not timed. */
  const latencies: number[] = [];
  const think = random(12);
  let maxOpen = 0;
  let maxContexts = 0;
  const watch = setInterval(() => {
    maxOpen = Math.max(maxOpen, registry.size);
    maxContexts = Math.max(maxContexts, contextsOf(toolset));
  }, 100);
  const driverOf = (i: number) => ourDriver(toolset, `evict-${i}`, new Latencies());

  /** One call, retried while the browser is at capacity; checks the eviction notice against the ground truth. */
  const checkedCall = async (i: number, driver: Driver, tool: Parameters<Driver['call']>[0], input: Record<string, unknown>) => {
    const key = `thread:evict-${i}`;
    for (;;) {
      mustTell.delete(key);
      const start = performance.now();
      const outcome = await driver.call(tool, input);
      if (!outcome.ok && outcome.code === 'browser_error' && AT_CAPACITY.test(outcome.message ?? '')) {
        counts.capacityRefusals++;
        await sleep(300);
        continue;
      }
      latencies.push(performance.now() - start);
      const told = outcome.notices.some((n) => EVICTED_NOTICE.test(n));
      const expected = mustTell.get(key) ?? false;
      if (told && expected) counts.told++;
      if (expected && !told) {
        counts.missed++;
        failures.push({ thread: i, step: tool, code: 'notice_missing', message: 'session was evicted but the call did not say so' });
      }
      if (told && !expected) {
        counts.falseNotices++;
        failures.push({ thread: i, step: tool, code: 'false_notice', message: outcome.notices.join(' ').slice(0, 200) });
      }
      const foreign = (outcome.text.match(/bench-[a-z0-9]+-\d{3}/g) ?? []).filter((m) => m !== markerOf('evict', i));
      if (foreign.length) failures.push({ thread: i, step: tool, code: 'leak', message: `saw ${foreign[0]}` });
      return { outcome, told };
    }
  };

  /** Open the form, check the fresh session holds no one's cookie and set its own, read refs, fill two fields. Start over when told of an eviction. */
  const conversation = async (i: number) => {
    const driver = driverOf(i);
    const marker = markerOf('evict', i);
    const pause = () => sleep(thinkMs[0] + think() * (thinkMs[1] - thinkMs[0]));
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) counts.restarts++;
      let refs: { name?: string; terms?: string } = {};
      const steps: Array<[Parameters<Driver['call']>[0], () => Record<string, unknown>]> = [
        ['navigate', () => ({ url: server.url('/fixtures/form.html') })],
        ['evaluate', () => ({ script: `((before) => (document.cookie = 'who=${marker}', before))(document.cookie)` })],
        ['snapshot', () => ({})],
        ['type', () => ({ ref: refs.name, text: marker })],
        ['click', () => ({ ref: refs.terms })],
      ];
      let restart = false;
      for (const [tool, input] of steps) {
        const { outcome, told } = await checkedCall(i, driver, tool, input());
        // Told its session was closed: what it held is gone, so start over, as a model would.
        if (told && tool !== 'navigate') {
          restart = true;
          break;
        }
        if (!outcome.ok) {
          failures.push({ thread: i, step: tool, code: outcome.code ?? 'unknown', message: (outcome.message ?? '').slice(0, 200) });
          return;
        }
        if (tool === 'evaluate' && outcome.value !== '' && outcome.value !== `who=${marker}`) {
          failures.push({ thread: i, step: tool, code: 'leak', message: `a fresh session held cookies ${JSON.stringify(outcome.value)}` });
        }
        if (tool === 'snapshot') refs = { name: driver.ref(outcome.snapshot ?? '', 'textbox', 'Full name *'), terms: driver.ref(outcome.snapshot ?? '', 'checkbox', 'I accept the terms') };
        await pause();
      }
      if (!restart) {
        counts.completed++;
        return;
      }
    }
    counts.gaveUp++;
  };
  const wave = (w: number) =>
    Promise.all(Array.from({ length: perWave }, (_, k) => w * perWave + k).map((i) => conversation(i).catch((error) => void failures.push({ thread: i, ...asFailure(error) }))));

  const loadAverage = load();
  const sampler = new Sampler().start(1_000);
  const start = performance.now();
  let returnedTold = 0;
  try {
    if (arrival === 'overlapping') {
      await Promise.all(Array.from({ length: waves }, async (_, w) => (await sleep(w * waveGapMs), wave(w))));
    } else {
      for (let w = 0; w < waves; w++) await wave(w);
    }
    // The first wave comes back after everyone: each of its threads' next call must say whether its session was closed.
    await Promise.all(
      Array.from({ length: perWave }, async (_, i) => {
        const { told } = await checkedCall(i, driverOf(i), 'snapshot', {});
        if (told) returnedTold++;
      }),
    );
  } finally {
    clearInterval(watch);
  }
  const wallMs = Math.round(performance.now() - start);
  const peak = await sampler.stop(await chromiumTree());
  await toolset.close();
  return {
    arrival,
    ...EVICTION,
    wallMs,
    loadAverage,
    evictions,
    ...counts,
    returned: perWave,
    returnedTold,
    failures: failures.length,
    failureCodes: codeCounts(failures),
    failureSamples: failures.slice(0, 5),
    latency: { calls: latencies.length, p50: ms(quantile(latencies, 0.5)), p95: ms(quantile(latencies, 0.95)), max: ms(latencies.length ? Math.max(...latencies) : null) },
    maxOpenSessions: maxOpen,
    maxContexts,
    peak,
    leftAfterClose: (await settleTo(0)).processes,
  };
}



// ---- run ----

const began = performance.now();
const meta = {
  date: new Date().toISOString(),
  source: describeSource(),
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform} ${process.arch}` },
  loadAverage: { start: load(), end: 0 },
  chromium: '',
  versions: {
    'mastra-browser-toolset (ours)': (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    'playwright-core': packageVersion('playwright-core'),
    'agent-browser': packageVersion('agent-browser'),
    '@mastra/agent-browser': packageVersion('@mastra/agent-browser'),
    '@mastra/core': packageVersion('@mastra/core'),
    '@sparticuz/chromium': packageVersion('@sparticuz/chromium'),
  },
  options: { threads: THREADS, cycles: CYCLES, peerThreads: PEER_THREADS, eviction: EVICTION },
  wallSeconds: 0,
};
{
  const probe = new BrowserToolset(baseConfig);
  await probe.page();
  meta.chromium = probe.browserInfo?.version ?? 'unknown';
  await probe.close();
}
console.log(`bench:sessions on ${meta.machine.cpus} CPUs, load ${meta.loadAverage.start}, Chromium ${meta.chromium}`);

/** Node's heap after a GC at the end of each phase: a toolset closed should leave nothing behind. */
const heapAfter: Record<string, number> = {};
function nodeHeap(label: string): void {
  gc();
  heapAfter[label] = Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 10) / 10;
}
nodeHeap('start');

const concurrencyRuns: ThreadsRun[] = [];
for (const n of THREADS) {
  console.log(`concurrency: ${n} threads...`);
  concurrencyRuns.push(await concurrency(n));
  console.log(`  ${JSON.stringify({ ...concurrencyRuns.at(-1)!, byTool: undefined })}`);
  nodeHeap(`after ${n} threads`);
}
console.log(`peer: @mastra/agent-browser, ${PEER_THREADS} threads...`);
const peerRun = await peer(PEER_THREADS);
console.log(`  ${JSON.stringify({ ...peerRun, byTool: undefined })}`);
nodeHeap('after peer');
console.log(`soak: ${CYCLES} cycles...`);
const soakRun = await soak(CYCLES);
nodeHeap('after soak');
console.log(`eviction: maxSessions ${EVICTION.maxSessions}, ${EVICTION.threads} threads in ${EVICTION.waves} waves...`);
const evictionRuns = [];
for (const arrival of ['one after another', 'overlapping'] as const) {
  evictionRuns.push(await eviction(arrival));
  console.log(`  ${JSON.stringify(evictionRuns.at(-1))}`);
  nodeHeap(`after eviction, waves ${arrival}`);
}
await server.close();
meta.loadAverage.end = load();
meta.wallSeconds = Math.round((performance.now() - began) / 1000);

// ---- report ----

const perSession = (run: ThreadsRun, key: 'pssKb' | 'rssKb' | 'privateKb') => mb((run.peak[key] - run.idle[key]) / Math.max(1, run.sessionsWithTab));
const codes = (c: Record<string, number>) => Object.entries(c).map(([k, v]) => `${k} ${v}`).join(', ') || '-';
const table = (head: string[], rows: Array<Array<string | number | null>>) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---:').join('|')}|`, ...rows.map((r) => `| ${r.map((x) => x ?? '-').join(' | ')} |`)].join('\n');

const ours10 = concurrencyRuns.find((r) => r.threads === PEER_THREADS);
const peerPss = mb(peerRun.peak.pssKb / peerRun.threads);
const ourTotal10 = ours10 ? mb(ours10.peak.pssKb / ours10.threads) : null;
const ourMarginal10 = ours10 ? perSession(ours10, 'pssKb') : null;
const grows = (first: number, last: number, tolerance: number) => (last - first > tolerance ? `grows by ${last - first}` : 'flat');
const s = soakRun;

const lines = [
  '# Sessions: many conversations on one browser',
  '',
  'Generated by `npm run bench:sessions` (bench/sessions.ts). Issues 12.7 and 8.',
  '',
  `- Date: ${meta.date}; code measured: ${meta.source}; run time ${meta.wallSeconds} s`,
  `- Machine: ${meta.machine.cpus} CPUs (${meta.machine.cpuModel}), ${meta.machine.memoryGiB} GiB, ${meta.machine.platform}, Node ${meta.machine.node}, Chromium ${meta.chromium} (npm-shipped @sparticuz/chromium)`,
  `- One-minute load average: ${meta.loadAverage.start} at the start, ${meta.loadAverage.end} at the end (the machine is shared; with 2 cores, latencies grow with other work)`,
  `- Versions: ${Object.entries(meta.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`,
  '- Pages from the local test server on 127.0.0.1, every other host unresolvable. Memory is the Chromium process tree started by this process, from `/proc/<pid>/smaps_rollup`: PSS counts shared pages once, RSS in every process mapping them.',
  '',
  '**Task per thread** (8 tool calls, refs read from the results): navigate to `/fixtures/form.html`, snapshot, set a per-thread marker in a cookie and localStorage (`browser_evaluate`), type the marker into "Full name", click "I accept the terms", navigate to `/fixtures/page-b.html`, set the title to the marker and read cookie and storage back, snapshot. A failure is any `ok: false`, another thread\'s marker anywhere in a result (leak), or its own marker missing.',
  '',
  '## Concurrency: N threads at once on one toolset (maxSessions = N)',
  '',
  table(
    ['threads', 'wall (s)', 'tool calls', 'failures', 'codes', 'tasks completed', 'p50 (ms)', 'p95 (ms)', 'max (ms)', 'sessions with a tab', 'processes idle / peak', 'PSS idle / peak (MB)', 'PSS per session (MB)', 'private per session (MB)', 'RSS peak (MB)', 'RSS per session (MB)', 'load avg'],
    concurrencyRuns.map((r) => [
      r.threads,
      (r.wallMs / 1000).toFixed(1),
      r.latency.calls,
      r.failures,
      codes(r.failureCodes),
      `${r.tasksCompleted} / ${r.threads}`,
      r.latency.p50,
      r.latency.p95,
      r.latency.max,
      r.sessionsWithTab,
      `${r.idle.processes} / ${r.peak.maxProcesses}`,
      `${mb(r.idle.pssKb)} / ${mb(r.peak.pssKb)}`,
      perSession(r, 'pssKb'),
      perSession(r, 'privateKb'),
      mb(r.peak.rssKb),
      perSession(r, 'rssKb'),
      r.loadAverage,
    ]),
  ),
  '',
  'The first call of a thread opens its session (a browser context and a tab, so a renderer process) within that call\'s budget (navigationTimeout 30 s + 1.5 s to answer). "The tab stopped responding" notices mean a tab did not run a trivial script within 1.5 s after a timed-out call and was replaced. Per session = (peak − idle browser) / sessions with a tab open at the end (N when every thread got its first page). Private = pages mapped by one process only (USS). Idle = the launched browser after its warm-up session was closed. Latency is per tool call as the caller sees it, all threads pooled. A call that times out is retried once, as its hint says (the timeout still counts as a failure); a task that fails otherwise stops there.',
  ...concurrencyRuns.filter((r) => Object.keys(r.notices).length).map((r) => `- N = ${r.threads}, notices in results: ${codes(r.notices)}`),
  ...concurrencyRuns.filter((r) => r.leftAfterClose).map((r) => `\n**Leak:** ${r.leftAfterClose} Chromium processes still running after close() (N = ${r.threads}).`),
  ...concurrencyRuns.flatMap((r) => r.taskFailures.map((f) => `- N = ${r.threads}, thread ${f.thread} stopped at ${f.step}: ${f.code} ${f.message}`)),
  '',
  '## Peer in the same run: @mastra/agent-browser, 10 threads',
  '',
  'One `AgentBrowser` with its default `thread` scope, which launches a browser (agent-browser `BrowserManager`) per thread, given the same Chromium and flags. Same task, same checks.',
  '',
  table(
    ['system', 'threads', 'failures', 'tasks completed', 'p50 (ms)', 'p95 (ms)', 'processes (peak)', 'processes per thread', 'PSS peak (MB)', 'PSS per thread (MB)', 'private per thread (MB)', 'RSS peak (MB)'],
    [
      ...(ours10 ? [['ours (one browser)', ours10.threads, ours10.failures, `${ours10.tasksCompleted} / ${ours10.threads}`, ours10.latency.p50, ours10.latency.p95, ours10.peak.maxProcesses, (ours10.peak.maxProcesses / ours10.threads).toFixed(1), mb(ours10.peak.pssKb), `${ourTotal10} (${ourMarginal10} beyond the idle browser)`, `${mb(ours10.peak.privateKb / ours10.threads)} (${perSession(ours10, 'privateKb')})`, mb(ours10.peak.rssKb)]] : []),
      ['@mastra/agent-browser', peerRun.threads, `${peerRun.failures}${peerRun.failures ? ` (${codes(peerRun.failureCodes)})` : ''}`, `${peerRun.tasksCompleted} / ${peerRun.threads}`, peerRun.latency.p50, peerRun.latency.p95, peerRun.peak.maxProcesses, (peerRun.peak.maxProcesses / peerRun.threads).toFixed(1), mb(peerRun.peak.pssKb), peerPss, mb(peerRun.peak.privateKb / peerRun.threads), mb(peerRun.peak.rssKb)],
    ],
  ),
  '',
  ours10
    ? `Ratio at 10 threads: @mastra/agent-browser uses ${(peerRun.peak.maxProcesses / ours10.peak.maxProcesses).toFixed(1)}× the processes and ${(peerRun.peak.pssKb / ours10.peak.pssKb).toFixed(1)}× the PSS (${peerPss} MB per thread against ${ourTotal10} MB with the shared browser counted in, ${ourMarginal10} MB beyond it).`
    : 'Ratio: run with 10 in --threads to compare.',
  ...peerRun.taskFailures.map((f) => `- peer thread ${f.thread} stopped at ${f.step}: ${f.code} ${f.message}`),
  ...(peerRun.leftAfterClose ? [`\n**Peer leak:** ${peerRun.leftAfterClose} Chromium processes still running after AgentBrowser.close().`] : []),
  '',
  `## Soak: ${s.cycles} cycles of open → navigate, type, click → closeSession`,
  '',
  `One toolset; each cycle is a new thread (\`soak-<i>\`) doing 3 tool calls (navigate to the form, type and click by refs from the navigation's snapshot), then \`toolset.closeSession\`. Cycles run in batches of ${SAMPLE_EVERY}, ${s.lanes} conversations at a time; between batches no session is open, and a sample is taken 0.5 s after the last close and after a Node GC. ${s.failures} failures${s.failures ? ` (${codes(s.failureCodes)})` : ''}, ${s.cyclesCompleted} / ${s.cycles} cycles completed; tool call p50 ${s.latency.p50} ms, p95 ${s.latency.p95} ms; ${(s.wallMs / 1000).toFixed(0)} s; load average ${s.loadAverage} at the start.`,
  '',
  table(
    ['cycle', 'Chromium processes', 'Chromium PSS (MB)', 'Chromium private (MB)', 'Chromium RSS (MB)', 'open contexts', 'open sessions', 'Node RSS (MB)', 'Node heap after GC (MB)'],
    s.samples.map((x) => [x.cycle, x.processes, x.pssMb, x.privateMb, x.rssMb, x.contexts, x.sessions, x.nodeRssMb, x.nodeHeapMb]),
  ),
  '',
  table(
    ['', 'processes', 'Chromium PSS (MB)', 'Chromium private (MB)', 'Node RSS (MB)', 'Node heap (MB)'],
    [
      ['first (cycle 0)', s.first.processes, s.first.pssMb, s.first.privateMb, s.first.nodeRssMb, s.first.nodeHeapMb],
      [`last (cycle ${s.cycles})`, s.last.processes, s.last.pssMb, s.last.privateMb, s.last.nodeRssMb, s.last.nodeHeapMb],
      ['slope per cycle', s.slopePerCycle.processes, s.slopePerCycle.pssMb, s.slopePerCycle.privateMb, s.slopePerCycle.nodeRssMb, s.slopePerCycle.nodeHeapMb],
      [
        'verdict',
        grows(s.first.processes, s.last.processes, 0),
        grows(s.first.pssMb, s.last.pssMb, 20),
        grows(s.first.privateMb, s.last.privateMb, 20),
        grows(s.first.nodeRssMb, s.last.nodeRssMb, 20),
        grows(s.first.nodeHeapMb, s.last.nodeHeapMb, 5),
      ],
    ],
  ),
  '',
  ...s.failureSamples.map((f) => `- cycle ${f.cycle} stopped at ${f.step}: ${f.code} ${f.message}`),
  ...(Object.keys(s.notices).length ? [`- notices in results: ${codes(s.notices)}`] : []),
  '',
  `Flat means last − first within 0 processes, 20 MB of PSS, private memory or Node RSS, 5 MB of heap; the slope is a least-squares fit over all samples (MB per cycle). PSS also moves with other processes on the machine that map the same Chromium binary (other people's browsers here): a step in PSS with private memory flat is that, not growth. Chromium processes left after close(): ${s.leftAfterClose}.`,
  '',
  `## Eviction under pressure: maxSessions ${EVICTION.maxSessions}, ${EVICTION.threads} threads in ${EVICTION.waves} waves`,
  '',
  `Each thread opens the form, checks that its fresh session holds no one's cookie and sets its own, takes a snapshot, then types and clicks by refs, with ${EVICTION.thinkMs[0]}–${EVICTION.thinkMs[1]} ms of "model thinking" between calls. A thread told its session was closed starts over, as a model would (at most 3 attempts); a call refused because all sessions are busy (\`browser_error\`, retryable) is retried after 0.3 s. After the waves, the first wave's threads come back for one call each. Whether a call must carry the "session was closed ... (maxSessions)" notice is known from the registry itself (which sessions each new one pushed out), so missed and false notices are both counted. **One after another**: a wave arrives when the one before has finished. **Overlapping**: waves arrive ${EVICTION.waveGapMs / 1000} s apart, so up to 30 conversations are under way for 10 sessions.`,
  '',
  table(
    ['waves', 'evictions', 'notices due and given', 'missed', 'false', 'restarts', 'gave up', 'completed', 'returning threads told', 'refused at capacity (retried)', 'failures', 'p95 (ms)', 'max open sessions', 'max contexts', 'processes peak', 'PSS peak (MB)', 'wall (s)'],
    evictionRuns.map((e) => [
      e.arrival,
      e.evictions,
      e.told,
      e.missed,
      e.falseNotices,
      e.restarts,
      e.gaveUp,
      `${e.completed} / ${e.threads}`,
      `${e.returnedTold} / ${e.returned}`,
      e.capacityRefusals,
      `${e.failures}${e.failures ? ` (${codes(e.failureCodes)})` : ''}`,
      e.latency.p95,
      e.maxOpenSessions,
      e.maxContexts,
      e.peak.maxProcesses,
      mb(e.peak.pssKb),
      (e.wallMs / 1000).toFixed(0),
    ]),
  ),
  '',
  ours10 ? `Memory bound: the eviction runs peaked at ${evictionRuns.map((e) => mb(e.peak.pssKb)).join(' and ')} MB PSS, against ${mb(ours10.peak.pssKb)} MB for 10 sessions in the concurrency run. Eviction waits for the evicted context to close before the newcomer's opens, so contexts never exceed maxSessions.` : '',
  ...evictionRuns.flatMap((e) => e.failureSamples.map((f) => `- ${e.arrival}, thread ${f.thread}: ${f.step}: ${f.code} ${f.message}`)),
  '',
  `Node heap after GC (MB): ${Object.entries(heapAfter).map(([k, v]) => `${k} ${v}`).join(', ')}.`,
  '',
];
const markdown = `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
console.log(`\n${markdown}`);
if (WRITE) {
  const dir = join(ROOT, 'bench', 'results');
  writeFileSync(join(dir, 'sessions.md'), markdown);
  writeFileSync(join(dir, 'sessions.json'), `${JSON.stringify({ meta, concurrency: concurrencyRuns, peer: peerRun, soak: soakRun, eviction: evictionRuns, nodeHeapMbAfterGc: heapAfter }, null, 2)}\n`);
  console.log('written to bench/results/sessions.md and sessions.json');
}
