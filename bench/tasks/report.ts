/** Turns episode results into the console summary and bench/results/tasks.md. */
import { median, sum } from '../stats.js';
import { CATEGORIES, CAUSE_LABELS, type Cause, type EpisodeResult, type TaskDef } from './types.js';

export interface TaskBenchMeta {
  date: string;
  source: string;
  machine: string;
  versions: Record<string, string>;
  systems: Array<{ id: string; description: string }>;
  seeds: number[];
  budget: number;
  durationSeconds: number;
  /** One-minute load average when the run began and ended: other jobs on the machine stretch the duration. */
  loadAverage: { start: number; end: number };
}

export interface TaskBenchResults {
  meta: TaskBenchMeta;
  tasks: Array<{ id: string; category: string; policy: string; summary: string }>;
  episodes: EpisodeResult[];
}

const pct = (part: number, whole: number) => (whole ? `${Math.round((100 * part) / whole)}%` : '–');
const fmt = (n: number | null) => (n === null ? '–' : Math.round(n).toLocaleString('en-US'));

function bySystem(results: TaskBenchResults): Map<string, EpisodeResult[]> {
  const map = new Map<string, EpisodeResult[]>(results.meta.systems.map((s) => [s.id, []]));
  for (const episode of results.episodes) map.get(episode.system)?.push(episode);
  return map;
}

function summaryRows(results: TaskBenchResults): string[][] {
  return [...bySystem(results)].map(([system, episodes]) => {
    const done = episodes.filter((e) => e.success);
    return [
      system,
      `${done.length}/${episodes.length}`,
      pct(done.length, episodes.length),
      (sum(episodes.map((e) => e.toolCalls)) / Math.max(1, episodes.length)).toFixed(1),
      fmt(median(episodes.map((e) => e.tokens))),
      fmt(sum(episodes.map((e) => e.tokens)) / Math.max(1, episodes.length)),
      fmt(done.length ? sum(done.map((e) => e.tokens)) / done.length : null),
    ];
  });
}

const SUMMARY_HEAD = ['system', 'completed', '%', 'tool calls / episode', 'tokens / episode (median)', 'tokens / episode (mean)', 'tokens / completed episode'];

function categoryRows(results: TaskBenchResults): string[][] {
  const systems = results.meta.systems.map((s) => s.id);
  return CATEGORIES.filter((category) => results.episodes.some((e) => e.category === category)).map((category) => {
    const tasks = new Set(results.episodes.filter((e) => e.category === category).map((e) => e.task)).size;
    return [
      category,
      String(tasks),
      ...systems.map((system) => {
        const episodes = results.episodes.filter((e) => e.category === category && e.system === system);
        return `${pct(episodes.filter((e) => e.success).length, episodes.length)} (${episodes.filter((e) => e.success).length}/${episodes.length})`;
      }),
    ];
  });
}

function taskRows(results: TaskBenchResults): string[][] {
  const systems = results.meta.systems.map((s) => s.id);
  return results.tasks.map((task) => [
    task.id,
    task.category,
    ...systems.map((system) => {
      const episodes = results.episodes.filter((e) => e.task === task.id && e.system === system);
      return episodes.length ? `${episodes.filter((e) => e.success).length}/${episodes.length}` : '–';
    }),
  ]);
}

function causeRows(results: TaskBenchResults): string[][] {
  const systems = results.meta.systems.map((s) => s.id);
  return (Object.keys(CAUSE_LABELS) as Cause[])
    .filter((cause) => results.episodes.some((e) => e.cause === cause))
    .map((cause) => [CAUSE_LABELS[cause], ...systems.map((system) => String(results.episodes.filter((e) => e.system === system && e.cause === cause).length))]);
}

/** Failures of one system, one line per task and cause, with the seeds and the first detail. */
function failureLines(results: TaskBenchResults, system: string): string[] {
  const groups = new Map<string, EpisodeResult[]>();
  for (const episode of results.episodes) {
    if (episode.system !== system || episode.success) continue;
    const key = `${episode.task}|${episode.cause}`;
    groups.set(key, [...(groups.get(key) ?? []), episode]);
  }
  return [...groups.values()].map((episodes) => {
    const first = episodes[0]!;
    const details = [...new Set(episodes.map((e) => e.detail ?? ''))].slice(0, 2).join(' / ');
    return `- \`${first.task}\` (${first.category}), seeds ${episodes.map((e) => e.seed).join(', ')}: **${CAUSE_LABELS[first.cause!]}**: ${details.replace(/\|/g, '\\|')}`;
  });
}

/** How often each tool was called, per system: shows the recovery moves (reads, whole-page snapshots, scrolls). */
function toolRows(results: TaskBenchResults): string[][] {
  const systems = results.meta.systems.map((s) => s.id);
  const counts = new Map<string, Map<string, number>>();
  for (const episode of results.episodes) {
    for (const call of episode.trace) {
      const [tool = '', args = ''] = call.split(/ (.*)/);
      // Snapshots by kind: whole page, subtree, search, or the default.
      const kind = tool.endsWith('_snapshot') ? /"scope":"page"|"interactiveOnly":false|"ref"|"find"/.exec(args)?.[0]?.replace(/"/g, '') : undefined;
      const key = kind ? `${tool} {${kind}}` : tool;
      const row = counts.get(key) ?? new Map<string, number>();
      row.set(episode.system, (row.get(episode.system) ?? 0) + 1);
      counts.set(key, row);
    }
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([key, row]) => [`\`${key}\``, ...systems.map((system) => String(row.get(system) ?? 0))]);
}

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function consoleTable(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

export function renderConsole(results: TaskBenchResults): string {
  const systems = results.meta.systems.map((s) => s.id);
  return [
    consoleTable(SUMMARY_HEAD, summaryRows(results)),
    '',
    consoleTable(['category', 'tasks', ...systems], categoryRows(results)),
    '',
    consoleTable(['failure cause', ...systems], causeRows(results)),
  ].join('\n');
}

export function renderMarkdown(results: TaskBenchResults, allTasks: TaskDef[]): string {
  const { meta } = results;
  const systems = meta.systems.map((s) => s.id);
  const ours = systems.find((s) => s === 'ours');
  return `# Task-success benchmark

Generated by \`npm run bench:tasks\` on ${meta.date} from ${meta.source}, in ${meta.durationSeconds} s on ${meta.machine}
(load average ${meta.loadAverage.start} at the start, ${meta.loadAverage.end} at the end: other jobs were sharing the machine when it is above 2).
${results.tasks.length} tasks × seeds ${meta.seeds.join(', ')} × ${systems.length} systems, interleaved; at most ${meta.budget} tool calls per episode.

Each task is a page made for this benchmark (\`bench/tasks/pages/\`), generated from a seed, with its instruction shown
on the page (pages in \`pages/widgets/\` load real widget libraries from node_modules and judge from the widget's own state); the page judges the outcome itself and posts it to the local server. A scripted policy per task type
(\`bench/tasks/policy/\`) plays a careful text-only model: it reads only what the tools return, acts only by ref, and
uses the recovery moves each system offers (another snapshot, a whole-page or subtree snapshot, a search, a read of
the text, scrolling). Only the adapters (\`bench/tasks/adapters/\`) differ between systems. Tokens are o200k tokens of
every tool result the model reads (the JSON Mastra sends, or toModelOutput's text; for Playwright MCP the text content).

${meta.systems.map((s) => `- \`${s.id}\`: ${s.description}`).join('\n')}
- Versions: ${Object.entries(meta.versions).map(([name, version]) => `${name} ${version}`).join(', ')}

## Completion

${table(SUMMARY_HEAD, summaryRows(results))}

## By category

${table(['category', 'tasks', ...systems], categoryRows(results))}

## Failure causes (episodes)

${table(['cause', ...systems], causeRows(results))}

${ours ? `## Failures of this package, by task\n\nThese drive the snapshot work.\n\n${failureLines(results, ours).join('\n') || 'None.'}\n` : ''}
${systems
  .filter((s) => s !== ours)
  .map((system) => `## Failures of ${system}\n\n${failureLines(results, system).join('\n') || 'None.'}\n`)
  .join('\n')}
## Tool calls, all episodes

${table(['tool', ...systems], toolRows(results))}

## By task

${table(['task', 'category', ...systems], taskRows(results))}

## Tasks

${allTasks
  .filter((task) => results.tasks.some((t) => t.id === task.id))
  .map((task) => `- \`${task.id}\` (${task.category}, policy \`${task.policy}\`): ${task.summary}`)
  .join('\n')}
`;
}
