/**
 * Format: a capture as the text the model reads, in four steps that each hand the next what it needs: the
 * capture's lines (lines.ts), which of them are shown (selection.ts), the header and footer around them
 * (header.ts), and the whole within its token budget (budget.ts).
 * The grammar is documented in docs/snapshot-format.md; keep the two in step.
 */
import type { Capture } from './tree.js';
import { linesOf } from './lines.js';
import { stageSync } from '../stages.js';
import { bandMargin } from './region.js';
import { selectLines } from './selection.js';
import { frameLines } from './header.js';
import { applyBudget, type FormattedSnapshot } from './budget.js';

export type { FormattedSnapshot };
export type SnapshotScope = 'viewport' | 'page';

export interface FormatOptions {
  /** `viewport`: what is on screen plus a margin, with what lies above and below summarised. `page`: the whole page. */
  scope: SnapshotScope;
  /** Token budget for the whole text (o200k_base). Lowest-value lines are cut first, and the cut is reported. */
  maxTokens: number;
  /** Only the subtree of this ref, whatever the scope. */
  ref?: string;
  /** Only lines containing this text (case-insensitive), with their section and heading for context, from the whole page. */
  find?: string;
  /** Refs first seen in this snapshot: marked `new`. */
  newRefs?: Set<string>;
  /** Names of the secrets browser_type may type into this page (its origin or a frame's): said in the header. */
  secrets?: string[];
}

export function formatSnapshot(capture: Capture, options: FormatOptions): FormattedSnapshot {
  const wholePage = options.scope === 'page' && !options.ref && !options.find;
  const linkTargets = wholePage ? 'none' : options.ref || options.find ? 'all' : 'useful';
  const read = linesOf(capture, { ref: options.ref, linkTargets, newRefs: options.newRefs });
  if (!read) return { text: '', tokens: 0, refsShown: 0, linesCut: 0 };
  const wanted = { ...options, margin: bandMargin(capture.metrics.viewportHeight), overlayControls: capture.overlay?.controls };
  const selection = selectLines(read.lines, capture.metrics, wanted);
  const frame = frameLines(capture, selection, { ...wanted, subtreeBox: read.box });
  const formatted = stageSync('snapshot: token budget', () => applyBudget(selection, frame, capture, wanted));
  return options.find ? { ...formatted, matches: selection.matches } : formatted;
}
