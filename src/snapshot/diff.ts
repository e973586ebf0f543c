/**
 * Diff: what an action changed on the page, as the lines of the snapshot format that appeared (+),
 * changed (~) or disappeared (-). Unchanged elements keep their refs, so the model can go on acting.
 */
import type { Capture, LoadingFrame } from './tree.js';
import { pageLines, type PageLine } from './lines.js';
import { framesToName, loadingFramesLine } from './loadingFrames.js';
import { bandMargin, bandSpan } from './region.js';
import { countTokens } from './tokens.js';
import { ADDRESSED_LINE, markAddressed } from './addressed.js';

export interface SnapshotDiff {
  /** The diff lines, or '' when nothing visible changed. */
  text: string;
  added: number;
  changed: number;
  removed: number;
  /** True when the diff did not fit its budget and was cut. */
  truncated: boolean;
}

/** Focus moves with every click and keystroke; reporting it would add a line to every diff. */
function withoutFocus(lines: PageLine[]): PageLine[] {
  return lines.map((line) => ({ ...line, text: line.text.replace(/ focused(?= |$)/, '') }));
}

function frameKey({ name, host }: LoadingFrame): string {
  return `${name}\n${host}`;
}

/** Frames in `after` that were not in `before`. */
function newFrames(before: LoadingFrame[] | undefined, after: LoadingFrame[] | undefined): LoadingFrame[] {
  const known = new Set((before ?? []).map(frameKey));
  return (after ?? []).filter((frame) => !known.has(frameKey(frame)));
}

/** The stretch of the page (page coordinates) a capture holds: all of it, the viewport and the margin format.ts keeps, or a portion's (portion.ts). */
function span(capture: Capture): [number, number] {
  return capture.region ? (capture.region.span ?? bandSpan(capture.metrics)) : [-Infinity, Infinity];
}

/**
 * Compares two captures of one document where both look: a viewport capture holds one screen of the page
 * (region.ts), so an element outside the stretch both captures cover may simply not have been captured.
 */
export function diffCaptures(before: Capture, after: Capture, maxTokens = 400): SnapshotDiff {
  const [beforeTop, beforeBottom] = span(before);
  const [afterTop, afterBottom] = span(after);
  const top = Math.max(beforeTop, afterTop);
  const bottom = Math.min(beforeBottom, afterBottom);
  const shown = (line: PageLine) => line.bottom >= top && line.top <= bottom;
  const oldAll = withoutFocus(pageLines(before));
  const nowAll = withoutFocus(pageLines(after));
  const old = oldAll.filter(shown);
  const now = nowAll.filter(shown);
  // Elements keep their ref: compare them wherever they are in either capture, so a moved one is not "new".
  const oldByRef = new Map(oldAll.filter((l) => l.ref).map((l) => [l.ref!, l.text]));
  const nowRefs = new Set(nowAll.filter((l) => l.ref).map((l) => l.ref!));
  // Text lines have no identity: compare them as multisets.
  const oldTexts = new Map<string, number>();
  for (const line of old) if (!line.ref) oldTexts.set(line.text, (oldTexts.get(line.text) ?? 0) + 1);

  const out: string[] = [];
  let added = 0;
  let changed = 0;
  let removed = 0;
  // The page scrolled (an anchor, a focus moving off screen): say where to; lines scrolled out are not "removed".
  if (before.metrics.scrollY !== after.metrics.scrollY) {
    out.push(`~ scroll: ${after.metrics.scrollY.toLocaleString('en-US')}px from the top (browser_snapshot shows the screen)`);
    changed++;
  }
  // A frame the action added whose document has not come yet is not in the capture, and one still being parsed
  // shows only its top (loadingFrames.ts): say so.
  for (const [frames, shown] of [
    [newFrames(before.loadingFrames, after.loadingFrames), 'not shown yet'],
    [newFrames(before.partFrames, after.partFrames), 'shown in part so far'],
  ] as const) {
    const named = framesToName(frames, after.metrics, after.region ? bandMargin(after.metrics.viewportHeight) : undefined);
    if (!named.length) continue;
    out.push(`+ ${loadingFramesLine(named, shown)}`);
    added++;
  }
  for (const line of now) {
    if (line.ref) {
      const previous = oldByRef.get(line.ref);
      if (previous === undefined) {
        out.push(`+ ${line.text}`);
        added++;
      } else if (previous !== line.text) {
        out.push(`~ ${line.text}`);
        changed++;
      }
      continue;
    }
    const left = oldTexts.get(line.text) ?? 0;
    if (left > 0) oldTexts.set(line.text, left - 1);
    else {
      out.push(`+ ${line.text}`);
      added++;
    }
  }
  for (const line of old) {
    if (line.ref ? !nowRefs.has(line.ref) : (oldTexts.get(line.text) ?? 0) > 0) {
      if (!line.ref) oldTexts.set(line.text, oldTexts.get(line.text)! - 1);
      out.push(`- ${line.text}`);
      removed++;
    }
  }

  let truncated = false;
  let tokens = 0;
  const kept: string[] = [];
  // Text that speaks to the agent is the page's, and the line before it says so (addressed.ts).
  const marked = markAddressed(out, (line) => line.slice(2));
  for (const line of marked) {
    tokens += countTokens(line) + 1;
    if (tokens > maxTokens) {
      truncated = true;
      break;
    }
    kept.push(line);
  }
  if (truncated) {
    if (kept[kept.length - 1] === ADDRESSED_LINE) kept.pop();
    const more = marked.slice(kept.length).filter((line) => line !== ADDRESSED_LINE).length;
    kept.push(`… ${more} more changes: take browser_snapshot to see the page`);
  }
  return { text: kept.join('\n'), added, changed, removed, truncated };
}
