/** Turns per-page results into the summary tables printed to the console and written to bench/results/snapshot.md. */
import { median, present, quantile, sum } from './stats.js';
import { OURS_DEFAULT, OURS_PAGE } from './systems.js';
import type { BenchResults, PageResult, SystemPageResult } from './types.js';

/** page -> system -> the first lines of its snapshot. */
export type Samples = Record<string, Record<string, string>>;

interface SystemSummary {
  id: string;
  ok: number;
  failed: number;
  tokensMedian: number | null;
  tokensP90: number | null;
  tokensTotal: number;
  sentTokensMedian: number | null;
  coldMedian: number | null;
  coldP90: number | null;
  warmMedian: number | null;
  viewportRecallMedian: number | null;
  viewportRecallP10: number | null;
  pageRecallMedian: number | null;
  pageRecallP10: number | null;
  /** Ours: first-screen elements found by ref identity, all pages pooled. */
  viewportByRefPooled: number | null;
  pageByRefPooled: number | null;
  snapshotTokensMedian: number | null;
}

/** All pages' elements added up: found ÷ total. */
function pooled(recalls: Array<{ found: number; total: number } | undefined>): number | null {
  const list = present(recalls);
  const total = sum(list.map((r) => r.total));
  return total ? sum(list.map((r) => r.found)) / total : null;
}

function okResults(results: BenchResults, id: string): SystemPageResult[] {
  return results.pages.map((p) => p.systems[id]).filter((r): r is SystemPageResult => r?.ok === true);
}

function summarize(results: BenchResults, id: string): SystemSummary {
  const ok = okResults(results, id);
  const tokens = present(ok.map((r) => r.tokens));
  const viewport = present(ok.map((r) => r.viewport?.recall));
  const page = present(ok.map((r) => r.page?.recall));
  return {
    id,
    ok: ok.length,
    failed: results.pages.filter((p) => p.systems[id] && !p.systems[id]!.ok).length,
    tokensMedian: median(tokens),
    tokensP90: quantile(tokens, 0.9),
    tokensTotal: sum(tokens),
    sentTokensMedian: median(present(ok.map((r) => r.sentTokens))),
    coldMedian: median(present(ok.map((r) => r.coldMs))),
    coldP90: quantile(present(ok.map((r) => r.coldMs)), 0.9),
    warmMedian: median(present(ok.map((r) => r.warmMs))),
    viewportRecallMedian: median(viewport),
    viewportRecallP10: quantile(viewport, 0.1),
    pageRecallMedian: median(page),
    pageRecallP10: quantile(page, 0.1),
    viewportByRefPooled: pooled(ok.map((r) => r.viewportByRef)),
    pageByRefPooled: pooled(ok.map((r) => r.pageByRef)),
    snapshotTokensMedian: median(present(ok.map((r) => r.snapshotTokens))),
  };
}

interface Ratio {
  ours: string;
  peer: string;
  pages: number;
  tokensMedian: number | null;
  tokensTotal: number | null;
  coldMedian: number | null;
  warmMedian: number | null;
}

/** Ours ÷ peer, on the pages where both succeeded: the median of per-page ratios, and the ratio of totals. */
function ratio(results: BenchResults, ours: string, peer: string): Ratio {
  const pairs = results.pages
    .map((p) => [p.systems[ours], p.systems[peer]] as const)
    .filter((pair): pair is readonly [SystemPageResult, SystemPageResult] => pair[0]?.ok === true && pair[1]?.ok === true);
  const perPage = (pick: (r: SystemPageResult) => number | undefined) =>
    median(present(pairs.map(([a, b]) => (pick(a) !== undefined && pick(b) ? pick(a)! / pick(b)! : undefined))));
  const peerTotal = sum(pairs.map(([, b]) => b.tokens ?? 0));
  return {
    ours,
    peer,
    pages: pairs.length,
    tokensMedian: perPage((r) => r.tokens),
    tokensTotal: peerTotal ? sum(pairs.map(([a]) => a.tokens ?? 0)) / peerTotal : null,
    coldMedian: perPage((r) => r.coldMs),
    warmMedian: perPage((r) => r.warmMs),
  };
}

function systemIds(results: BenchResults): string[] {
  return results.meta.systems.map((s) => s.id);
}

function ratios(results: BenchResults): Ratio[] {
  const peers = systemIds(results).filter((id) => id !== OURS_DEFAULT && id !== OURS_PAGE);
  return [OURS_DEFAULT, OURS_PAGE].flatMap((ours) => peers.map((peer) => ratio(results, ours, peer)));
}

const int = (n: number | null) => (n === null ? '–' : Math.round(n).toLocaleString('en-US'));
const pct = (n: number | null) => (n === null ? '–' : `${(n * 100).toFixed(1)}%`);
const times = (n: number | null) => (n === null ? '–' : `${n.toFixed(2)}×`);

const SUMMARY_HEADER = [
  'system', 'pages ok', 'failed', 'tokens median', 'tokens p90', 'tokens total', 'latency median (ms)', 'latency p90 (ms)',
  'repeat latency median (ms)', 'viewport recall median', 'viewport recall p10', 'page recall median', 'page recall p10',
];

function summaryRows(results: BenchResults): string[][] {
  return systemIds(results).map((id) => {
    const s = summarize(results, id);
    return [
      id, String(s.ok), String(s.failed), int(s.tokensMedian), int(s.tokensP90), int(s.tokensTotal), int(s.coldMedian), int(s.coldP90),
      int(s.warmMedian), pct(s.viewportRecallMedian), pct(s.viewportRecallP10), pct(s.pageRecallMedian), pct(s.pageRecallP10),
    ];
  });
}

const RATIO_HEADER = ['ours', 'peer', 'pages', 'tokens (median of per-page ratios)', 'tokens (ratio of totals)', 'latency (median ratio)', 'repeat latency (median ratio)'];

function ratioRows(results: BenchResults): string[][] {
  return ratios(results).map((r) => [r.ours, r.peer, String(r.pages), times(r.tokensMedian), times(r.tokensTotal), times(r.coldMedian), times(r.warmMedian)]);
}

function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function consoleTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

const BY_REF_HEADER = ['system', 'first-screen elements', 'found by ref', 'pooled recall', 'whole-page pooled recall', 'model-read tokens median', 'bare snapshot tokens median'];

/** Our systems: recall by element identity (the toolset's `locator`, Playwright's `getByRef` under it), pooled over pages, and what the tokens are of. */
function byRefRows(results: BenchResults): string[][] {
  return systemIds(results)
    .filter((id) => okResults(results, id).some((r) => r.viewportByRef))
    .map((id) => {
      const s = summarize(results, id);
      const ok = okResults(results, id);
      return [
        id,
        int(sum(ok.map((r) => r.viewportByRef?.total ?? 0))),
        int(sum(ok.map((r) => r.viewportByRef?.found ?? 0))),
        s.viewportByRefPooled === null ? '–' : s.viewportByRefPooled.toFixed(3),
        s.pageByRefPooled === null ? '–' : s.pageByRefPooled.toFixed(3),
        int(s.tokensMedian),
        int(s.snapshotTokensMedian),
      ];
    });
}

export function renderConsole(results: BenchResults): string {
  return [
    `Snapshot benchmark, ${results.pages.length} pages, ${results.meta.durationSeconds ?? '?'} s`,
    '',
    consoleTable(SUMMARY_HEADER, summaryRows(results)),
    '',
    'Ours, element-level recall (a ref resolves to the ground-truth element itself):',
    consoleTable(BY_REF_HEADER, byRefRows(results)),
    '',
    'Ours ÷ peer (below 1 means ours is smaller or faster):',
    consoleTable(RATIO_HEADER, ratioRows(results)),
  ].join('\n');
}

interface WorstPage {
  page: string;
  recall: number;
  found: number;
  total: number;
  missing: string[];
}

function worstPages(results: BenchResults, id: string, scope: 'viewport' | 'page' | 'viewportByRef', count: number): WorstPage[] {
  return results.pages
    .flatMap((p: PageResult) => {
      const r = p.systems[id]?.[scope];
      return r && r.recall !== null ? [{ page: p.page, recall: r.recall, found: r.found, total: r.total, missing: r.missing }] : [];
    })
    .sort((a, b) => a.recall - b.recall || b.total - a.total)
    .slice(0, count);
}

function worstTable(results: BenchResults, id: string, scope: 'viewport' | 'page' | 'viewportByRef'): string {
  const rows = worstPages(results, id, scope, scope === 'viewportByRef' ? 10 : 5).map((w) => [
    w.page, pct(w.recall), `${w.found}/${w.total}`, w.missing.map((m) => (scope === 'viewportByRef' ? m : JSON.stringify(m))).join(', '),
  ]);
  return markdownTable(['page', 'recall', 'found', scope === 'viewportByRef' ? 'some missing elements' : 'some missing labels'], rows);
}

function truthTotals(results: BenchResults): string {
  const truths = present(results.pages.map((p) => p.truth));
  const total = (key: keyof NonNullable<PageResult['truth']>) => sum(truths.map((t) => t[key])).toLocaleString('en-US');
  return [
    `- Labelled interactive elements: ${total('viewport')} in the first viewport, ${total('page')} on whole pages (${truths.length} pages).`,
    `- Left out for having no label: ${total('unlabelledViewport')} in the viewport, ${total('unlabelledPage')} on whole pages.`,
    `- Inside same-origin iframes: ${total('inIframes')}; inside open shadow roots: ${total('inShadowRoots')}; under aria-hidden="true" (absent from accessibility trees by design, still counted): ${total('ariaHidden')}.`,
    ...results.pages.filter((p) => p.truthError).map((p) => `- Ground truth failed on ${p.page}: ${p.truthError}`),
  ].join('\n');
}

function failures(results: BenchResults): string {
  const lines = results.pages.flatMap((p) =>
    Object.entries(p.systems)
      .filter(([, r]) => !r.ok)
      .map(([id, r]) => `- ${p.page}, ${id}: ${r.error}`),
  );
  return lines.length ? lines.join('\n') : 'None.';
}

function samplesSection(results: BenchResults, samples: Samples): string {
  const parts: string[] = [];
  for (const [page, bySystem] of Object.entries(samples)) {
    parts.push(`### ${page}`);
    for (const id of systemIds(results)) {
      const text = bySystem[id];
      if (text === undefined) continue;
      // Some systems write very long lines; keep the report readable.
      const shown = text
        .split('\n')
        .map((l) => (l.length > 200 ? `${l.slice(0, 199)}…` : l))
        .join('\n');
      parts.push(`#### ${id}\n\n\`\`\`\n${shown.replace(/```/g, "'''")}\n\`\`\``);
    }
  }
  return parts.join('\n\n');
}

export function renderMarkdown(results: BenchResults, samples: Samples): string {
  const { meta } = results;
  const machine = meta.machine;
  const ours = summarize(results, OURS_DEFAULT);
  const oursPage = summarize(results, OURS_PAGE);
  return `# Benchmarks

Generated by \`npm run bench:snapshot\` (bench/snapshot.ts); raw per-page results in \`bench/results/snapshot.json\`.
Regenerate rather than edit: the next run overwrites this file.

## Snapshot: tokens, latency, recall

- Date: ${meta.date}; code measured: ${meta.source}
- Machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.platform}, Node ${machine.node}, Chromium ${machine.chromium}
- One-minute load average: ${meta.loadAverage.start} at the start, ${meta.loadAverage.end ?? '?'} at the end (other work on the machine inflates latencies; the ratios below suffer less, since the systems run interleaved)
- Pages: ${results.pages.length} from \`shared/corpus/pages\`, served on 127.0.0.1; every other host unresolvable. Run time ${meta.durationSeconds ?? '?'} s.
- Versions: ${Object.entries(meta.versions).map(([k, v]) => `${k} ${v}`).join(', ')}

Systems (all on the same Chromium, viewport 1280x720, the same flags):

${meta.systems.map((s) => `- **${s.id}**: ${s.description}`).join('\n')}

${markdownTable(SUMMARY_HEADER, summaryRows(results))}

Ours ÷ peer, on pages where both succeeded (below 1 means ours is smaller or faster):

${markdownTable(RATIO_HEADER, ratioRows(results))}

Our token figures are of the text the model reads: the result as \`toModelOutput\` writes it (\`src/tools/modelText.ts\`: the snapshot block under a \`snapshot:\` line). The bare snapshot text has a median of ${int(ours.snapshotTokensMedian)} tokens in default mode and ${int(oursPage.snapshotTokensMedian)} in page mode; the result as raw JSON (what Mastra would send without \`toModelOutput\`) ${int(ours.sentTokensMedian)} and ${int(oursPage.sentTokensMedian)}.

Ours, recall by element identity: every interactive element of the ground truth (labelled or not), found only when some ref of our text resolves through the toolset's \`locator\` (Playwright's \`page.getByRef\` under it) to that same DOM element. Collected in the page we snapshotted, right after the snapshot; pooled over all pages.

${markdownTable(BY_REF_HEADER, byRefRows(results))}

### Method

- **Tokens**: o200k_base (\`gpt-tokenizer\`) of the text the model receives from the call.
- **Latency**: wall time of the snapshot call alone (capture and formatting; for Playwright MCP also the stdio round trip), the first call after navigation. *Repeat latency* is the same call made again on the same document. Every system navigates without taking a snapshot (ours by driving the tab directly, Playwright MCP with \`--snapshot-mode none\`), so the measured call is the first capture of the document for all of them. Navigation waits for \`load\`.
- **Ground truth**: taken in a separate browser after \`load\`, before the systems run: visible (non-empty box, not hidden by \`display\`, \`visibility\` or \`opacity\` on it or an ancestor) elements that are \`a[href]\`, \`button\`, \`input\` (not hidden), \`select\`, \`textarea\`, \`summary\`, an interactive ARIA role, \`contenteditable\`, \`[onclick]\` or \`tabindex >= 0\`, including same-origin iframes and open shadow roots. The label approximates the accessible name: \`aria-labelledby\`, \`aria-label\`, \`<label>\`, button value, content (visible text, alt text of images and \`aria-label\` of descendants, without \`aria-hidden\` parts or icon-font glyphs), title, placeholder; cut to 40 characters.
- **Element recall (ours)**: the ground truth is collected again in our own page, right after the snapshot; every ref-shaped word of our text is resolved with the toolset's \`locator\` (as the tools resolve refs) and the elements it resolves to are marked; a ground-truth element is found only if it is marked itself. Unlabelled elements count too. *First screen* is the first 1280x720 at scroll 0.
- **Recall** (by label, every system): share of labelled ground-truth elements whose label (lowercase, whitespace collapsed, first 25 characters) occurs in the system's text (JSON and YAML quote escapes undone). *Viewport* counts elements intersecting the first 1280x720; *page* counts all. Viewport-limited output (ours default) is expected to score low on page recall. Substring matching can count a label found elsewhere in the text (a heading with the same words), so recall is an upper bound for every system alike.
- Systems run in turn on each page, starting with a different one on each page; each has its own browser, warmed up on a fixture page first. A system that fails or passes the ${meta.options.timeoutMs / 1000} s limit on a page is restarted and scored as a failure there.

### Ground truth

${truthTotals(results)}

### Lowest element recall: ${OURS_DEFAULT}, first screen

${worstTable(results, OURS_DEFAULT, 'viewportByRef')}

### Lowest recall by label: ${OURS_DEFAULT}, viewport

${worstTable(results, OURS_DEFAULT, 'viewport')}

### Lowest recall: ${OURS_PAGE}, whole page

${worstTable(results, OURS_PAGE, 'page')}

### Failures

${failures(results)}
${meta.notes?.length ? `\n${meta.notes.map((n) => `- ${n}`).join('\n')}\n` : ''}
### Samples (first 40 lines)

Mastra's JSON result is shown unwrapped: the \`snapshot\` field, then the other fields.

${samplesSection(results, samples)}
`;
}
