/**
 * Network benchmark: navigate-to-snapshot on the corpus of real pages when their third-party requests are
 * slow and a few never answer, for ours and the two peers, each with its own defaults for load waiting.
 *
 *   npm run bench:network                               all pages
 *   npm run bench:network -- --limit 5                  the first 5 pages
 *   npm run bench:network -- --pages cnet.html,msn.html
 *   npm run bench:network -- --seed s2 --stuck 0.05     another draw of latencies, 5% of URLs stuck
 *   npm run bench:network -- --latency 300,1.0,3000     a slower internet: median ms, sigma, cut-off ms
 *   npm run bench:network -- --systems ours             only some systems (ours, mastra-agent-browser, playwright-mcp)
 *   npm run bench:network -- --cap 65000 --no-write     per-call cap (ms); print only
 *   npm run bench:network -- --without-chromium-arg=--process-per-site
 *                                                       leave one of our default Chromium flags out (to measure what
 *                                                       it buys; such a run writes no results)
 *
 * Every system gets its own stand-in internet (bench/network/standIn.ts) with the same seed, on its own
 * port, so each one's requests are counted apart; the pages are served by the same stand-ins.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { cpus, loadavg, platform, totalmem } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CORPUS_DIR, FIXTURES_DIR } from '../test/helpers/server.js';
import { createNetworkSystems, short, type NavigateOutcome, type NetworkSystem } from './network/systems.js';
import { renderConsole, renderMarkdown, type NetworkResults, type PageRun, type SystemRun } from './network/report.js';
import { DEFAULT_LATENCY, DEFAULT_SEED, startStandIn, type LatencyModel, type StandIn, type ThirdPartyRequest } from './network/standIn.js';
import { CHROMIUM } from './systems.js';
import { DEFAULT_CHROMIUM_ARGS } from '../src/index.js';
import { describeSource, packageVersion } from './provenance.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_JSON = join(ROOT, 'bench/results/network.json');
const REPORT_MD = join(ROOT, 'bench/results/network.md');
/** A local page with no third-party requests: launches and first-use costs are paid on it, untimed. */
const WARMUP_PAGE = '/fixtures/list.html';
/**
 * 3%, the low end of what is usual: with about 25 third-party requests per page, one in three pages
 * already has a stuck request, and each of those can cost a system its whole navigation timeout.
 */
const DEFAULT_STUCK = 0.03;
/** A little over @playwright/mcp's own 60 s navigation timeout, so each system's own error is what gets recorded. */
const DEFAULT_CAP_MS = 65_000;

interface Options {
  pages: string[];
  seed: string;
  stuckShare: number;
  latency: LatencyModel;
  capMs: number;
  systems?: string[];
  write: boolean;
  protocol: 'http1' | 'h2';
  caching: 'no-store' | 'max-age';
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string' },
      pages: { type: 'string' },
      seed: { type: 'string', default: DEFAULT_SEED },
      stuck: { type: 'string', default: String(DEFAULT_STUCK) },
      latency: { type: 'string' },
      cap: { type: 'string', default: String(DEFAULT_CAP_MS) },
      systems: { type: 'string' },
      'no-write': { type: 'boolean', default: false },
      protocol: { type: 'string', default: 'http1' },
      caching: { type: 'string', default: 'no-store' },
      'without-chromium-arg': { type: 'string' },
    },
  });
  let pages = readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.html'))
    .sort();
  if (values.pages) {
    const wanted = values.pages.split(',').map((p) => p.trim()).filter(Boolean);
    const unknown = wanted.filter((p) => !pages.includes(p));
    if (unknown.length) throw new Error(`Not in ${CORPUS_DIR}: ${unknown.join(', ')}`);
    pages = wanted;
  }
  if (values.limit) pages = pages.slice(0, Number(values.limit));
  const without = values['without-chromium-arg'];
  if (without) {
    // The toolset reads DEFAULT_CHROMIUM_ARGS when it resolves its config, so taking a flag out here leaves it out
    // of every browser this run launches (the peers' too): the ledger in docs/loading.md measures flags this way.
    const at = DEFAULT_CHROMIUM_ARGS.indexOf(without);
    if (at < 0) throw new Error(`--without-chromium-arg: ${without} is not one of ${DEFAULT_CHROMIUM_ARGS.join(' ')}`);
    DEFAULT_CHROMIUM_ARGS.splice(at, 1);
  }
  const stuckShare = Number(values.stuck);
  if (!(stuckShare >= 0 && stuckShare <= 1)) throw new Error(`--stuck is a share between 0 and 1, not ${values.stuck}`);
  const [medianMs, sigma, maxMs] = (values.latency ?? '').split(',').map(Number);
  const latency = values.latency ? { medianMs: medianMs!, sigma: sigma!, maxMs: maxMs! } : DEFAULT_LATENCY;
  if (![latency.medianMs, latency.sigma, latency.maxMs].every((n) => n >= 0)) throw new Error(`--latency is median ms, sigma, cut-off ms, not ${values.latency}`);
  const systems = values.systems?.split(',').map((s) => s.trim()).filter(Boolean);
  const protocol = values.protocol as Options['protocol'];
  if (protocol !== 'http1' && protocol !== 'h2') throw new Error(`--protocol is http1 or h2, not ${values.protocol}`);
  const caching = values.caching as Options['caching'];
  if (caching !== 'no-store' && caching !== 'max-age') throw new Error(`--caching is no-store or max-age, not ${values.caching}`);
  return { pages, seed: values.seed!, stuckShare, latency, capMs: Number(values.cap), systems, write: !values['no-write'] && !without, protocol, caching };
}

/** The corpus under /corpus/ and the fixtures under /fixtures/, as test/helpers/server.ts serves them. */
const servePages: RequestListener = (req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
  const [, top, ...rest] = path.split('/');
  const root = top === 'corpus' ? CORPUS_DIR : top === 'fixtures' ? FIXTURES_DIR : undefined;
  const file = root && normalize(join(root, rest.join('/')));
  if (!root || !file || !file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><h1>404 Not found</h1>');
    return;
  }
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript' };
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
};

class CapError extends Error {}

async function withCap<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CapError(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), cap]);
  } finally {
    clearTimeout(timer);
  }
}

/** One system, its stand-in, and the start times of its measured calls (to count each page's requests). */
class Runner {
  private running = false;
  readonly starts: number[] = [];

  constructor(
    readonly system: NetworkSystem,
    readonly standIn: StandIn,
    private readonly capMs: number,
  ) {}

  async ensureStarted(): Promise<void> {
    if (this.running) return;
    await withCap(this.capMs, () => this.system.start(this.standIn.resolverArgs));
    this.running = true;
  }

  /** After a cap or a crash: the next page starts a fresh browser. */
  async restart(): Promise<void> {
    this.running = false;
    await withCap(15_000, () => this.system.close()).catch(() => {});
  }

  /** Third-party requests that arrived from `from` on, before `to`. */
  requestsBetween(from: number, to: number): ThirdPartyRequest[] {
    return this.standIn.thirdParty.filter((r) => r.at >= from && r.at < to);
  }
}

async function measure(runner: Runner, page: string, capMs: number): Promise<{ run: SystemRun; startedAt: number }> {
  const path = `/corpus/${page}`;
  let outcome: NavigateOutcome;
  let startedAt = performance.now();
  let endedAt: number;
  try {
    await runner.ensureStarted();
    startedAt = performance.now();
    runner.starts.push(startedAt);
    outcome = await withCap(capMs, () => runner.system.navigate(runner.standIn.url(path)));
    endedAt = performance.now();
  } catch (error) {
    endedAt = performance.now();
    const capped = error instanceof CapError;
    outcome = { ok: false, snapshotChars: 0, refs: 0, code: capped ? 'cap' : 'crash', error: short(error instanceof Error ? error.message : String(error)) };
    await runner.restart();
  }
  const during = runner.requestsBetween(startedAt, endedAt);
  const documentArrived = runner.standIn.local.some((r) => r.path === path && r.at >= startedAt && r.finishedAt !== undefined && r.finishedAt <= endedAt);
  const run: SystemRun = {
    ms: Math.round(endedAt - startedAt),
    ok: outcome.ok,
    ...(outcome.code ? { code: outcome.code } : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
    documentArrived,
    snapshotChars: outcome.snapshotChars,
    refs: outcome.refs,
    ...(outcome.firstCallMs !== undefined ? { firstCallMs: outcome.firstCallMs } : {}),
    ...(outcome.stages ? { stages: outcome.stages } : {}),
    requests: during.length,
    stuck: during.filter((r) => r.stuck).length,
    // Filled in once the system has moved on to its next page.
    requestsOpen: 0,
    stuckOpen: 0,
  };
  return { run, startedAt };
}

/** The commit, and whether src/ differs from it: only src/ decides what our system does. */


function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
  } catch {
    return 'unknown';
  }
}

/** One page per line: small diffs when the results are committed again. */
function resultsJson(results: NetworkResults): string {
  const pages = results.pages.map((p) => `    ${JSON.stringify(p)}`).join(',\n');
  return `{\n  "meta": ${JSON.stringify(results.meta, null, 2).replace(/\n/g, '\n  ')},\n  "pages": [\n${pages}\n  ]\n}\n`;
}

const load1 = () => Number(loadavg()[0]!.toFixed(2));

async function main(): Promise<void> {
  if (!existsSync(CORPUS_DIR)) {
    console.log(`bench:network needs the corpus of saved pages, expected at ${CORPUS_DIR}. It is not there; nothing was measured.`);
    return;
  }
  const options = parseOptions();
  const began = performance.now();
  const all = createNetworkSystems(options.capMs);
  const unknown = options.systems?.filter((id) => !all.some((s) => s.id === id)) ?? [];
  if (unknown.length) throw new Error(`Unknown systems: ${unknown.join(', ')} (there are ${all.map((s) => s.id).join(', ')})`);
  const systems = options.systems ? all.filter((s) => options.systems!.includes(s.id)) : all;
  const runners: Runner[] = [];
  for (const system of systems) {
    const standIn = await startStandIn({ seed: options.seed, stuckShare: options.stuckShare, latency: options.latency, protocol: options.protocol, caching: options.caching, local: servePages });
    runners.push(new Runner(system, standIn, options.capMs));
  }
  const closeAll = async () => {
    for (const runner of runners) {
      await runner.restart();
      await runner.standIn.close();
    }
  };
  process.once('SIGINT', () => void closeAll().finally(() => process.exit(130)));

  const results: NetworkResults = {
    meta: {
      date: new Date().toISOString(),
      source: describeSource(),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryGiB: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        chromium: chromiumVersion(),
        platform: `${platform()} ${process.arch}`,
      },
      loadAverage: { start: load1() },
      versions: {
        'mastra-browser-toolset (ours)': (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
        'playwright-core (ours, agent-browser)': packageVersion('playwright-core'),
        'agent-browser': packageVersion('agent-browser'),
        '@mastra/agent-browser': packageVersion('@mastra/agent-browser'),
        '@playwright/mcp': packageVersion('@playwright/mcp'),
        'playwright-core (@playwright/mcp)': packageVersion('playwright-core', join(ROOT, 'node_modules/@playwright/mcp')),
      },
      systems: systems.map((s) => ({ id: s.id, description: s.description })),
      standIn: { seed: options.seed, stuckShare: options.stuckShare, latency: options.latency, protocol: options.protocol, caching: options.caching, capMs: options.capMs, pages: options.pages.length },
      notes: [],
    },
    pages: [],
  };
  const loads: number[] = [];
  const pending: Array<{ runner: Runner; run: SystemRun; startedAt: number; page: PageRun }> = [];

  try {
    for (const runner of runners) {
      await withCap(options.capMs, async () => {
        await runner.ensureStarted();
        const warm = await runner.system.navigate(runner.standIn.url(WARMUP_PAGE));
        if (!warm.ok) throw new Error(warm.error ?? 'no snapshot');
      }).catch(async (error) => {
        results.meta.notes.push(`Warm-up of ${runner.system.id} failed: ${short(String(error))}`);
        console.error(`warm-up of ${runner.system.id} failed: ${error}`);
        await runner.restart();
      });
    }

    for (const [index, page] of options.pages.entries()) {
      const pageRun: PageRun = { page, requests: 0, stuck: [], kinds: {}, load: 0, systems: {} };
      const order = runners.map((_, i) => runners[(i + index) % runners.length]!);
      for (const runner of order) {
        const { run, startedAt } = await measure(runner, page, options.capMs);
        pending.push({ runner, run, startedAt, page: pageRun });
        pageRun.systems[runner.system.id] = run;
      }
      // Keep the stored order stable whatever order the systems ran in.
      pageRun.systems = Object.fromEntries(runners.map((r) => [r.system.id, pageRun.systems[r.system.id]!]));
      pageRun.load = load1();
      loads.push(pageRun.load);
      results.pages.push(pageRun);
      const cells = runners.map((r) => {
        const run = pageRun.systems[r.system.id]!;
        return `${r.system.id} ${run.ms}ms${run.ok ? '' : ` ✗ ${run.code ?? 'error'}`} (${run.requests}/${run.stuck})`;
      });
      console.log(`[${index + 1}/${options.pages.length}] ${page} | ${cells.join(' | ')} | load ${pageRun.load}`);
    }
  } finally {
    // Requests made while each page stayed open, up to the same system's next navigation (or now).
    const now = performance.now();
    for (const { runner, run, startedAt, page } of pending) {
      const next = runner.starts.find((t) => t > startedAt) ?? now;
      const open = runner.requestsBetween(startedAt, next);
      run.requestsOpen = open.length;
      run.stuckOpen = open.filter((r) => r.stuck).length;
      // The page's traffic is taken from the browser that made the most requests for it.
      if (open.length > page.requests) {
        page.requests = open.length;
        page.stuck = open.filter((r) => r.stuck).map((r) => `${r.kind} ${r.host}`);
        page.kinds = {};
        for (const r of open) page.kinds[r.kind] = (page.kinds[r.kind] ?? 0) + 1;
      }
    }
    await closeAll();
  }

  results.meta.durationSeconds = Math.round((performance.now() - began) / 1000);
  results.meta.loadAverage.end = load1();
  if (loads.length) {
    results.meta.loadAverage.mean = Number((loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(2));
    results.meta.loadAverage.max = Math.max(...loads);
  }
  console.log(`\n${renderConsole(results)}\n\nRun time ${results.meta.durationSeconds} s.`);
  if (options.write) {
    mkdirSync(dirname(RESULTS_JSON), { recursive: true });
    writeFileSync(RESULTS_JSON, resultsJson(results));
    writeFileSync(REPORT_MD, renderMarkdown(results));
    console.log(`\nWrote ${RESULTS_JSON} and ${REPORT_MD}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
