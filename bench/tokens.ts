/**
 * Where a finished task's tokens go, for each system of the task suites: per tool, per part of a result (the
 * call's status, the page line, elements, text, changes, ...), what was read before in the same task, and what
 * each candidate cut of ours would save. Read from the episodes of bench/results/tasks.json and
 * tasks-widgets.json (bench/tasks/breakdown.ts counts each call as it runs); written to bench/results/tokens.{md,json}.
 *
 *   npm run bench:tokens        (npm run bench:tasks runs it too, after writing its results)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, sum } from './stats.js';
import { CUT_LABELS, CUTS, PART_LABELS, PARTS, type CallTokens, type Cut, type Part } from './tasks/breakdown.js';
import type { TaskBenchResults } from './tasks/report.js';
import type { EpisodeResult } from './tasks/types.js';

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results');
const SUITES = [
  { id: 'made-up pages', file: 'tasks' },
  { id: 'real widget libraries', file: 'tasks-widgets' },
];
const SYSTEMS = ['ours', 'mastra-agent-browser', 'playwright-mcp'];
/** Tools that act on the page: a snapshot right after one is a call made only to see what it did. */
const ACTIONS = /_(click|type|select|select_option|check|press|press_key|drag|dialog|handle_dialog|hover|fill_form)$/;
const LOOKS = /_snapshot\b/;
/** Scrolls: a scroll tool, or PageDown (Playwright MCP has no scroll tool). */
const SCROLLS = /_scroll\b|\{PageDown\}/;

const fmt = (n: number | null | undefined) => (n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));
const one = (n: number) => n.toFixed(1);
const pct = (part: number, whole: number) => (whole ? `${Math.round((100 * part) / whole)}%` : '–');

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

interface SystemFigures {
  system: string;
  episodes: number;
  finished: number;
  /** Mean over finished episodes. */
  tokensPerTask: number;
  tokensPerTaskMedian: number;
  callsPerTaskMedian: number;
  callsPerTask: number;
  /** On the task × seed pairs every system finished. */
  common: { tasks: number; tokensPerTask: number; callsPerTaskMedian: number };
  parts: Record<Part, number>;
  repeated: Record<Part, number>;
  tools: Record<string, { calls: number; tokens: number }>;
  /** Ours: tokens per task by tool and part. */
  toolParts?: Record<string, Record<Part, number>>;
  cuts?: Record<Cut, number>;
  /** Snapshots taken right after an action, before anything else: calls and tokens per task. */
  looksAfterAction: { calls: number; tokens: number };
  scrolls: { calls: number; tokens: number };
}

interface SuiteFigures {
  suite: string;
  file: string;
  date: string;
  source: string;
  /** Episodes without a per-call breakdown (a results file written before breakdown.ts): parts are left out. */
  withBreakdown: boolean;
  systems: SystemFigures[];
}

const zero = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

function figuresOf(system: string, episodes: EpisodeResult[], common: Set<string>): SystemFigures {
  const done = episodes.filter((e) => e.success);
  const n = Math.max(1, done.length);
  const calls: CallTokens[] = done.flatMap((e) => e.calls ?? []);
  const parts = zero(PARTS);
  const repeated = zero(PARTS);
  const tools: Record<string, { calls: number; tokens: number }> = {};
  const toolParts: Record<string, Record<Part, number>> = {};
  const cuts = zero(CUTS);
  for (const call of calls) {
    for (const part of PARTS) {
      parts[part] += (call.parts[part] ?? 0) / n;
      repeated[part] += (call.repeated[part] ?? 0) / n;
    }
    const tool = (tools[call.tool] ??= { calls: 0, tokens: 0 });
    tool.calls += 1 / n;
    tool.tokens += call.tokens / n;
    const byPart = (toolParts[call.tool] ??= zero(PARTS));
    for (const part of PARTS) byPart[part] += (call.parts[part] ?? 0) / n;
    for (const cut of CUTS) cuts[cut] += (call.cuts?.[cut] ?? 0) / n;
  }
  const looks = { calls: 0, tokens: 0 };
  const scrolls = { calls: 0, tokens: 0 };
  for (const episode of done) {
    const list = episode.calls ?? [];
    list.forEach((call, i) => {
      if (i > 0 && LOOKS.test(call.tool) && ACTIONS.test(list[i - 1]!.tool)) {
        looks.calls += 1 / n;
        looks.tokens += call.tokens / n;
      }
      if (SCROLLS.test(call.tool)) {
        scrolls.calls += 1 / n;
        scrolls.tokens += call.tokens / n;
      }
    });
  }
  const shared = done.filter((e) => common.has(`${e.task}#${e.seed}`));
  return {
    system,
    episodes: episodes.length,
    finished: done.length,
    tokensPerTask: sum(done.map((e) => e.tokens)) / n,
    tokensPerTaskMedian: median(done.map((e) => e.tokens)) ?? 0,
    callsPerTaskMedian: median(done.map((e) => e.toolCalls)) ?? 0,
    callsPerTask: sum(done.map((e) => e.toolCalls)) / n,
    common: {
      tasks: shared.length,
      tokensPerTask: sum(shared.map((e) => e.tokens)) / Math.max(1, shared.length),
      callsPerTaskMedian: median(shared.map((e) => e.toolCalls)) ?? 0,
    },
    parts,
    repeated,
    tools,
    ...(system === 'ours' ? { toolParts, cuts } : {}),
    looksAfterAction: looks,
    scrolls,
  };
}

function suiteFigures(suite: { id: string; file: string }): SuiteFigures | undefined {
  const path = join(RESULTS, `${suite.file}.json`);
  if (!existsSync(path)) return undefined;
  const results = JSON.parse(readFileSync(path, 'utf8')) as TaskBenchResults;
  const systems = SYSTEMS.filter((s) => results.meta.systems.some((m) => m.id === s));
  const finishedBy = (system: string) => new Set(results.episodes.filter((e) => e.system === system && e.success).map((e) => `${e.task}#${e.seed}`));
  const [first, ...rest] = systems.map(finishedBy);
  const common = new Set([...(first ?? [])].filter((key) => rest.every((set) => set.has(key))));
  return {
    suite: suite.id,
    file: suite.file,
    date: results.meta.date,
    source: results.meta.source,
    withBreakdown: results.episodes.every((e) => e.calls !== undefined),
    systems: systems.map((system) => figuresOf(system, results.episodes.filter((e) => e.system === system), common)),
  };
}

function summaryRows(suites: SuiteFigures[]): string[][] {
  return suites.flatMap((suite) => {
    const ours = suite.systems.find((s) => s.system === 'ours');
    return suite.systems.map((s) => [
      `${suite.suite}: ${s.system}`,
      `${s.finished}/${s.episodes}`,
      fmt(s.tokensPerTask),
      fmt(s.tokensPerTaskMedian),
      ours && s !== ours ? `${(ours.tokensPerTask / s.tokensPerTask).toFixed(2)}x` : '–',
      String(s.callsPerTaskMedian),
      one(s.callsPerTask),
      `${fmt(s.common.tokensPerTask)} (${s.common.tasks})`,
      String(s.common.callsPerTaskMedian),
    ]);
  });
}

const SUMMARY_HEAD = [
  'suite: system',
  'finished',
  'tokens per finished task',
  'median tokens per finished task',
  'ours ÷ this',
  'median calls per finished task',
  'calls per finished task',
  'tokens per task finished by all (tasks)',
  'median calls, tasks finished by all',
];

function suiteSection(suite: SuiteFigures): string {
  const systems = suite.systems;
  const ours = systems.find((s) => s.system === 'ours');
  if (!suite.withBreakdown) return `## ${suite.suite}\n\nThe episodes of bench/results/${suite.file}.json carry no per-call breakdown: run \`npm run bench:tasks\` again.\n`;
  const partRows = PARTS.filter((part) => systems.some((s) => s.parts[part] >= 0.5)).map((part) => [
    PART_LABELS[part],
    ...systems.flatMap((s) => [`${fmt(s.parts[part])} (${pct(s.parts[part], s.tokensPerTask)})`, fmt(s.repeated[part])]),
  ]);
  const totals = ['all', ...systems.flatMap((s) => [fmt(s.tokensPerTask), `${fmt(sum(Object.values(s.repeated)))} (${pct(sum(Object.values(s.repeated)), s.tokensPerTask)})`])];
  const toolRows = systems.flatMap((s) =>
    Object.entries(s.tools)
      .sort((a, b) => b[1].tokens - a[1].tokens)
      .map(([tool, t]) => [s.system, `\`${tool}\``, t.calls.toFixed(2), fmt(t.tokens / t.calls), fmt(t.tokens), pct(t.tokens, s.tokensPerTask)]),
  );
  const lookRows = systems.map((s) => [s.system, s.looksAfterAction.calls.toFixed(2), fmt(s.looksAfterAction.tokens), s.scrolls.calls.toFixed(2), fmt(s.scrolls.tokens)]);
  const usedParts = PARTS.filter((part) => ours && ours.parts[part] >= 0.5);
  const oursToolRows = ours?.toolParts
    ? Object.entries(ours.toolParts)
        .sort((a, b) => sum(Object.values(b[1])) - sum(Object.values(a[1])))
        .map(([tool, parts]) => [`\`${tool}\``, ...usedParts.map((part) => fmt(parts[part]))])
    : [];
  const cutRows = ours?.cuts ? CUTS.map((cut) => [CUT_LABELS[cut], fmt(ours.cuts![cut]), pct(ours.cuts![cut], ours.tokensPerTask)]) : [];
  return `## ${suite.suite}

From bench/results/${suite.file}.json (${suite.date}, ${suite.source}). Tokens per finished task: the mean over the
episodes each system finished; "read before" is the part of them in lines the model had already read, word for word,
earlier in the same task.

### Parts of a result, tokens per finished task

${table(['part', ...systems.flatMap((s) => [s.system, 'read before'])], [...partRows, totals])}

### Tools, per finished task

${table(['system', 'tool', 'calls', 'tokens per call', 'tokens', 'share'], toolRows)}

### Calls made only to look

A snapshot taken right after an action, before any other call, is a call the action's result could have saved;
scrolls (for Playwright MCP, PageDown) are what reaching a far item costs. Per finished task.

${table(['system', 'snapshots right after an action', 'their tokens', 'scrolls', 'their tokens'], lookRows)}
${
  ours
    ? `
### This package: tools by part, tokens per finished task

${table(['tool', ...usedParts], oursToolRows)}

### This package: what candidate cuts would save, tokens per finished task

Upper bounds read off the text: each cut must still say what the model needs (see .planning/token-plan.md).
The rows overlap (a repeated line may also carry a frame prefix).

${table(['cut', 'tokens', 'share of ours'], cutRows)}
`
    : ''
}`;
}

export function writeTokenReport(): void {
  const suites = SUITES.map(suiteFigures).filter((s): s is SuiteFigures => s !== undefined);
  const markdown = `# Where a task's tokens go

Generated by \`npm run bench:tokens\` (and at the end of every \`npm run bench:tasks\`) from the task suites' results.
Every tool result the model reads in an episode is cut into lines and each line put in one part
(bench/tasks/breakdown.ts, one reader per system); a part's tokens are the o200k tokens of its lines. Only finished
episodes count, so a system that gives up early does not look cheap. The peers ran in the same run as this package.

## Per finished task

${table(SUMMARY_HEAD, summaryRows(suites))}

${suites.map(suiteSection).join('\n')}
`;
  writeFileSync(join(RESULTS, 'tokens.md'), markdown);
  writeFileSync(join(RESULTS, 'tokens.json'), `${JSON.stringify(suites, (_key, value) => (typeof value === 'number' ? Math.round(value * 100) / 100 : value), 1)}\n`);
  console.log(`Wrote ${join(RESULTS, 'tokens.md')} and tokens.json`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeTokenReport();
