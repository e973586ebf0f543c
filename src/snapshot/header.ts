/**
 * Header: the lines around a snapshot's chosen lines. Above them, the page's title and address (pageLine.ts; with the
 * subtree or the find asked), whether the whole page is in view, hidden text left out (hiddenText.ts), a
 * wall (wallLine.ts), an open dialog or covering overlay, what lies above the screen and the frames still
 * loading (loadingFrames.ts); below them, what lies below and beside the screen.
 */
import type { Box, Capture } from './tree.js';
import { MODAL_ROLES } from './roles.js';
import { quote, truncate } from './textLimits.js';
import { addressShown, titleShown } from './pageLine.js';
import { bandSpan } from './region.js';
import { hiddenTextLine } from './hiddenText.js';
import { framesToName, loadingFramesLine } from './loadingFrames.js';
import { wallLine } from './wallLine.js';
import type { LinesWanted, Selection } from './selection.js';
import { offScreenTally, px, tallyText } from './tally.js';

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

export function frameLines(capture: Capture, selection: Selection, wanted: HeaderWanted): Frame {
  const { metrics } = capture;
  const { lines } = selection;
  const header: string[] = [];
  // What lies off screen, counted with what a regional capture counted in the page (region.ts).
  const counted = wanted.find ? undefined : capture.region?.tallies;
  const aboveTally = wanted.find ? '' : offScreenTally(selection.above, counted?.above);
  const belowTally = wanted.find ? '' : offScreenTally(selection.below, counted?.below);
  const besideTally = wanted.find ? '' : offScreenTally(selection.beside, counted?.beside);
  const title = capture.title ? ` ${quote(titleShown(capture.title, capture.url))}` : '';
  let asked = wanted.ref ? ` | subtree of ${wanted.ref}` : '';
  if (wanted.find) {
    const { matches } = selection;
    asked += ` | find ${quote(wanted.find)}: ${matches} ${matches === 1 ? 'match' : 'matches'}`;
    // On a large page only the first matches were captured (portion.ts): say how many more the page holds.
    const found = capture.region?.rest?.matches;
    if (found && found.found > found.captured) {
      asked += `; ${found.found - found.captured} more on the page not listed (${tallyText(new Map(Object.entries(capture.region!.rest!.tally)))}): make the text longer to narrow it`;
    }
  }
  const belowPx = metrics.scrollHeight - metrics.scrollY - metrics.viewportHeight;
  header.push(`page${title} ${addressShown(capture.url)}${asked}`);
  // Where the page is scrolled and what lies beyond the screen, one line each way: "above 648px: 5 links"
  // at the top, "below 7085px: 120 links, 3 buttons" at the end. No "above" line means the top of the page.
  const beyond = (where: string, distance: number, counts: string) =>
    distance > 1 ? `${where} ${px(distance)}${counts ? `: ${counts}` : ''}` : counts ? `${where}: ${counts}` : '';
  if (metrics.scrollY <= 0 && belowPx <= 1) header.push('whole page in view');
  // Hidden text is counted where the snapshot looks (page coordinates): the band, a subtree's box, or everywhere.
  const box = wanted.subtreeBox;
  const band: { span: [number, number]; width?: number } | undefined = wanted.ref
    ? box && { span: [box.y + metrics.scrollY, box.y + box.height + metrics.scrollY] }
    : wanted.scope === 'viewport' && !wanted.find ? { span: bandSpan(metrics), width: metrics.viewportWidth } : undefined;
  const hidden = hiddenTextLine(capture.hiddenText, band, !!wanted.find);
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
  const aboveLine = beyond('above', metrics.scrollY, aboveTally);
  if (aboveLine) header.push(aboveLine);
  const margin = wanted.scope === 'viewport' ? wanted.margin : undefined;
  const loading = wanted.ref || wanted.find ? [] : framesToName(capture.loadingFrames, metrics, margin);
  if (loading.length) header.push(loadingFramesLine(loading));
  const inPart = wanted.ref || wanted.find ? [] : framesToName(capture.partFrames, metrics, margin);
  if (inPart.length) header.push(loadingFramesLine(inPart, 'shown in part so far'));

  const footer: string[] = [];
  const belowLine = beyond('below', belowPx, belowTally);
  if (belowLine) footer.push(belowLine);
  if (besideTally) footer.push(`beside: ${besideTally} (scrolled out sideways)`);
  return { header, footer };
}
