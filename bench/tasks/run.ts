/**
 * Task-success benchmark: small web tasks (forms, tables, date pickers, trees, ...) solved through each
 * system's tools by the same scripted, text-only policies.
 *
 *   npm run bench:tasks
 *   npm run bench:tasks -- --tasks form-fields,table-row-action --seeds 2 --systems ours --no-write
 *   npm run bench:tasks -- --tasks forms,tables          (categories work too)
 *   npm run bench:tasks -- --verbose                     (every episode's tool calls)
 *   npm run bench:tasks -- --suite widgets               (the real widget libraries; writes tasks-widgets.{md,json})
 *
 * Every system runs the same Chromium with the same flags (bench/systems.ts) and its own default options.
 * Episodes are interleaved (task, then seed, then system in a rotating order) so that machine noise and
 * warm caches do not favour one system.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MastraAgentBrowserAdapter } from './adapters/mab.js';
import { OursAdapter } from './adapters/ours.js';
import { PlaywrightMcpAdapter } from './adapters/pw.js';
import type { Adapter } from './adapters/types.js';
import { runEpisode, STEP_BUDGET } from './episode.js';
import { TASKS } from './pages/index.js';
import { FILE_TASKS } from './pages/files.js';
import { WIDGET_TASKS } from './pages/widgets/index.js';
import { writeTokenReport } from '../tokens.js';
import { renderConsole, renderMarkdown, type TaskBenchResults } from './report.js';
import { startTaskServer } from './server.js';
import { CAUSE_LABELS, type EpisodeResult, type TaskDef } from './types.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Results go to bench/results/<name>.{md,json}: a run of widget tasks only has its own files, so the synthetic results stay. */
const resultsFile = (tasks: TaskDef[], ext: string) =>
  join(ROOT, `bench/results/${tasks.every((task) => WIDGET_TASKS.includes(task)) ? 'tasks-widgets' : tasks.every((task) => FILE_TASKS.includes(task)) ? 'tasks-files' : 'tasks'}.${ext}`);
const SUITES: Record<string, TaskDef[]> = {
  synthetic: TASKS.filter((task) => !WIDGET_TASKS.includes(task) && !FILE_TASKS.includes(task)),
  widgets: WIDGET_TASKS,
  files: FILE_TASKS,
  all: TASKS,
};
const DEFAULT_SEEDS = 3;

const SYSTEMS: Record<string, () => Adapter> = {
  ours: () => new OursAdapter(),
  'mastra-agent-browser': () => new MastraAgentBrowserAdapter(),
  'playwright-mcp': () => new PlaywrightMcpAdapter(),
};
const ALIASES: Record<string, string> = { mab: 'mastra-agent-browser', pw: 'playwright-mcp' };

interface Options {
  tasks: TaskDef[];
  seeds: number[];
  systems: string[];
  write: boolean;
  verbose: boolean;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      tasks: { type: 'string' },
      suite: { type: 'string', default: 'synthetic' },
      seeds: { type: 'string', default: String(DEFAULT_SEEDS) },
      systems: { type: 'string', default: Object.keys(SYSTEMS).join(',') },
      'no-write': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  const suite = SUITES[values.suite!];
  if (!suite) throw new Error(`Unknown suite: ${values.suite}. Known: ${Object.keys(SUITES).join(', ')}`);
  // Named tasks and categories are looked up in every suite.
  let tasks = suite;
  if (values.tasks) {
    const wanted = values.tasks.split(',').map((t) => t.trim()).filter(Boolean);
    tasks = TASKS.filter((task) => wanted.includes(task.id) || wanted.includes(task.category));
    const unknown = wanted.filter((w) => !TASKS.some((task) => task.id === w || task.category === w));
    if (unknown.length) throw new Error(`Unknown tasks or categories: ${unknown.join(', ')}. Known: ${TASKS.map((t) => t.id).join(', ')}`);
  }
  // "--seeds 5" means seeds 1 to 5; "--seeds 2,7" means exactly those.
  const seeds = values.seeds!.includes(',') ? values.seeds!.split(',').map(Number) : Array.from({ length: Number(values.seeds) }, (_, i) => i + 1);
  const systems = values.systems!.split(',').map((s) => ALIASES[s.trim()] ?? s.trim());
  const unknownSystems = systems.filter((s) => !SYSTEMS[s]);
  if (unknownSystems.length) throw new Error(`Unknown systems: ${unknownSystems.join(', ')}. Known: ${Object.keys(SYSTEMS).join(', ')} (or mab, pw)`);
  return { tasks, seeds, systems, write: !values['no-write'], verbose: values.verbose! };
}

function versionOf(name: string): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

function sourceDescription(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return `commit ${commit}${dirty ? ' with uncommitted changes in src/' : ''}`;
  } catch {
    return 'an unknown commit';
  }
}

/** A system started on demand and restarted after it broke, so one bad episode costs one result. */
class Runner {
  adapter: Adapter | undefined;
  /** The last episode failed: a dialog or a half-done page may be left over, so start from a blank page. */
  needsReset = true;
  constructor(readonly id: string) {}

  async get(): Promise<Adapter> {
    if (!this.adapter) {
      const adapter = SYSTEMS[this.id]!();
      await adapter.start();
      this.adapter = adapter;
    }
    return this.adapter;
  }

  async restart(): Promise<void> {
    const adapter = this.adapter;
    this.adapter = undefined;
    await adapter?.close().catch(() => {});
  }
}

function line(result: EpisodeResult): string {
  const outcome = result.success ? 'ok  ' : `FAIL ${CAUSE_LABELS[result.cause!]}: ${result.detail ?? ''}`;
  return `${result.task}#${result.seed} ${result.system.padEnd(20)} ${String(result.toolCalls).padStart(2)} calls ${String(result.tokens).padStart(6)} tok ${result.seconds.toFixed(1).padStart(5)} s  ${outcome}`;
}

async function main(): Promise<void> {
  const options = parseOptions();
  const started = Date.now();
  const loadAtStart = loadavg()[0]!;
  const server = await startTaskServer(TASKS);
  const runners = options.systems.map((id) => new Runner(id));
  const episodes: EpisodeResult[] = [];
  console.log(`${options.tasks.length} tasks × ${options.seeds.length} seeds × ${runners.length} systems = ${options.tasks.length * options.seeds.length * runners.length} episodes`);
  let round = 0;
  try {
    for (const task of options.tasks) {
      for (const seed of options.seeds) {
        const order = runners.map((_, i) => runners[(i + round) % runners.length]!);
        round++;
        for (const runner of order) {
          let result: EpisodeResult;
          try {
            result = await runEpisode(await runner.get(), server, task, seed, { reset: runner.needsReset });
          } catch (error) {
            // The system broke (a crashed browser, a dead MCP connection): count it, restart it, go on.
            const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);
            result = { task: task.id, category: task.category, seed, system: runner.id, success: false, cause: 'tool_error', detail: `harness: ${message}`, toolCalls: 0, tokens: 0, trace: [], seconds: 0 };
            await runner.restart();
          }
          runner.needsReset = !result.success;
          episodes.push(result);
          console.log(line(result));
          if (options.verbose || (!result.success && process.env.BENCH_TRACE)) console.log(`    ${result.trace.join('\n    ')}`);
          if (options.verbose) for (const call of result.calls ?? []) console.log(`    ${call.tool}: ${call.tokens} tok ${JSON.stringify(call.parts)} read before ${JSON.stringify(call.repeated)}${call.cuts ? ` cuts ${JSON.stringify(call.cuts)}` : ''}`);
        }
      }
    }
  } finally {
    await Promise.all(runners.map((runner) => runner.restart()));
    await server.close();
  }

  const results: TaskBenchResults = {
    meta: {
      date: new Date().toISOString().slice(0, 10),
      source: process.env.BENCH_SOURCE ?? sourceDescription(),
      machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.versions.node}`,
      versions: Object.fromEntries(['@mastra/agent-browser', '@playwright/mcp', 'playwright-core', '@sparticuz/chromium'].map((name) => [name, versionOf(name)])),
      systems: runners.map((runner) => ({ id: runner.id, description: SYSTEMS[runner.id]!().description })),
      seeds: options.seeds,
      budget: STEP_BUDGET,
      durationSeconds: Math.round((Date.now() - started) / 1000),
      loadAverage: { start: Math.round(loadAtStart * 10) / 10, end: Math.round(loadavg()[0]! * 10) / 10 },
    },
    tasks: options.tasks.map((task) => ({ id: task.id, category: task.category, policy: task.policy, summary: task.summary })),
    episodes,
  };
  console.log(`\n${renderConsole(results)}\n\n${results.meta.durationSeconds} s`);
  if (options.write) {
    const [json, markdown] = [resultsFile(options.tasks, 'json'), resultsFile(options.tasks, 'md')];
    mkdirSync(dirname(json), { recursive: true });
    // One episode a line: with each call's breakdown, an indented file would be three times the size.
    const episodes = `[\n${results.episodes.map((episode) => JSON.stringify(episode)).join(',\n')}\n]`;
    writeFileSync(json, `${JSON.stringify({ ...results, episodes: '<episodes>' }, null, 1).replace('"<episodes>"', episodes)}\n`);
    writeFileSync(markdown, renderMarkdown(results, TASKS));
    console.log(`Wrote ${markdown} and ${json}`);
    writeTokenReport();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
