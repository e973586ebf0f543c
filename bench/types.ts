import type { RecallResult } from './groundTruth.js';

/** Recall as stored: missing labels are capped so the JSON stays small enough to commit. */
export type StoredRecall = Omit<RecallResult, 'missing'> & { missing: string[] };

export interface SystemPageResult {
  ok: boolean;
  error?: string;
  /** o200k_base tokens of the text the model receives (ours: the result as `src/tools/modelText.ts` writes it). */
  tokens?: number;
  /** Our tool only: tokens of the bare snapshot text, without the result's other lines. */
  snapshotTokens?: number;
  /** Our tool only: tokens of the whole result as JSON, what Mastra would send without `toModelOutput`. */
  sentTokens?: number;
  chars?: number;
  /** The first snapshot call after navigation. */
  coldMs?: number;
  /** The same call again on the same document. */
  warmMs?: number;
  /** Recall by label: ground-truth labels found anywhere in the text (every system). */
  viewport?: StoredRecall;
  page?: StoredRecall;
  /** Our tool only: recall by identity, every first-screen ground-truth element some ref resolves to (getByRef). */
  viewportByRef?: StoredRecall;
  pageByRef?: StoredRecall;
}

export interface TruthSummary {
  /** Visible interactive elements with a label, in the first viewport and on the whole page. */
  viewport: number;
  page: number;
  /** Visible interactive elements without a label, left out of recall. */
  unlabelledViewport: number;
  unlabelledPage: number;
  inIframes: number;
  inShadowRoots: number;
  ariaHidden: number;
}

export interface PageResult {
  page: string;
  truth?: TruthSummary;
  truthError?: string;
  systems: Record<string, SystemPageResult>;
}

export interface BenchMeta {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; chromium: string; platform: string };
  /** One-minute load average when the run began and ended: other work on the machine skews latency. */
  loadAverage: { start: number; end?: number };
  /** The code measured: the commit and whether src/ had uncommitted changes, or BENCH_SOURCE. */
  source: string;
  versions: Record<string, string>;
  systems: Array<{ id: string; description: string }>;
  options: { timeoutMs: number; pages: number };
  durationSeconds?: number;
  notes?: string[];
}

export interface BenchResults {
  meta: BenchMeta;
  pages: PageResult[];
}
