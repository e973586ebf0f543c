/**
 * `npm run bench:scale`: what a model waits for on pages of growing size. Generated pages of N interactive
 * elements (links, buttons, text inputs, checkboxes in nested lists, N = 1k, 5k, 20k, 50k), and one step of an
 * agent: navigate, then the default snapshot. Our browser_navigate returns the snapshot itself; for
 * @mastra/agent-browser (browser_goto + browser_snapshot) and @playwright/mcp (browser_navigate, whose answer
 * only links to a snapshot file, + browser_snapshot) the step is the two calls. All three run in the same run,
 * interleaved, on the same Chromium with the same flags (systems.ts), so they share the machine's noise.
 *
 * Also recorded for ours: where the time goes, stage by stage (src/stages.ts), and the growth exponent
 * (time ∝ N^k, k from 1k to 50k). Writes bench/results/scale.md, which .planning/BENCHMARKS.md quotes.
 *
 * `-- --sizes=1000,5000` and `-- --systems=ours-default` for quick loops.
 */
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { recordStages, stopRecordingStages } from '../src/stages.js';
import { median } from './stats.js';
import { BrowserToolset } from '../src/index.js';
import { CHROMIUM, createSystems, NAVIGATION_TIMEOUT, OURS_DEFAULT, VIEWPORT, type SnapshotSystem } from './systems.js';
import { OFFLINE_ARGS } from '../test/helpers/server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SIZES = (arg('sizes') ?? '1000,5000,20000,50000').split(',').map(Number);
const SYSTEMS = (arg('systems') ?? `${OURS_DEFAULT},mastra-agent-browser,playwright-mcp`).split(',');
/** Runs per size; the largest pages take a minute per system, so they run fewer times. */
const repeats = (n: number) => (n <= 5_000 ? 3 : n <= 20_000 ? 2 : 1);
/** A step that takes longer than this is recorded as a timeout (the peers' own timeouts are 20 s per call). */
const STEP_LIMIT_MS = 120_000;

/** A page of `n` interactive elements in nested lists: groups of 25 items, each a link, button, text input or checkbox. */
export function generatedPage(n: number): string {
  const out: string[] = [`<!doctype html><title>Generated ${n}</title><h1>${n} elements</h1><ul>`];
  for (let made = 0, group = 0; made < n; group++) {
    out.push(`<li>Group ${group}<ul>`);
    for (let i = 0; i < 25 && made < n; i++, made++) {
      const k = made;
      if (k % 4 === 0) out.push(`<li><a href="/item/${k}">Item ${k}</a></li>`);
      else if (k % 4 === 1) out.push(`<li><button>Buy ${k}</button></li>`);
      else if (k % 4 === 2) out.push(`<li><input aria-label="Quantity ${k}" value="${k % 7}"></li>`);
      else out.push(`<li><label><input type="checkbox"> Gift ${k}</label></li>`);
    }
    out.push('</ul></li>');
  }
  out.push('</ul>');
  return out.join('');
}

interface Step {
  ms: number;
  tokens: number;
  error?: string;
  stages?: Map<string, number>;
}

async function step(system: SnapshotSystem, url: string): Promise<Step> {
  const stages = system.id === OURS_DEFAULT ? recordStages() : undefined;
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error(`no answer in ${STEP_LIMIT_MS / 1000} s`)), STEP_LIMIT_MS)));
  try {
    const work = (async () => (await system.navigate!(url)) ?? (await system.snapshot()))();
    const output = await Promise.race([work, limit]);
    return { ms: performance.now() - start, tokens: countTokens(output.text), stages };
  } catch (error) {
    return { ms: performance.now() - start, tokens: 0, error: (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 160) };
  } finally {
    clearTimeout(timer);
    stopRecordingStages();
  }
}

const server = createServer((req, res) => {
  const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? 100);
  res.writeHead(200, { 'content-type': 'text/html' }).end(generatedPage(n));
});
await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
const port = (server.address() as { port: number }).port;

const loadStart = loadavg()[0]!;
const systems = createSystems(STEP_LIMIT_MS).filter((s) => SYSTEMS.includes(s.id));
for (const system of systems) await system.start();
// One small page first: browsers and module caches warm up outside the measured steps.
for (const system of systems) await step(system, `http://127.0.0.1:${port}/?n=10&warm`);

const results = new Map<string, Map<number, Step[]>>(systems.map((s) => [s.id, new Map()]));
for (const n of SIZES) {
  for (let r = 0; r < repeats(n); r++) {
    for (const system of systems) {
      // A fresh URL each time: no system gets a cached document.
      const result = await step(system, `http://127.0.0.1:${port}/?n=${n}&run=${r}`);
      const list = results.get(system.id)!.get(n) ?? [];
      list.push(result);
      results.get(system.id)!.set(n, list);
      console.log(`${system.id} ${n}: ${result.error ? `failed after ${Math.round(result.ms)} ms (${result.error})` : `${Math.round(result.ms)} ms, ${result.tokens} tokens`}`);
    }
  }
}
for (const system of systems) await system.close();

/**
 * Ours beyond the first step: on the same pages, navigate, then `browser_snapshot {scope: 'page'}` and a `find`
 * of the last link, each with the default budget, each timed as one call with its stages. A page-scope snapshot
 * is cut to its budget whatever the page's size, so its time should not grow with the page either.
 */
interface PageScopeRun {
  navigate: Step;
  page: Step;
  find: Step & { found?: boolean };
}
const pageScope = new Map<number, PageScopeRun>();
if (SYSTEMS.includes(OURS_DEFAULT)) {
  // A minute per call, not the 20 s of the step above: a slow call is measured rather than cut off.
  const toolset = new BrowserToolset({ executablePath: CHROMIUM, args: OFFLINE_ARGS, viewport: VIEWPORT, navigationTimeout: 60_000 });
  const timed = async (tool: 'browser_navigate' | 'browser_snapshot', input: object): Promise<Step & { text: string }> => {
    const stages = recordStages();
    const start = performance.now();
    try {
      const result = (await toolset.tools[tool].execute!(input as never, {} as never)) as Record<string, unknown>;
      const ms = performance.now() - start;
      if (result.ok !== true) return { ms, tokens: 0, error: JSON.stringify(result.error).slice(0, 160), text: '', stages };
      const text = String(result.snapshot);
      return { ms, tokens: countTokens(text), stages, text };
    } finally {
      stopRecordingStages();
    }
  };
  await timed('browser_navigate', { url: `http://127.0.0.1:${port}/?n=10&warm-page` });
  for (const n of SIZES) {
    const navigate = await timed('browser_navigate', { url: `http://127.0.0.1:${port}/?n=${n}&page-scope` });
    const page = await timed('browser_snapshot', { scope: 'page' });
    // The last link of the generated page (every fourth element is one), far below anything the budget shows.
    const last = `Item ${Math.floor((n - 1) / 4) * 4}`;
    const find = await timed('browser_snapshot', { find: last });
    pageScope.set(n, { navigate, page, find: { ...find, found: new RegExp(`link "${last}"`).test(find.text) } });
    console.log(`ours page scope ${n}: navigate ${Math.round(navigate.ms)} ms, page ${Math.round(page.ms)} ms ${page.tokens} tokens${page.error ? ` (${page.error})` : ''}, find ${Math.round(find.ms)} ms ${find.tokens} tokens${find.error ? ` (${find.error})` : ''}`);
  }
  await toolset.close();
}
server.close();
const loadEnd = loadavg()[0]!;

/** Median time of the successful runs, or undefined when any run failed (a timeout is not averaged away). */
function time(id: string, n: number): number | undefined {
  const steps = results.get(id)?.get(n) ?? [];
  return steps.length && steps.every((s) => !s.error) ? (median(steps.map((s) => s.ms)) ?? undefined) : undefined;
}
const fmtMs = (ms: number | undefined) => (ms === undefined ? 'failed' : `${(ms / 1000).toFixed(2)} s`);
const exponent = (id: string) => {
  const [a, b] = [SIZES[0]!, SIZES.at(-1)!];
  const [ta, tb] = [time(id, a), time(id, b)];
  return ta && tb && b > a ? (Math.log(tb / ta) / Math.log(b / a)).toFixed(2) : '-';
};
const names: Record<string, string> = { [OURS_DEFAULT]: 'ours', 'mastra-agent-browser': '@mastra/agent-browser 0.5.0', 'playwright-mcp': '@playwright/mcp 0.0.83' };
const ids = systems.map((s) => s.id);

const lines: string[] = [
  `Generated pages of N interactive elements (links, buttons, text inputs, checkboxes in nested lists of 25), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores, load average ${loadStart.toFixed(1)} at start, ${loadEnd.toFixed(1)} at end. One agent step: navigate + default snapshot (ours: browser_navigate alone, it returns the snapshot; @mastra/agent-browser: browser_goto + browser_snapshot; @playwright/mcp: browser_navigate + browser_snapshot). Median of ${SIZES.map((n) => repeats(n)).join('/')} runs; "failed" = a call failed or gave no answer in ${STEP_LIMIT_MS / 1000} s.`,
  '',
  `| N | ${ids.map((id) => `${names[id] ?? id}`).join(' | ')} | ${ids.filter((id) => id !== OURS_DEFAULT).map((id) => `ours / ${names[id] ?? id}`).join(' | ')} | tokens (${ids.map((id) => names[id]?.split(' ')[0] ?? id).join(' / ')}) |`,
  `|---:|${ids.map(() => '---:').join('|')}|${ids.filter((id) => id !== OURS_DEFAULT).map(() => '---:').join('|')}|---:|`,
];
for (const n of SIZES) {
  const ours = time(OURS_DEFAULT, n);
  const ratios = ids.filter((id) => id !== OURS_DEFAULT).map((id) => {
    const peer = time(id, n);
    return ours !== undefined && peer !== undefined ? (ours / peer).toFixed(2) : ours !== undefined ? 'peer failed' : '-';
  });
  const tokens = ids.map((id) => (results.get(id)!.get(n) ?? []).find((s) => !s.error)?.tokens ?? 0).map((t) => t.toLocaleString('en-US'));
  lines.push(`| ${n.toLocaleString('en-US')} | ${ids.map((id) => fmtMs(time(id, n))).join(' | ')} | ${ratios.join(' | ')} | ${tokens.join(' / ')} |`);
}
lines.push('', `Growth exponent k (time ∝ N^k, ${SIZES[0]!.toLocaleString('en-US')} → ${SIZES.at(-1)!.toLocaleString('en-US')}): ${ids.map((id) => `${names[id] ?? id} ${exponent(id)}`).join(', ')}.`);
const failures = ids.flatMap((id) => SIZES.flatMap((n) => (results.get(id)!.get(n) ?? []).filter((s) => s.error).map((s) => `${names[id] ?? id} at ${n.toLocaleString('en-US')}: ${s.error}`)));
if (failures.length) lines.push('', 'Failures:', '', ...failures.map((f) => `- ${f}`));

// Where our time goes: the stages of the first run at each size (src/stages.ts).
const oursRuns = results.get(OURS_DEFAULT);
if (oursRuns) {
  const stageNames = [...new Set(SIZES.flatMap((n) => [...(oursRuns.get(n)?.[0]?.stages?.keys() ?? [])]))];
  lines.push(
    '',
    'Our step by stage (ms, first run at each size). "format" includes "token budget"; "other" is the rest of the call (tool wrapper, page events, waiting for the page between steps).',
    '',
    `| stage | ${SIZES.map((n) => n.toLocaleString('en-US')).join(' | ')} |`,
    `|---|${SIZES.map(() => '---:').join('|')}|`,
  );
  for (const name of stageNames) lines.push(`| ${name.replace(/^snapshot: /, '')} | ${SIZES.map((n) => Math.round(oursRuns.get(n)?.[0]?.stages?.get(name) ?? 0)).join(' | ')} |`);
  const other = (n: number) => {
    const run = oursRuns.get(n)?.[0];
    if (!run?.stages) return 0;
    const counted = [...run.stages].filter(([name]) => name !== 'snapshot: token budget').reduce((sum, [, ms]) => sum + ms, 0);
    return Math.max(0, Math.round(run.ms - counted));
  };
  lines.push(`| other | ${SIZES.map(other).join(' | ')} |`, `| **total** | ${SIZES.map((n) => Math.round(oursRuns.get(n)?.[0]?.ms ?? 0)).join(' | ')} |`);
}

if (pageScope.size) {
  const cell = (s: Step) => (s.error ? `failed (${s.error.slice(0, 40)})` : `${(s.ms / 1000).toFixed(2)} s, ${s.tokens.toLocaleString('en-US')} tokens`);
  lines.push(
    '',
    "Ours on the same pages, one run each, default budgets: `browser_navigate` (viewport snapshot), then `browser_snapshot {scope: 'page'}` (4,000 tokens), then `browser_snapshot {find}` of the page's last link.",
    '',
    `| N | navigate | scope page | find last link | last link found |`,
    '|---:|---:|---:|---:|:---:|',
  );
  for (const [n, run] of pageScope) lines.push(`| ${n.toLocaleString('en-US')} | ${cell(run.navigate)} | ${cell(run.page)} | ${cell(run.find)} | ${run.find.found ? 'yes' : 'no'} |`);
  const stageNames = [...new Set([...pageScope.values()].flatMap((run) => [...(run.page.stages?.keys() ?? [])]))];
  lines.push('', 'The page-scope snapshot by stage (ms).', '', `| stage | ${SIZES.map((n) => n.toLocaleString('en-US')).join(' | ')} |`, `|---|${SIZES.map(() => '---:').join('|')}|`);
  for (const name of stageNames) lines.push(`| ${name.replace(/^snapshot: /, '')} | ${SIZES.map((n) => Math.round(pageScope.get(n)?.page.stages?.get(name) ?? 0)).join(' | ')} |`);
}

const report = lines.join('\n');
console.log(report);
writeFileSync(join(ROOT, 'bench/results/scale.md'), `# Scale\n\n${report}\n`);
