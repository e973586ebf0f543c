/**
 * A find that reaches text a page has not drawn yet (issue 56, DECISIONS 131). Virtual grids and lists draw only
 * the rows near their own scroll position, so a row far down is not in the page until its box is scrolled there.
 * When a find matches nothing, the boxes that scroll inside the page (or inside the element the find is limited
 * to) are scrolled a screen at a time, each step waiting until the box has redrawn, until the text is drawn, the
 * box's end is reached, or the call's time or step bound runs out. The box is left where the text was drawn, so
 * the refs of the find that follows work; a box searched to its end without a match goes back to where it was.
 * Boxes are found by how they behave (they scroll, their content overflows), never by library.
 */
import type { ElementHandle, JSHandle, Locator, Page } from 'playwright-core';
import type { Deadline } from '../../deadline.js';

/** Steps over all boxes in one call: a 400 px grid of 42 px rows goes about 1,700 rows deep (the call's time may end it sooner). */
const MAX_STEPS = 200;
/** A step moves this much of the box's height, keeping some rows of the last screen so none is skipped. */
const STEP = 0.9;
/** A box has redrawn when it has not changed for this long after a step (capped by `STEP_WAIT_MS`). */
const QUIET_MS = 60;
const STEP_WAIT_MS = 1_000;
/** At a box's end, or to tell a box that draws everything from one that draws as it scrolls: longer, for rows fetched from a server. */
const END_QUIET_MS = 400;
const END_WAIT_MS = 2_000;
/** Time kept for the find's snapshot after the search, beyond the deadline's own reserve for answering. */
const SNAPSHOT_RESERVE_MS = 2_000;

export interface ScrollSearch {
  /** The text was drawn: the box is left where it appeared. */
  found: boolean;
  /** Boxes searched (scrolled at least once). */
  boxes: number;
  /** Scroll steps taken in all boxes. */
  steps: number;
  /** How far the box the search ended in moved, in px (down is positive). */
  px: number;
  /** Every box searched was scrolled through to its end (and from its top to where it began). */
  reachedEnd: boolean;
  /** The search stopped early: the call's time or its step bound ran out. The box is left where it stopped. */
  stopped?: 'time' | 'steps';
  /** Boxes left alone because they hold the field being typed in (scrolling could take the field and its text away). */
  skipped: number;
  /** What the model reads: which box moved, how far, and what came of it. */
  said: string;
  /** The box searched is around the element the find was limited to (a row of it): its matches are outside that element. */
  around: boolean;
}

interface Box {
  /** What the box is, for the model: a role and name from it or the nearest ancestor with one. */
  label: string;
  y: number;
  height: number;
  max: number;
  /** It holds the focused text field. */
  holdsTyping: boolean;
  /** It is around the element the find was limited to, not inside it. */
  around: boolean;
}

interface Step {
  y: number;
  max: number;
  /** Mutations seen in the box while it redrew. */
  changed: number;
  found: boolean;
}

/**
 * In the page: the boxes inside `root` (itself included) that scroll vertically, largest first, through open
 * shadow roots. No inner named functions: a bundler that keeps function names would wrap them in a helper the
 * page does not have.
 */
function collectBoxes(root: Element): Element[] {
  const found: Element[] = [];
  const stack: Array<Element | ShadowRoot> = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node instanceof Element) {
      if (node.scrollHeight > node.clientHeight + 1 && node.clientHeight >= 20 && node !== document.scrollingElement && node !== document.body) {
        const style = getComputedStyle(node);
        if (/(auto|scroll|overlay)/.test(style.overflowY) && style.visibility !== 'hidden' && node.getClientRects().length) found.push(node);
      }
      if (node.shadowRoot) stack.push(node.shadowRoot);
    }
    for (const child of node.children) stack.push(child);
  }
  // An element inside a box (a row of a list that has no ref of its own) stands for the box around it.
  if (!found.length && root !== document.documentElement) {
    for (let up = root.parentElement; up && up !== document.body && up !== document.scrollingElement; up = up.parentElement) {
      if (up.scrollHeight > up.clientHeight + 1 && /(auto|scroll|overlay)/.test(getComputedStyle(up).overflowY)) return [up];
    }
  }
  return found.sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight);
}

/** In the page: what each box is and where it stands. */
function describeBoxes(boxes: Element[], root: Node): Box[] {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  const typing = !!active && (active.matches('input, textarea, select') || (active as HTMLElement).isContentEditable);
  return boxes.map((box) => {
    let labelled: Element | null = box;
    while (labelled && !labelled.getAttribute('role') && !/^(TABLE|UL|OL)$/.test(labelled.tagName)) {
      labelled = labelled.parentElement ?? ((labelled.getRootNode() as ShadowRoot).host || null);
    }
    const role = labelled ? (labelled.getAttribute('role') ?? (labelled.tagName === 'TABLE' ? 'table' : 'list')) : 'scroll box';
    const name = labelled?.getAttribute('aria-label') ?? '';
    let holdsTyping = false;
    for (let e: Node | null = typing ? active : null; e; e = e.parentNode ?? (e as ShadowRoot).host ?? null) {
      if (e === box) holdsTyping = true;
    }
    return {
      label: `${role}${name ? ` "${name.slice(0, 40)}"` : ''}`,
      y: box.scrollTop,
      height: box.clientHeight,
      max: box.scrollHeight - box.clientHeight,
      holdsTyping,
      around: box !== root && box.contains(root),
    };
  });
}

/**
 * In the page: scrolls box `index` to `to`, waits until it has redrawn (no change for `quiet` ms, at most `cap`),
 * then says whether `query` is drawn in it, in its rendered text or in a label (aria-label, title, alt). When it
 * is, the deepest element holding it is brought into view inside the box.
 */
async function stepBox(boxes: Element[], arg: { index: number; to: number; query: string; quiet: number; cap: number }): Promise<Step> {
  const box = boxes[arg.index]!;
  let changed = 0;
  const started = performance.now();
  let last = started;
  const observer = new MutationObserver((records) => {
    changed += records.length;
    last = performance.now();
  });
  observer.observe(box, { childList: true, characterData: true, subtree: true });
  box.scrollTo({ top: arg.to, behavior: 'instant' });
  // Lists redraw on the scroll event, which comes with the next frame (a hidden tab has none: a timer stands in).
  await new Promise<void>((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    setTimeout(resolve, 100);
  });
  while (performance.now() - last < arg.quiet && performance.now() - started < arg.cap) await new Promise((resolve) => setTimeout(resolve, 16));
  observer.disconnect();
  const query = arg.query;
  const drawn = ((box as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').toLowerCase();
  let holder: Element | null = null;
  if (drawn.includes(query)) {
    // Down to the deepest element whose text holds it: a cell, not the row or the grid.
    let deepest: Element = box;
    for (let deeper = true; deeper; ) {
      deeper = false;
      for (const child of Array.from(deepest.children)) {
        if ((child.textContent ?? '').replace(/\s+/g, ' ').toLowerCase().includes(query) && child.getClientRects().length) {
          deepest = child;
          deeper = true;
          break;
        }
      }
    }
    holder = deepest;
  } else {
    for (const el of box.querySelectorAll('[aria-label], [title], [alt]')) {
      const said = `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''} ${el.getAttribute('alt') ?? ''}`;
      if (said.replace(/\s+/g, ' ').toLowerCase().includes(query) && el.getClientRects().length) {
        holder = el;
        break;
      }
    }
  }
  if (holder && holder !== box) holder.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  return { y: box.scrollTop, max: box.scrollHeight - box.clientHeight, changed, found: !!holder };
}

const px = (n: number) => `${Math.round(Math.abs(n)).toLocaleString('en-US')} px`;

/**
 * Scrolls the boxes inside `scope` (an element, or the whole page) until `text` is drawn. Undefined when there
 * is no box to scroll. Never throws for the page's sake: a box that goes away mid-search ends the search there.
 */
export async function findByScrolling(page: Page, scope: Locator | undefined, text: string, deadline: Deadline): Promise<ScrollSearch | undefined> {
  const query = text.replace(/\s+/g, ' ').trim().toLowerCase();
  const root: ElementHandle | null = scope
    ? await scope.elementHandle({ timeout: Math.min(deadline.forStep(), 2_000) }).catch(() => null)
    : await page.evaluateHandle(() => document.documentElement).then((h) => h.asElement());
  if (!root) return undefined;
  let handle: JSHandle<Element[]> | undefined;
  try {
    handle = await deadline.race(root.evaluateHandle(collectBoxes), 'find: looking for scroll boxes');
    const boxes = await deadline.race(handle.evaluate(describeBoxes, root), 'find: looking for scroll boxes');
    if (!boxes.length) return undefined;
    return await search(handle, boxes, query, text.trim(), deadline);
  } finally {
    await handle?.dispose().catch(() => {});
    await root.dispose().catch(() => {});
  }
}

async function search(handle: JSHandle<Element[]>, boxes: Box[], query: string, text: string, deadline: Deadline): Promise<ScrollSearch> {
  let steps = 0;
  let searched = 0;
  let stopped: ScrollSearch['stopped'];
  const skipped = boxes.filter((box) => box.holdsTyping).length;
  const ends: string[] = [];
  const step = async (index: number, to: number, long = false): Promise<Step> => {
    steps++;
    const arg = { index, to, query, quiet: long ? END_QUIET_MS : QUIET_MS, cap: long ? END_WAIT_MS : STEP_WAIT_MS };
    return deadline.race(handle.evaluate(stepBox, arg), 'find: scrolling');
  };
  const outOfBounds = (): boolean => {
    if (steps >= MAX_STEPS) stopped = 'steps';
    else if (deadline.forStep() < SNAPSHOT_RESERVE_MS + END_WAIT_MS) stopped = 'time';
    return stopped !== undefined;
  };

  for (const [index, box] of boxes.entries()) {
    if (box.holdsTyping) continue;
    if (outOfBounds()) break;
    searched++;
    let at = await step(index, box.y + box.height * STEP);
    if (at.found) return done(box, at, true);
    // A box that did not change as it scrolled drew everything it has: unless its end fetches more, nothing to find.
    if (at.changed === 0 && at.y < at.max - 1) {
      const end = await step(index, at.max, true);
      if (end.found) return done(box, end, true);
      if (end.changed === 0) {
        await step(index, box.y).catch(() => undefined);
        ends.push(box.label);
        continue;
      }
      at = await step(index, at.y);
    }
    // Down to the end: a step that does not move waits longer, for rows a server sends when the end is reached.
    let ended = false;
    while (!ended && !outOfBounds()) {
      const from = at.y;
      at = await step(index, at.y + box.height * STEP, at.y >= at.max - 1);
      if (at.found) return done(box, at, true);
      ended = at.y <= from + 1 && at.max <= from + 1;
    }
    // Then from the top to where it began, like a find that wraps around.
    if (ended && box.y > 1) {
      at = await step(index, 0);
      while (!at.found && at.y + box.height < box.y && !outOfBounds()) at = await step(index, at.y + box.height * STEP);
      if (at.found) return done(box, at, true);
    }
    if (stopped) return done(box, at, false);
    await step(index, box.y).catch(() => undefined);
    ends.push(box.label);
  }
  const what = ends.length === 1 ? `the ${ends[0]} to its end and back` : `${ends.length} scroll boxes to their ends and back`;
  const said = ends.length
    ? `${what} (${steps} ${steps === 1 ? 'step' : 'steps'}): ${JSON.stringify(text)} is not drawn anywhere in ${ends.length === 1 ? 'it' : 'them'}`
    : 'no scroll box was searched';
  const cut = stopped ? `, then stopped (${stopped === 'time' ? 'the time for one call ran out' : `${MAX_STEPS} steps are the most for one call`}) before the other boxes` : '';
  return { found: false, boxes: searched, steps, px: 0, reachedEnd: !stopped && ends.length > 0, stopped, skipped, said: withSkipped(said + cut), around: boxes.some((box) => box.around) };

  function done(box: Box, { y, max }: Step, found: boolean): ScrollSearch {
    const moved = y - box.y;
    const where = `the ${box.label} ${moved >= 0 ? 'down' : 'up'} ${px(moved)} in ${steps} ${steps === 1 ? 'step' : 'steps'}`;
    const said = found
      ? `${where}, to the first match (${px(max - y)} more below)`
      : `${where}, then stopped (${stopped === 'time' ? 'the time for one call ran out' : `${MAX_STEPS} steps are the most for one call`}), ${px(max - y)} before its end: not drawn so far. Left there: find again to go on`;
    return { found, boxes: searched, steps, px: Math.round(moved), reachedEnd: false, stopped: found ? undefined : stopped, skipped, said: withSkipped(said), around: box.around };
  }

  function withSkipped(said: string): string {
    return skipped ? `${said}; ${skipped === 1 ? 'a box holding the field being typed in was' : `${skipped} boxes holding the field being typed in were`} left alone (finish typing first, e.g. with Tab)` : said;
  }
}
