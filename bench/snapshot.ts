/**
 * Snapshot benchmark: our browser_snapshot against its peers on the shared corpus of real pages.
 *
 *   npm run bench:snapshot                                  all pages
 *   npm run bench:snapshot -- --limit 5                     the first 5 pages
 *   npm run bench:snapshot -- --pages wikipedia.html,cnet.html
 *   npm run bench:snapshot -- --timeout 30000 --no-write    per page and system; print only
 *   npm run bench:snapshot -- --systems ours-default        only these systems (quick loops; implies --no-write)
 *   npm run bench:snapshot -- --json /tmp/run.json          also write the per-page results there (kept misses included)
 *
 * BENCH_SOURCE overrides the description of the code measured (the commit, by default). BENCH_DUMP_DIR=<dir> writes
 * each page's text per system there (`<page>.<system>.txt`: the snapshot, then what the model reads), to price a cut.
 *
 * For each page the DOM ground truth is taken first, then every system opens the page in its own
 * browser and takes a snapshot; the system order rotates from page to page so that machine noise
 * and warm caches do not favour any one of them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { chromium, type Browser } from 'playwright-core';
import { CORPUS_DIR, startServer, type TestServer } from '../test/helpers/server.js';
import type { BrowserToolset } from '../src/index.js';
import { resultText, type ResultLike } from '../src/tools/modelText.js';
import { groundTruth, groundTruthByRef, recall, recallByRef, searchableText, type RecallResult, type TruthElement } from './groundTruth.js';
import { renderConsole, renderMarkdown, type Samples } from './report.js';
import { CHROMIUM, CHROMIUM_ARGS, createSystems, NAVIGATION_TIMEOUT, VIEWPORT, type SnapshotSystem } from './systems.js';
import { describeSource, packageVersion } from './provenance.js';
import type { BenchResults, PageResult, StoredRecall, SystemPageResult, TruthSummary } from './types.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_JSON = join(ROOT, 'bench/results/snapshot.json');
// The generated report; .planning/BENCHMARKS.md quotes it next to the goals and the other benchmarks.
const REPORT_MD = join(ROOT, 'bench/results/snapshot.md');
/** Pages whose snapshots are shown in the report, when they are part of the run. */
const SAMPLE_PAGES = ['wikipedia.html', 'nytimes-1.html'];
const SAMPLE_LINES = 40;
const MISSING_KEPT = 6;
const WARMUP_PAGE = '/fixtures/list.html';

interface Options {
  pages: string[];
  timeoutMs: number;
  write: boolean;
  systems?: string[];
  json?: string;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      limit: { type: 'string' },
      pages: { type: 'string' },
      timeout: { type: 'string', default: '30000' },
      'no-write': { type: 'boolean', default: false },
      systems: { type: 'string' },
      json: { type: 'string' },
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
  const systems = values.systems?.split(',').map((s) => s.trim()).filter(Boolean);
  return { pages, timeoutMs: Number(values.timeout), write: !values['no-write'] && !systems, systems, json: values.json };
}

async function withTimeout<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' / ').slice(0, 300);
}

/** A system whose browser is started on demand and restarted after a failure, so one bad page costs one result. */
class Runner {
  private running = false;

  constructor(
    readonly system: SnapshotSystem,
    private readonly timeoutMs: number,
  ) {}

  async ensureStarted(): Promise<void> {
    if (this.running) return;
    await withTimeout(this.timeoutMs, `${this.system.id} start`, () => this.system.start());
    this.running = true;
  }

  async restart(): Promise<void> {
    this.running = false;
    await withTimeout(10_000, `${this.system.id} close`, () => this.system.close()).catch(() => {});
  }

  async close(): Promise<void> {
    await this.restart();
  }
}

function storeRecall(result: RecallResult, kept = MISSING_KEPT): StoredRecall {
  return { ...result, missing: result.missing.slice(0, kept) };
}

function summarizeTruth(elements: TruthElement[]): TruthSummary {
  const labelled = elements.filter((e) => e.label);
  return {
    viewport: labelled.filter((e) => e.inViewport).length,
    page: labelled.length,
    unlabelledViewport: elements.filter((e) => !e.label && e.inViewport).length,
    unlabelledPage: elements.length - labelled.length,
    inIframes: elements.filter((e) => e.where === 'iframe').length,
    inShadowRoots: elements.filter((e) => e.where === 'shadow').length,
    ariaHidden: elements.filter((e) => e.ariaHidden).length,
  };
}

async function takeGroundTruth(browser: Browser, url: string, timeoutMs: number): Promise<TruthElement[]> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    return await withTimeout(timeoutMs, 'ground truth', async () => {
      await page.goto(url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT }).catch((error) => {
        if (!/Timeout/.test(String(error))) throw error;
      });
      return groundTruth(page);
    });
  } finally {
    await context.close().catch(() => {});
  }
}

/**
 * Our systems keep their toolset in a field; its page is where refs are resolved for element-level recall, through
 * the toolset, which knows how it numbered them (bench/systems.ts is shared with other benchmarks, so it is read
 * here rather than changed there).
 */
function ourToolset(system: unknown): BrowserToolset | undefined {
  return (system as { toolset?: BrowserToolset }).toolset;
}

/**
 * What the model reads of our result: the plain text `toModelOutput` makes of it (src/tools/modelText.ts).
 * Notices are left out: the only one here is "the page changed since your last call", caused by the benchmark
 * opening pages on the tab directly instead of through browser_navigate, which a model never sees after its own navigation.
 */
function modelText(sent: string): string {
  const { notices: _notices, ...result } = JSON.parse(sent) as ResultLike;
  return resultText(result as ResultLike);
}

async function measure(runner: Runner, url: string, truth: TruthElement[] | undefined, timeoutMs: number, samples: Samples, pageName: string): Promise<SystemPageResult> {
  try {
    return await withTimeout(timeoutMs, runner.system.id, async () => {
      await runner.ensureStarted();
      await runner.system.open(url);
      let start = performance.now();
      const output = await runner.system.snapshot();
      const coldMs = performance.now() - start;
      // Ours: resolve the refs of this very text in this very page before anything else snapshots it again (untimed).
      const ours = output.sent !== undefined ? ourToolset(runner.system) : undefined;
      const own = ours ? await groundTruthByRef(await ours.page(), output.text, (ref) => ours.locator(ref)) : undefined;
      start = performance.now();
      await runner.system.snapshot();
      const warmMs = performance.now() - start;

      const read = output.sent !== undefined ? modelText(output.sent) : output.text;
      if (process.env.BENCH_DUMP_DIR) writeFileSync(join(process.env.BENCH_DUMP_DIR, `${pageName}.${runner.system.id}.txt`), `${output.text}\n=====MODEL=====\n${read}`);
      if (SAMPLE_PAGES.includes(pageName)) (samples[pageName] ??= {})[runner.system.id] = (output.sent !== undefined ? read : output.readable).split('\n').slice(0, SAMPLE_LINES).join('\n');
      const haystack = searchableText(output.readable);
      const result: SystemPageResult = {
        ok: true,
        tokens: countTokens(read),
        chars: read.length,
        coldMs: Math.round(coldMs),
        warmMs: Math.round(warmMs),
      };
      if (output.sent !== undefined) {
        result.snapshotTokens = countTokens(output.text);
        result.sentTokens = countTokens(output.sent);
      }
      if (truth) {
        result.viewport = storeRecall(recall(truth.filter((e) => e.inViewport), haystack));
        result.page = storeRecall(recall(truth, haystack));
      }
      if (own) {
        result.viewportByRef = storeRecall(recallByRef(own.filter((e) => e.inViewport)), 12);
        result.pageByRef = storeRecall(recallByRef(own));
      }
      return result;
    });
  } catch (error) {
    await runner.restart();
    return { ok: false, error: errorText(error) };
  }
}

function progressLine(index: number, total: number, result: PageResult): string {
  const truth = result.truth ? `truth ${result.truth.viewport}/${result.truth.page}` : `truth failed`;
  const parts = Object.entries(result.systems).map(([id, r]) => {
    if (!r.ok) return `${id} FAILED (${r.error?.slice(0, 120)})`;
    const vp = r.viewport?.recall == null ? '-' : r.viewport.recall.toFixed(2);
    const pg = r.page?.recall == null ? '-' : r.page.recall.toFixed(2);
    const byRef = r.viewportByRef ? ` el ${r.viewportByRef.found}/${r.viewportByRef.total}${r.viewportByRef.missing.length ? ` missing ${r.viewportByRef.missing.join('; ')}` : ''}` : '';
    return `${id} ${r.tokens}t${r.snapshotTokens ? ` (bare ${r.snapshotTokens}t)` : ''} ${r.coldMs}ms ${vp}/${pg}${byRef}`;
  });
  return `[${index + 1}/${total}] ${result.page} ${truth} | ${parts.join(' | ')}`;
}

/** One page per line: small diffs when the results are committed again. */
function resultsJson(results: BenchResults): string {
  const pages = results.pages.map((p) => `    ${JSON.stringify(p)}`).join(',\n');
  return `{\n  "meta": ${JSON.stringify(results.meta)},\n  "pages": [\n${pages}\n  ]\n}\n`;
}

async function main(): Promise<void> {
  // The saved pages live beside the repository, not in it: a bare clone has none, which is no failure.
  if (!existsSync(CORPUS_DIR)) {
    console.log(`bench:snapshot skipped: the corpus of saved pages is expected at ${CORPUS_DIR} (shared/corpus/pages next to the repository folder), and it is not there.`);
    return;
  }
  const options = parseOptions();
  const began = performance.now();
  const server: TestServer = await startServer();
  const truthBrowser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const runners = createSystems(options.timeoutMs)
    .filter((system) => !options.systems || options.systems.includes(system.id))
    .map((system) => new Runner(system, options.timeoutMs));
  const closeAll = async () => {
    await Promise.all(runners.map((r) => r.close()));
    await truthBrowser.close().catch(() => {});
    await server.close();
  };
  process.once('SIGINT', () => void closeAll().finally(() => process.exit(130)));

  const results: BenchResults = {
    meta: {
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? 'unknown',
        memoryGiB: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        chromium: truthBrowser.version(),
        platform: `${platform()} ${process.arch}`,
      },
      source: describeSource(),
      loadAverage: { start: Number(loadavg()[0]!.toFixed(2)) },
      versions: {
        'mastra-browser-toolset (ours)': (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
        'agent-browser': packageVersion('agent-browser'),
        'playwright-core (ours, agent-browser)': packageVersion('playwright-core'),
        '@mastra/agent-browser': packageVersion('@mastra/agent-browser'),
        '@mastra/core': packageVersion('@mastra/core'),
        '@playwright/mcp': packageVersion('@playwright/mcp'),
        'playwright-core (@playwright/mcp)': packageVersion('playwright-core', join(ROOT, 'node_modules/@playwright/mcp')),
        '@modelcontextprotocol/sdk': packageVersion('@modelcontextprotocol/sdk'),
        'gpt-tokenizer': packageVersion('gpt-tokenizer'),
      },
      systems: runners.map((r) => ({ id: r.system.id, description: r.system.description })),
      options: { timeoutMs: options.timeoutMs, pages: options.pages.length },
    },
    pages: [],
  };
  const samples: Samples = {};

  try {
    // Browser launch and first-use costs are not what is measured: pay them before the first page.
    for (const runner of runners) {
      await withTimeout(options.timeoutMs, `${runner.system.id} warm-up`, async () => {
        await runner.ensureStarted();
        await runner.system.open(server.url(WARMUP_PAGE));
        await runner.system.snapshot();
      }).catch(async (error) => {
        console.error(`warm-up of ${runner.system.id} failed: ${errorText(error)}`);
        await runner.restart();
      });
    }

    for (const [index, pageName] of options.pages.entries()) {
      const url = server.url(`/corpus/${pageName}`);
      const pageResult: PageResult = { page: pageName, systems: {} };
      let truth: TruthElement[] | undefined;
      try {
        truth = await takeGroundTruth(truthBrowser, url, options.timeoutMs);
        pageResult.truth = summarizeTruth(truth);
      } catch (error) {
        pageResult.truthError = errorText(error);
      }
      const order = runners.map((_, i) => runners[(i + index) % runners.length]!);
      for (const runner of order) pageResult.systems[runner.system.id] = await measure(runner, url, truth, options.timeoutMs, samples, pageName);
      // Keep the stored order stable whatever order the systems ran in.
      pageResult.systems = Object.fromEntries(runners.map((r) => [r.system.id, pageResult.systems[r.system.id]!]));
      results.pages.push(pageResult);
      console.log(progressLine(index, options.pages.length, pageResult));
    }
  } finally {
    await closeAll();
  }

  results.meta.durationSeconds = Math.round((performance.now() - began) / 1000);
  results.meta.loadAverage.end = Number(loadavg()[0]!.toFixed(2));
  results.meta.notes = runners.flatMap((r) => r.system.notes?.() ?? []);
  console.log(`\n${renderConsole(results)}`);
  if (options.json) writeFileSync(options.json, resultsJson(results));
  if (options.write) {
    mkdirSync(dirname(RESULTS_JSON), { recursive: true });
    writeFileSync(RESULTS_JSON, resultsJson(results));
    writeFileSync(REPORT_MD, renderMarkdown(results, samples));
    console.log(`\nWrote ${RESULTS_JSON} and ${REPORT_MD}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
