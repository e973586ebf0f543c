/**
 * Header: the lines around a snapshot's chosen lines. Above them, the page's title and address (with the
 * subtree or the find asked), whether the whole page is in view, hidden text left out (hiddenText.ts), a
 * wall (wallLine.ts), an open dialog or covering overlay, what lies above the screen and the frames still
 * loading (loadingFrames.ts); below them, what lies below and beside the screen.
 */
import type { Box, Capture } from './tree.js';
import { MODAL_ROLES } from './roles.js';
import { NAME_LIMIT, quote, truncate } from './textLimits.js';
import { bandSpan } from './region.js';
import { hiddenTextLine } from './hiddenText.js';
import { framesToName, loadingFramesLine } from './loadingFrames.js';
import { wallLine } from './wallLine.js';
import type { LinesWanted, Selection } from './selection.js';
import { countKinds, px, tallyText } from './tally.js';

/** What the header says of a snapshot beyond its lines. */
export interface HeaderWanted extends LinesWanted {
  /** Names of the secrets browser_type may type into this page: said on the wall's line. */
  secrets?: string[];
  /** The subtree's box in the top document's viewport, when a ref's subtree is shown. */
  subtreeBox?: Box;
}

export interface Frame {
  header: string[];
  footer: string[];
}

/** Lines left out of a viewport snapshot, with what a regional capture counted in the page (region.ts). */
function offScreen(lines: Selection['above'], counted: Record<string, number> | undefined): string {
  const counts = countKinds(lines);
  for (const [kind, count] of Object.entries(counted ?? {})) counts.set(kind, (counts.get(kind) ?? 0) + count);
  return tallyText(counts);
}

/** Where a snapshot looks, for the count of hidden text (page coordinates): the band, a subtree's box, or everywhere. */
function hiddenBand(capture: Capture, wanted: HeaderWanted): { span: [number, number]; width?: number } | undefined {
  const { scrollY, viewportWidth } = capture.metrics;
  if (wanted.ref) {
    const box = wanted.subtreeBox;
    return box ? { span: [box.y + scrollY, box.y + box.height + scrollY] } : undefined;
  }
  return wanted.scope === 'viewport' && !wanted.find ? { span: bandSpan(capture.metrics), width: viewportWidth } : undefined;
}

/** The find's part of the first line: how many lines matched, and how many more the page holds unread. */
function findNote(capture: Capture, find: string, matches: number): string {
  let note = ` | find ${quote(find)}: ${matches} ${matches === 1 ? 'match' : 'matches'}`;
  // On a large page only the first matches were captured (portion.ts): say how many more the page holds.
  const found = capture.region?.rest?.matches;
  if (found && found.found > found.captured) {
    note += `; ${found.found - found.captured} more on the page not listed (${tallyText(new Map(Object.entries(capture.region!.rest!.tally)))}): make the text longer to narrow it`;
  }
  return note;
}

export function frameLines(capture: Capture, selection: Selection, wanted: HeaderWanted): Frame {
  const { metrics } = capture;
  const { lines } = selection;
  const header: string[] = [];
  const title = capture.title ? ` ${quote(truncate(capture.title, NAME_LIMIT))}` : '';
  const subtreeNote = wanted.ref ? ` | subtree of ${wanted.ref}` : '';
  const found = wanted.find ? findNote(capture, wanted.find, selection.matches) : '';
  const belowPx = metrics.scrollHeight - metrics.scrollY - metrics.viewportHeight;
  header.push(`page${title} ${capture.url}${subtreeNote}${found}`);
  // Where the page is scrolled and what lies beyond the screen, one line each way: "above 648px: 5 links"
  // at the top, "below 7085px: 120 links, 3 buttons" at the end. No "above" line means the top of the page.
  const beyond = (where: string, distance: number, counts: string) =>
    distance > 1 ? `${where} ${px(distance)}${counts ? `: ${counts}` : ''}` : counts ? `${where}: ${counts}` : '';
  if (metrics.scrollY <= 0 && belowPx <= 1) header.push('whole page in view');
  const hidden = hiddenTextLine(capture.hiddenText, hiddenBand(capture, wanted), !!wanted.find);
  if (hidden) header.push(hidden);
  if (capture.stoppedLoop) header.push('! the page kept reloading or redirecting by itself; it was stopped to be read, so it may be incomplete');
  const wall = wanted.ref || wanted.find ? undefined : wallLine(capture, wanted.secrets);
  if (wall) header.push(...wall.lines);
  const modal = lines.find((l) => MODAL_ROLES.has(l.kind));
  if (wall?.namesCover) {
    // The wall's line says what covers the page.
  } else if (modal) header.push(`! a ${modal.kind} is open and may block the page: ${modal.text.replace(/:$/, '')}`);
  else if (capture.overlay && !wanted.ref) {
    header.push(`! an overlay covers ${Math.round(capture.overlay.coverage * 100)}% of the screen and may block clicks: ${quote(truncate(capture.overlay.text, 80))}${capture.overlay.controls.length ? ' (its controls are listed first)' : ''}`);
  }
  const counted = wanted.find ? undefined : capture.region?.tallies;
  const aboveLine = beyond('above', metrics.scrollY, wanted.find ? '' : offScreen(selection.above, counted?.above));
  if (aboveLine) header.push(aboveLine);
  const band = wanted.scope === 'viewport' ? wanted.margin : undefined;
  const loading = wanted.ref || wanted.find ? [] : framesToName(capture.loadingFrames, metrics, band);
  if (loading.length) header.push(loadingFramesLine(loading));
  const inPart = wanted.ref || wanted.find ? [] : framesToName(capture.partFrames, metrics, band);
  if (inPart.length) header.push(loadingFramesLine(inPart, 'shown in part so far'));

  const footer: string[] = [];
  const belowLine = beyond('below', belowPx, wanted.find ? '' : offScreen(selection.below, counted?.below));
  if (belowLine) footer.push(belowLine);
  const besideTally = wanted.find ? '' : offScreen(selection.beside, counted?.beside);
  if (besideTally) footer.push(`beside: ${besideTally} (scrolled out sideways)`);
  return { header, footer };
}
