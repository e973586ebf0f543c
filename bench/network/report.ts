/** What `npm run bench:network` stores per page and system, and the tables made from it (console and bench/results/network.md). */
import { median, quantile, sum } from '../stats.js';
import type { LatencyModel } from './standIn.js';

export interface SystemRun {
  /** Wall time from asking for the page to holding a snapshot (or the error), ms. */
  ms: number;
  /** The system reported success and sent a snapshot. */
  ok: boolean;
  /** Our or @mastra/agent-browser's error code; `cap` when the call did not return within the cap. */
  code?: string;
  error?: string;
  /** The local server had sent the whole main document by the time the call returned. */
  documentArrived: boolean;
  /** Characters of snapshot the model got, also with an error. */
  snapshotChars: number;
  /** Distinct refs in it: elements the model could act on. */
  refs: number;
  /** Two-call systems (goto or navigate, then snapshot): the first call alone, the part spent waiting for the page. */
  firstCallMs?: number;
  /** Ours only: milliseconds by stage (src/stages.ts), to see where the time goes. */
  stages?: Record<string, number>;
  /** Third-party requests the stand-in received during the call, and how many of them it never answered. */
  requests: number;
  stuck: number;
  /** The same, from the call until this system's next navigation (the page stays open meanwhile). */
  requestsOpen: number;
  stuckOpen: number;
}

export interface PageRun {
  page: string;
  /** Third-party requests of the page: the most any system's browser made while it had the page open. */
  requests: number;
  /** Never-answered requests among them (in that same system's browser), as "kind host". */
  stuck: string[];
  /** The same requests by kind (script, image, style...). */
  kinds: Record<string, number>;
  /** One-minute load average when the page was done. */
  load: number;
  systems: Record<string, SystemRun>;
}

export interface NetworkResults {
  meta: {
    date: string;
    durationSeconds?: number;
    source: string;
    machine: Record<string, string | number>;
    loadAverage: { start: number; end?: number; mean?: number; max?: number };
    versions: Record<string, string>;
    systems: Array<{ id: string; description: string }>;
    standIn: { seed: string; stuckShare: number; latency: LatencyModel; protocol?: 'http1' | 'h2'; caching?: 'no-store' | 'max-age'; capMs: number; pages: number };
    notes: string[];
  };
  pages: PageRun[];
}

export interface SystemSummary {
  id: string;
  pages: number;
  medianMs: number | null;
  p95Ms: number | null;
  errors: number;
  errorsDocumentArrived: number;
  errorsDocumentMissing: number;
  /** Errors that still came with a snapshot holding refs to act on. */
  errorsWithRefs: number;
  codes: Record<string, number>;
  /** Median time on pages none of whose requests got stuck, and on the others. */
  medianCleanMs: number | null;
  medianStuckMs: number | null;
  /** The first call of two-call systems. */
  firstCallMedianMs: number | null;
  firstCallP95Ms: number | null;
  /** Third-party requests this system's browser sent, over the run. */
  requests: number;
}

const isStuckPage = (page: PageRun) => page.stuck.length > 0;

export function summarize(results: NetworkResults, id: string): SystemSummary {
  const runs = results.pages.flatMap((p) => (p.systems[id] ? [{ page: p, run: p.systems[id]! }] : []));
  const errors = runs.filter(({ run }) => !run.ok);
  const codes: Record<string, number> = {};
  for (const { run } of errors) codes[run.code ?? 'error'] = (codes[run.code ?? 'error'] ?? 0) + 1;
  const times = (pick: typeof runs) => pick.map(({ run }) => run.ms);
  return {
    id,
    pages: runs.length,
    medianMs: median(times(runs)),
    p95Ms: quantile(times(runs), 0.95),
    errors: errors.length,
    errorsDocumentArrived: errors.filter(({ run }) => run.documentArrived).length,
    errorsDocumentMissing: errors.filter(({ run }) => !run.documentArrived).length,
    errorsWithRefs: errors.filter(({ run }) => run.refs > 0).length,
    codes,
    medianCleanMs: median(times(runs.filter(({ page }) => !isStuckPage(page)))),
    medianStuckMs: median(times(runs.filter(({ page }) => isStuckPage(page)))),
    firstCallMedianMs: median(runs.flatMap(({ run }) => (run.firstCallMs === undefined ? [] : [run.firstCallMs]))),
    firstCallP95Ms: quantile(runs.flatMap(({ run }) => (run.firstCallMs === undefined ? [] : [run.firstCallMs])), 0.95),
    requests: sum(runs.map(({ run }) => run.requestsOpen)),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const ms = (value: number | null) => (value === null ? '-' : Math.round(value).toLocaleString('en-US'));
const codesText = (codes: Record<string, number>) =>
  Object.entries(codes)
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ${n}`)
    .join(', ') || '-';

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export function summaryTable(results: NetworkResults): string {
  const rows = results.meta.systems.map(({ id }) => {
    const s = summarize(results, id);
    return [id, String(s.pages), ms(s.medianMs), ms(s.p95Ms), String(s.errors), String(s.errorsDocumentArrived), String(s.errorsDocumentMissing), String(s.errorsWithRefs), codesText(s.codes)];
  });
  return table(['system', 'pages', 'median ms', 'p95 ms', 'errors', 'errors, document arrived', 'errors, document not arrived', 'errors that still gave refs', 'error codes'], rows);
}

function splitTable(results: NetworkResults): string {
  const stuckPages = results.pages.filter(isStuckPage).length;
  const rows = results.meta.systems.map(({ id }) => {
    const s = summarize(results, id);
    const first = s.firstCallMedianMs === null ? '-' : `${ms(s.firstCallMedianMs)} / ${ms(s.firstCallP95Ms)}`;
    return [id, ms(s.medianCleanMs), ms(s.medianStuckMs), first, s.requests.toLocaleString('en-US')];
  });
  return table(
    ['system', `median ms, ${plural(results.pages.length - stuckPages, 'page')} without a stuck request`, `median ms, ${plural(stuckPages, 'page')} with one or more`, 'first call alone (goto, navigate), median / p95 ms', 'third-party requests its browser sent'],
    rows,
  );
}

export interface Traffic {
  total: number;
  pagesWithRequests: number;
  medianPerPage: number | null;
  maxPerPage: number;
  stuck: number;
  pagesWithStuck: number;
  kinds: Record<string, number>;
  stuckKinds: Record<string, number>;
}

export function traffic(results: NetworkResults): Traffic {
  const kinds: Record<string, number> = {};
  const stuckKinds: Record<string, number> = {};
  for (const page of results.pages) {
    for (const [kind, n] of Object.entries(page.kinds)) kinds[kind] = (kinds[kind] ?? 0) + n;
    for (const entry of page.stuck) {
      const kind = entry.split(' ')[0]!;
      stuckKinds[kind] = (stuckKinds[kind] ?? 0) + 1;
    }
  }
  const counts = results.pages.map((p) => p.requests);
  return {
    total: sum(counts),
    pagesWithRequests: counts.filter((n) => n > 0).length,
    medianPerPage: median(counts),
    maxPerPage: Math.max(0, ...counts),
    stuck: sum(results.pages.map((p) => p.stuck.length)),
    pagesWithStuck: results.pages.filter(isStuckPage).length,
    kinds,
    stuckKinds,
  };
}

const countsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');

function trafficText(results: NetworkResults): string {
  const t = traffic(results);
  return [
    `Third-party requests that reached the stand-in: ${t.total.toLocaleString('en-US')} on ${t.pagesWithRequests} of ${results.pages.length} pages (median ${t.medianPerPage ?? '-'} per page, at most ${t.maxPerPage}), counted per page in the browser that made the most while it had the page open.`,
    `By kind: ${countsText(t.kinds) || 'none'}.`,
    `Never answered: ${plural(t.stuck, 'request')} on ${plural(t.pagesWithStuck, 'page')} (${countsText(t.stuckKinds) || 'none'}).`,
  ].join('\n');
}

export function renderConsole(results: NetworkResults): string {
  return `${summaryTable(results)}\n\n${splitTable(results)}\n\n${trafficText(results)}\n\n${stageTable(results)}`;
}

/** Where ours spends a navigate: each stage's median and p90 over the pages (0 where a page skipped it). */
export function stageTable(results: NetworkResults): string {
  const runs = results.pages.flatMap((p) => (p.systems.ours?.stages ? [p.systems.ours.stages] : []));
  if (!runs.length) return '';
  const names = [...new Set(runs.flatMap((stages) => Object.keys(stages)))];
  return table(
    ['stage of ours', 'median ms', 'p90 ms'],
    names.map((name) => {
      const values = runs.map((stages) => stages[name] ?? 0);
      return [name, ms(median(values) ?? 0), ms(quantile(values, 0.9) ?? 0)];
    }),
  );
}

function runText(run: SystemRun | undefined): string {
  if (!run) return '-';
  return `${ms(run.ms)}${run.ok ? '' : ` ✗ ${run.code ?? 'error'}`}`;
}

export function renderMarkdown(results: NetworkResults): string {
  const { meta } = results;
  const ids = meta.systems.map((s) => s.id);
  const ours = 'ours';
  const { latency } = meta.standIn;
  const load = meta.loadAverage;
  const oursFailed = results.pages.filter((p) => p.systems[ours] && !p.systems[ours]!.ok);
  const oursRan = ids.includes(ours);
  const lines = [
    '# Navigate-to-snapshot with a slow, partly stuck internet',
    '',
    'Generated by `npm run bench:network` (bench/network.ts). How long each system takes from "open this URL" to a snapshot the model can act on, when the pages\' third-party requests (ads, analytics, fonts, CDNs) are slow and a few never answer, as on the real web.',
    '',
    `- Date: ${meta.date}; code measured: ${meta.source}; run time ${meta.durationSeconds ?? '?'} s`,
    `- Machine: ${Object.entries(meta.machine).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `- One-minute load average: ${load.start} at the start, ${load.end ?? '?'} at the end, mean ${load.mean ?? '?'}, max ${load.max ?? '?'} over the pages (other work on the machine inflates every time here)`,
    `- Versions: ${Object.entries(meta.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `- Pages: ${meta.standIn.pages} from \`shared/corpus/pages\`, served on 127.0.0.1 with no added latency.`,
    `- Stand-in internet: every other host resolves to a local server (Chromium \`--host-resolver-rules\`, HTTP and HTTPS on one port, self-signed certificate, \`--ignore-certificate-errors\`; https hosts speak ${meta.standIn.protocol === 'h2' ? 'HTTP/2: one connection per host, a request that is never answered holds up no other' : 'HTTP/1.1: six connections per host, as Chromium opens them; requests that are never answered hold them'}). Latency to the first byte: log-normal, median ${latency.medianMs} ms, σ ${latency.sigma} (p90 ≈ ${Math.round(latency.medianMs * Math.exp(latency.sigma * 1.2816))} ms, p95 ≈ ${Math.round(latency.medianMs * Math.exp(latency.sigma * 1.6449))} ms), cut at ${latency.maxMs} ms. Never answered: ${(meta.standIn.stuckShare * 100).toFixed(1)}% of URLs. Both are drawn from a hash of seed \`${meta.standIn.seed}\`, host and path, so every system meets the same slow and stuck requests. Answers are empty scripts and style sheets, a 1x1 GIF, \`{}\`, an empty HTML document; ${meta.standIn.caching === 'max-age' ? '\`cache-control: public, max-age=3600\` for scripts, style sheets, images and fonts (each browser asks for a file once per run), \`no-store\` for documents and data' : '\`cache-control: no-store\` (every request reaches the stand-in)'}.`,
    `- Each call is capped at ${meta.standIn.capMs / 1000} s (hitting it is an error, \`cap\`; the system is then restarted). Systems run interleaved, the order rotating page by page; the same Chromium, viewport 1280x720, the same flags.`,
    '',
    'Systems and how they wait by default:',
    '',
    ...meta.systems.map((s) => `- **${s.id}**: ${s.description}`),
    '',
    '## Results',
    '',
    'An error is a result the system marks as failed (ours: `ok: false`; @mastra/agent-browser: `success: false` from goto or snapshot; @playwright/mcp: `isError` from navigate or snapshot, or no snapshot), or no result within the cap. Times run from asking for the page to holding the snapshot, both calls for the two-call systems. "Document arrived": the local server had sent the whole main document when the call returned. "Gave refs": the result still carried a snapshot with at least one ref to act on.',
    '',
    summaryTable(results),
    '',
    splitTable(results),
    '',
    trafficText(results),
    '',
    ...(oursRan ? ['Where ours spends its time, stage by stage (src/stages.ts; stages overlap where one runs inside another):', '', stageTable(results), ''] : []),
    ...(oursRan ? [`## Pages where ${ours} failed (${oursFailed.length})`, ''] : []),
    ...(!oursRan ? [] : oursFailed.length
      ? oursFailed.map((p) => {
          const run = p.systems[ours]!;
          const stuck = p.stuck.length ? `never answered: ${p.stuck.slice(0, 6).join(', ')}${p.stuck.length > 6 ? `, +${p.stuck.length - 6}` : ''}` : 'no stuck request';
          const partial = run.refs ? ` (partial snapshot, ${plural(run.refs, 'ref')})` : run.snapshotChars ? ' (snapshot without refs)' : ' (no snapshot)';
          return `- ${p.page}: ${run.code ?? 'error'} after ${ms(run.ms)} ms${partial}; ${stuck}. ${run.error ?? ''}`.trimEnd();
        })
      : ['None.']),
    ...(oursRan ? [''] : []),
    ...(meta.notes.length ? ['## Notes', '', ...meta.notes.map((n) => `- ${n}`), ''] : []),
    '## Per page',
    '',
    'Time in ms, ✗ and the code when the result was an error. Requests: third-party requests of the page; stuck: how many never got an answer.',
    '',
    table(
      ['page', 'requests', 'stuck', ...ids],
      results.pages.map((p) => [p.page, String(p.requests), String(p.stuck.length), ...ids.map((id) => runText(p.systems[id]))]),
    ),
    '',
  ];
  return lines.join('\n');
}
