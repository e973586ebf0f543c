/**
 * Snapshot bytes: every text the snapshot writes (each scope, each diff) for the corpus pages and the task pages,
 * to compare two versions of the code that writes them when a change is meant to keep the output the same.
 *
 *   CORPUS_DIR=../shared/corpus/pages npx tsx bench/snapshotBytes.ts capture DIR   opens every page, keeps its captures in DIR
 *   npx tsx bench/snapshotBytes.ts write DIR OUT                                  writes every snapshot and diff of them to OUT
 *
 * `capture` takes each page's captures once, in every scope the tools use (viewport, page, find, a ref's
 * subtree; after a scroll and after a click, for the diffs), and keeps what it wrote then in DIR/live.txt.
 * `write` formats the kept captures with either version of the code: run it with each over the same DIR and
 * compare the two OUT files byte for byte (`cmp`). A page that changes from visit to visit (ads, clocks,
 * animations) cannot make them differ, since both read the same captures. `--pages a.html,b.html` and
 * `--tasks id,id` narrow a run.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BrowserToolset, diffCaptures, formatSnapshot, type Capture, type FormatOptions } from '../src/index.js';
import { indexRefs } from '../src/snapshot/lines.js';
import { CORPUS_DIR, OFFLINE_ARGS, startServer } from '../test/helpers/server.js';
import { TASKS } from './tasks/pages/index.js';
import { startTaskServer } from './tasks/server.js';

/** What one page's visit kept: its captures by name, and the questions its find and ref snapshots asked. */
interface Visit {
  page: string;
  captures: Record<string, Capture>;
  finds: string[];
  refs: string[];
}

// Maps, sets and the numbers JSON has no word for (a span reaching Infinity) survive the file.
function encode(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { $map: [...value.entries()] };
  if (value instanceof Set) return { $set: [...value] };
  if (typeof value === 'number' && !Number.isFinite(value)) return { $number: String(value) };
  return value;
}

function decode(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const tagged = value as { $map?: [unknown, unknown][]; $set?: unknown[]; $number?: string };
    if (tagged.$map) return new Map(tagged.$map);
    if (tagged.$set) return new Set(tagged.$set);
    if (tagged.$number) return Number(tagged.$number);
  }
  return value;
}

/** A word of the first named link or button on screen: what a find for something seen would ask. */
function findQuery(text: string): string | undefined {
  for (const match of text.matchAll(/ (?:link|button) "([^"]+)"/g)) {
    const word = match[1]!.split(/\s+/).find((w) => /^[\p{L}]{4,}$/u.test(w));
    if (word) return word.toLowerCase();
  }
  return undefined;
}

/** Refs of the first sections and containers a page snapshot lists (lines ending with ':'), and of one control. */
function subtreeRefs(text: string): string[] {
  const sections = [...text.matchAll(/^\s*((?:f\d+)?e\d+) [^\n]*:$/gm)].map((m) => m[1]!).slice(0, 2);
  const control = /^\s*((?:f\d+)?e\d+) (?:button|link|textbox|combobox) /m.exec(text)?.[1];
  return [...sections, ...(control ? [control] : [])];
}

async function visit(toolset: BrowserToolset, name: string, url: string, live: string[]): Promise<Visit> {
  const captures: Record<string, Capture> = {};
  const tools = toolset.tools as Record<string, { execute?: (input: unknown, context: unknown) => Promise<unknown> }>;
  const run = async (tool: string, input: unknown) => (await tools[tool]!.execute!(input, {})) as Record<string, unknown>;
  const opened = await run('browser_navigate', { url, waitUntil: 'domcontentloaded' });
  live.push(`### ${name} navigate\n${String(opened.snapshot ?? JSON.stringify(opened.error))}`);
  const { session } = await toolset.sessions.get('default');
  try {
    const { tab } = await session.activeTab();
    const { page } = tab;
    const take = async (label: string, options: Partial<FormatOptions>) => {
      const { capture, formatted } = await tab.refs.snapshot(options);
      captures[label] = capture;
      live.push(`### ${name} ${label}\n${formatted.text}`);
      return formatted.text;
    };
    const screen = await take('viewport', {});
    const whole = await take('page', { scope: 'page', maxTokens: 4000 });
    const query = findQuery(screen);
    if (query) await take('find', { find: query, maxTokens: 2000 });
    const refs = subtreeRefs(whole);
    for (const [i, ref] of refs.entries()) await take(`ref${i}`, { ref, maxTokens: 2000 });
    await page.evaluate(() => window.scrollBy(0, window.innerHeight)).catch(() => {});
    await take('scrolled', {});
    await page.evaluate(() => window.scrollTo(0, 0)).catch(() => {});
    return { page: name, captures, finds: query ? [query] : [], refs };
  } finally {
    toolset.sessions.done('default');
  }
}

async function clickFirst(toolset: BrowserToolset, name: string, text: string, live: string[]): Promise<Capture | undefined> {
  const target = /^\s*((?:f\d+)?e\d+) (?:button|clickable|combobox|tab|menuitem|checkbox)\b/m.exec(text)?.[1];
  if (!target) return undefined;
  const tools = toolset.tools as Record<string, { execute?: (input: unknown, context: unknown) => Promise<unknown> }>;
  const clicked = (await tools.browser_click!.execute!({ ref: target }, {})) as Record<string, unknown>;
  live.push(`### ${name} click ${target}\n${JSON.stringify(clicked)}`);
  // A dialog the click opened holds the page until it is answered: there is no page to capture.
  if (Array.isArray(clicked.dialogs) && clicked.dialogs.length) return undefined;
  const { session } = await toolset.sessions.get('default');
  try {
    const { tab } = await session.activeTab();
    const { capture, formatted } = await tab.refs.snapshot({});
    live.push(`### ${name} clicked\n${formatted.text}`);
    return capture;
  } finally {
    toolset.sessions.done('default');
  }
}

async function captureAll(dir: string, pages: string[] | undefined, taskIds: string[] | undefined): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const server = await startServer();
  const tasks = TASKS.filter((task) => !taskIds || taskIds.includes(task.id));
  const taskServer = await startTaskServer(tasks);
  const toolset = new BrowserToolset({ args: OFFLINE_ARGS, navigationTimeout: 15_000, timeout: 10_000 });
  const live = join(dir, 'live.txt');
  writeFileSync(live, '');
  // Both lists unless one is narrowed alone.
  const corpusFiles = pages ?? (taskIds ? [] : readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.html')).sort());
  const corpus = corpusFiles.map((file) => ({ name: `corpus/${file}`, url: server.url(`/corpus/${file}`) }));
  const taskPages = pages && !taskIds ? [] : tasks.map((task) => ({ name: `task/${task.id}`, url: taskServer.taskUrl(task.id, 1, `bytes-${task.id}`) }));
  try {
    for (const { name, url } of [...corpus, ...taskPages]) {
      const texts: string[] = [];
      const started = Date.now();
      try {
        const kept = await visit(toolset, name, url, texts);
        const screen = texts.find((t) => t.startsWith(`### ${name} viewport\n`)) ?? '';
        const clicked = await clickFirst(toolset, name, screen, texts).catch((error) => (texts.push(`### ${name} click failed: ${String(error)}`), undefined));
        if (clicked) kept.captures.clicked = clicked;
        writeFileSync(join(dir, `${name.replace(/\//g, '__')}.json`), JSON.stringify(kept, encode));
        console.log(`${name}: ${Object.keys(kept.captures).length} captures, ${Date.now() - started} ms`);
      } catch (error) {
        console.log(`${name}: failed: ${String(error)}`);
        texts.push(`### ${name} failed: ${String(error)}`);
      }
      appendFileSync(live, `${texts.join('\n')}\n`);
    }
  } finally {
    await toolset.close();
    await taskServer.close();
    await server.close();
  }
}

/** The format options every capture is written with, beside its own scope's. */
const SCOPES: Array<[string, Partial<FormatOptions>]> = [
  ['viewport', { scope: 'viewport', maxTokens: 2000 }],
  ['viewport 300', { scope: 'viewport', maxTokens: 300 }],
  ['page', { scope: 'page', maxTokens: 4000 }],
  ['page 300', { scope: 'page', maxTokens: 300 }],
  ['page whole', { scope: 'page', maxTokens: 100_000 }],
];

function writeAll(dir: string, out: string): void {
  writeFileSync(out, '');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  for (const file of files) {
    const kept = JSON.parse(readFileSync(join(dir, file), 'utf8'), decode) as Visit;
    const parts: string[] = [];
    for (const [label, capture] of Object.entries(kept.captures)) {
      const refs = [...indexRefs(capture.tree).keys()];
      // Every fifth ref marked as new, as after an action.
      const newRefs = new Set(refs.filter((_, i) => i % 5 === 0));
      const options: Array<[string, Partial<FormatOptions>]> = [
        ...SCOPES,
        ['viewport new', { scope: 'viewport', maxTokens: 2000, newRefs }],
        ...kept.finds.map((find): [string, Partial<FormatOptions>] => [`find ${find}`, { scope: 'viewport', maxTokens: 2000, find }]),
        ...kept.refs.flatMap((ref): Array<[string, Partial<FormatOptions>]> => [
          [`ref ${ref}`, { scope: 'viewport', maxTokens: 2000, ref }],
          [`ref ${ref} 300`, { scope: 'viewport', maxTokens: 300, ref }],
        ]),
      ];
      for (const [name, option] of options) {
        const formatted = formatSnapshot(capture, { scope: 'viewport', maxTokens: 2000, ...option });
        parts.push(`### ${kept.page} | ${label} | ${name} | ${formatted.tokens} tokens, ${formatted.refsShown} refs, ${formatted.linesCut} cut\n${formatted.text}`);
      }
      parts.push(`### ${kept.page} | ${label} | refs\n${JSON.stringify([...indexRefs(capture.tree)])}`);
    }
    // Diffs between captures of the page (an action's before and after), both ways, at two budgets.
    const labels = Object.keys(kept.captures);
    for (const before of labels) {
      for (const after of ['viewport', 'scrolled', 'clicked', 'page']) {
        if (before === after || !kept.captures[after]) continue;
        for (const budget of [400, 4000]) {
          const diff = diffCaptures(kept.captures[before]!, kept.captures[after]!, budget);
          parts.push(`### ${kept.page} | diff ${before} -> ${after} ${budget} | +${diff.added} ~${diff.changed} -${diff.removed}${diff.truncated ? ' cut' : ''}\n${diff.text}`);
        }
      }
    }
    appendFileSync(out, `${parts.join('\n')}\n`);
  }
  console.log(`${files.length} pages written to ${out}`);
}

const { positionals, values } = parseArgs({ allowPositionals: true, options: { pages: { type: 'string' }, tasks: { type: 'string' } } });
const [mode, dir, out] = positionals;
const list = (value: string | undefined) => value?.split(',').map((s) => s.trim()).filter(Boolean);
if (mode === 'capture' && dir) await captureAll(dir, list(values.pages), list(values.tasks));
else if (mode === 'write' && dir && out) writeAll(dir, out);
else {
  console.error('usage: bench/snapshotBytes.ts capture DIR | write DIR OUT');
  process.exit(2);
}
// Nothing is left to wait for (a timer some library keeps would hold the process open).
process.exit(0);
