/**
 * Writes the benchmark figures of README.md and docs/*.md from bench/results, so that no figure is typed by hand.
 *
 *   npx tsx bench/readme-figures.ts           rewrites every figure block
 *   npx tsx bench/readme-figures.ts --check   exits 1 when a block differs from bench/results
 *
 * A figure block sits between `<!-- figures:start NAME -->` and `<!-- figures:end -->`. NAME is either a block
 * composed here (`compare`, the README's comparison) or `FILE#N`: the N-th table of bench/results/FILE, as it is.
 * test/readme.test.ts fails when a block differs from what this script writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS = join(ROOT, 'bench', 'results');
/** The documents that carry figure blocks. */
export const FIGURE_DOCUMENTS = ['README.md', 'docs/benchmarks.md', 'docs/deploy.md', 'docs/studio.md'];

const BLOCK = /(<!-- figures:start (\S+) -->\n)([\s\S]*?)(<!-- figures:end -->)/g;

/** A markdown table: its header cells and its rows, each cell trimmed. */
export interface Table {
  header: string[];
  rows: string[][];
  /** The table's lines as they stand in the file. */
  text: string;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/** Every table of a markdown text, in order. */
export function tablesOf(markdown: string): Table[] {
  const tables: Table[] = [];
  let block: string[] = [];
  const flush = () => {
    // A table is a header line, a line of dashes, then rows.
    if (block.length >= 2 && /^\|?\s*:?-{3,}/.test(block[1]!)) {
      tables.push({ header: cells(block[0]!), rows: block.slice(2).map(cells), text: block.join('\n') });
    }
    block = [];
  };
  for (const line of markdown.split('\n')) {
    if (line.trim().startsWith('|')) block.push(line);
    else flush();
  }
  flush();
  return tables;
}

function resultFile(name: string): string {
  return readFileSync(join(RESULTS, name), 'utf8');
}

/** The first table of a results file whose header has `column`. */
function tableWith(file: string, column: string): Table {
  const table = tablesOf(resultFile(file)).find((t) => t.header.includes(column));
  if (!table) throw new Error(`bench/results/${file} has no table with a "${column}" column`);
  return table;
}

/** The cell of `column` in the row whose first cell starts with `row`. */
function cell(table: Table, row: string, column: string): string {
  const found = table.rows.find((r) => r[0] === row) ?? table.rows.find((r) => r[0]!.startsWith(row));
  const index = table.header.indexOf(column);
  if (!found || index < 0 || found[index] === undefined) throw new Error(`no "${row}" / "${column}" in a results table`);
  return found[index]!;
}

/** The system names of tools.md carry the peers' versions, e.g. "@mastra/agent-browser 0.5.0". */
function peerName(prefix: string): string {
  const row = tableWith('tools.md', 'tools').rows.find((r) => r[0]!.startsWith(prefix));
  return row ? row[0]!.replace(/ \(default\)$/, '') : prefix;
}

const link = (file: string) => `[${file}](${file.startsWith('docs/') ? '' : 'bench/results/'}${file})`;

/**
 * The README's comparison: one row per benchmark, ours against the two peers, each row linked to its file.
 * The columns are ours, @mastra/agent-browser, @playwright/mcp.
 */
function compareBlock(): string {
  const snapshot = tableWith('snapshot.md', 'tokens median');
  const ratios = tableWith('snapshot.md', 'latency (median ratio)');
  const tools = tableWith('tools.md', 'tools');
  const tasks = tableWith('tasks.md', 'completed');
  const widgets = tableWith('tasks-widgets.md', 'completed');
  const perTask = tableWith('tokens.md', 'tokens per finished task');
  const network = tableWith('network.md', 'median ms');
  const memory = tableWith('sessions-memory.md', 'processes');
  const latencyRatio = (peer: string) => {
    const row = ratios.rows.find((r) => r[0] === 'ours-default' && r[1] === peer);
    if (!row) throw new Error(`snapshot.md has no ratio of ours-default to ${peer}`);
    return row[ratios.header.indexOf('latency (median ratio)')]!;
  };
  const toolsCell = (row: string) => `${cell(tools, row, 'tool-list tokens (o200k)')} (${cell(tools, row, 'tools')} tools)`;
  const tenThreads = (provider: string) => {
    const row = memory.rows.find((r) => r[0]!.startsWith(provider) && r[1] === '10');
    if (!row) throw new Error(`sessions-memory.md has no 10-thread row for ${provider}`);
    return `${row[memory.header.indexOf('processes')]} processes, ${row[memory.header.indexOf('PSS (MB)')]} MB`;
  };
  const net = (system: string) => `${cell(network, system, 'median ms')} / ${cell(network, system, 'p95 ms')} ms, ${cell(network, system, 'errors')} errors`;
  const systems = ['ours', 'mastra-agent-browser', 'playwright-mcp'];
  const rows: string[][] = [
    ['tokens per snapshot, median (ours: first screen, whole page in brackets; peers: whole page)', `${cell(snapshot, 'ours-default', 'tokens median')} (${cell(snapshot, 'ours-page', 'tokens median')})`, cell(snapshot, 'mastra-agent-browser', 'tokens median'), cell(snapshot, 'playwright-mcp', 'tokens median'), link('snapshot.md')],
    ['whole-page recall of labelled controls, median (ours: `scope: "page"`)', cell(snapshot, 'ours-page', 'page recall median'), cell(snapshot, 'mastra-agent-browser', 'page recall median'), cell(snapshot, 'playwright-mcp', 'page recall median'), link('snapshot.md')],
    ['snapshot call, median ms (ours ÷ peer)', cell(snapshot, 'ours-default', 'latency median (ms)'), `${cell(snapshot, 'mastra-agent-browser', 'latency median (ms)')} (${latencyRatio('mastra-agent-browser')})`, `${cell(snapshot, 'playwright-mcp', 'latency median (ms)')} (${latencyRatio('playwright-mcp')})`, link('snapshot.md')],
    ['tool-list tokens', toolsCell('ours (default)'), toolsCell('@mastra/agent-browser'), toolsCell('@playwright/mcp'), link('tools.md')],
    ['tasks completed, made-up pages', ...systems.map((s) => cell(tasks, s, 'completed')), link('tasks.md')],
    ['tasks completed, real widget libraries', ...systems.map((s) => cell(widgets, s, 'completed')), link('tasks-widgets.md')],
    ['tokens per finished task: made-up pages / real widget libraries', ...systems.map((s) => `${cell(perTask, `made-up pages: ${s}`, 'tokens per finished task')} / ${cell(perTask, `real widget libraries: ${s}`, 'tokens per finished task')}`), link('tokens.md')],
    ['open a page and snapshot it on a slow, lossy network: median / p95, errors', ...systems.map(net), link('network.md')],
    ['10 threads of a Mastra browser provider: Chromium processes, PSS', tenThreads('mastra-browser-toolset'), tenThreads('@mastra/agent-browser'), 'not measured', link('sessions-memory.md')],
  ];
  const header = ['', 'this package', peerName('@mastra/agent-browser'), peerName('@playwright/mcp'), 'from'];
  return [header, header.map((_, i) => (i === 0 || i === 4 ? '---' : '---:')), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

/** The text a block of this name holds. */
export function figureBlock(name: string): string {
  if (name === 'compare') return compareBlock();
  const table = /^([\w-]+\.md)#(\d+)$/.exec(name);
  if (!table) throw new Error(`unknown figure block "${name}"`);
  const found = tablesOf(resultFile(table[1]!))[Number(table[2]) - 1];
  if (!found) throw new Error(`bench/results/${table[1]} has no table ${table[2]}`);
  return found.text;
}

/** The names of the figure blocks of a document, in order. */
export function blockNames(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((m) => m[2]!);
}

/** The document with every figure block rewritten from bench/results. */
export function withFigures(text: string): string {
  return text.replace(BLOCK, (_all, start: string, name: string, _old: string, end: string) => `${start}${figureBlock(name)}\n${end}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const document of FIGURE_DOCUMENTS) {
    const path = join(ROOT, document);
    const text = readFileSync(path, 'utf8');
    const next = withFigures(text);
    if (next === text) continue;
    stale++;
    if (check) console.log(`${document}: figures differ from bench/results`);
    else {
      writeFileSync(path, next);
      console.log(`${document}: figures rewritten`);
    }
  }
  if (check && stale) process.exit(1);
}
