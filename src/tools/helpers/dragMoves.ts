/**
 * A drag made the way a person makes one, so that the libraries behind sortable lists and boards take it:
 * press on the element, a few small moves to pass the library's start threshold, moves along the way, a hover
 * over the target while the list rearranges itself, release. Playwright's mouse turns these into HTML5 drag
 * events when the page starts a native drag, so one path serves both kinds of library.
 */
import type { Locator, Page } from 'playwright-core';
import { BrowserToolError } from '../../errors.js';
import { sleep } from '../../deadline.js';
import { gripOf } from './dragHandle.js';

/** Which side of the target the dragged element should end up on, in the order of its list. */
export type DropSide = 'before' | 'after';

interface Point {
  x: number;
  y: number;
}
type Box = { x: number; y: number; width: number; height: number };
type Axis = 'x' | 'y';

/** Distances (px) of the first moves after the press: libraries start a drag only past a few pixels. */
const START_MOVES = [2, 4, 7, 11];
/** Step along the way: short enough that the page sees the pointer pass over what lies between. */
const STEP_PX = 20;
/** Most steps on one stretch: across a long list the steps grow instead, as a person's hand speeds up. */
const MAX_STEPS = 12;
/** A frame: libraries that follow the pointer in animation frames see each move. */
const STEP_MS = 16;
/** While hovering, how often the target is measured; also longer than the 50 ms some libraries poll the pointer at. */
const HOVER_MS = 50;
/** The longest hover waiting for a list's items to come to rest after they moved. */
const HOVER_MAX_MS = 800;

const center = (box: Box): Point => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
const sameBox = (a: Box | null, b: Box | null) => !!a && !!b && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/**
 * The point `fraction` of the way across the target in both directions. Libraries that place by halves look at
 * one direction only, the one their list runs in; short of knowing it, the point is on the same side in both:
 * dropped at a quarter the element goes before the target, at three quarters after it.
 */
function pointIn(box: Box, fraction: number): Point {
  return { x: box.x + box.width * fraction, y: box.y + box.height * fraction };
}

/**
 * The side the dragged element takes when none is asked for: the target's place, as a person drops onto it
 * (after it when dragged down or right, before it when dragged up or left), and the drag's main direction.
 */
function defaultSide(from: Box, to: Box): { axis: Axis; side: DropSide } {
  const a = center(from);
  const b = center(to);
  const axis: Axis = Math.abs(b.x - a.x) > Math.abs(b.y - a.y) ? 'x' : 'y';
  return { axis, side: a[axis] <= b[axis] ? 'after' : 'before' };
}

export interface DragOptions {
  side?: DropSide;
  timeout: number;
  /** Told each time the page has taken a move of the pointer: the drag is going on, however slowly. */
  progress?: () => void;
}

/** Moves the pointer (the button held or not) and returns once the page has taken the move. */
type Move = (x: number, y: number) => Promise<void>;

export interface Dragged {
  /** Where over the target the button was let go: "its lower right" or "its upper left". */
  released: string;
  /** The element was held by a grip inside it or beside it rather than at its centre. */
  byGrip: boolean;
}

/** Drags `source` onto `target` with the mouse. */
export async function dragLikeAPerson(page: Page, source: Locator, target: Locator, options: DragOptions): Promise<Dragged> {
  const { timeout } = options;
  await target.scrollIntoViewIfNeeded({ timeout });
  // Hover first: Playwright's checks (visible, stable, not covered) before the button goes down.
  await source.hover({ timeout });
  const from = await boxOf(source, timeout);
  const grip = await gripOf(source);
  if (grip) await grip.hover({ timeout });
  const hold = grip ? await grip.boundingBox() : from;
  await grip?.dispose();
  let to = await boxOf(target, timeout);
  const { axis, side: natural } = defaultSide(from, to);
  const side = options.side ?? natural;
  // Entering the target at one quarter and finishing at the other, on the chosen side, makes the last move go
  // towards that side: swap-on-enter lists (SortableJS) and place-by-halves ones (dragula, jQuery UI, most HTML5
  // boards) then agree on where the element lands.
  const [entry, exit] = side === 'after' ? [0.25, 0.75] : [0.75, 0.25];
  const forward = side === 'after' ? 1 : -1;

  const move: Move = async (x, y) => {
    await page.mouse.move(x, y);
    options.progress?.();
  };
  let at = center(hold ?? from);
  await move(at.x, at.y);
  await page.mouse.down();
  try {
    // The drag starts before any scrolling: a page scrolled under a pressed button starts no drag.
    at = await moveAlong(move, at, pointIn(to, entry), START_MOVES, true);
    to = await inView(page, target, to, timeout);
    at = await moveAlong(move, at, pointIn(to, entry));
    to = await hover(move, target, at, axis, timeout);
    // A list that moved the element past the target already (it took the target's place on entering) leaves the
    // far quarter behind the pointer in the list's direction: moving back would undo it.
    const aim = pointIn(to, exit);
    const dx = (aim.x - at.x) * forward;
    const dy = (aim.y - at.y) * forward;
    if (dx >= 0 && dy >= 0 && dx + dy > 0) {
      at = await moveAlong(move, at, aim);
      await hover(move, target, at, axis, timeout);
    }
  } finally {
    // A page that closed or left during the drag has no button to let go of; the error that ended it says more.
    await page.mouse.up().catch(() => {});
  }
  return { released: side === 'after' ? 'its lower right' : 'its upper left', byGrip: !!grip };
}

async function boxOf(locator: Locator, timeout: number): Promise<Box> {
  const box = await locator.boundingBox({ timeout });
  if (!box) throw new BrowserToolError('element_not_visible', 'An element of the drag went out of sight during it (hidden or removed by the page).');
  return box;
}

/** Brings a target that is off screen into view while the button is held, as a person scrolls mid-drag. */
async function inView(page: Page, target: Locator, box: Box, timeout: number): Promise<Box> {
  const viewport = page.viewportSize() ?? (await page.evaluate(() => ({ width: innerWidth, height: innerHeight })));
  const onPage = box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width;
  // Inside a frame, the frame's own window may hide it while the page shows the frame.
  const inItsWindow = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  });
  if (onPage && inItsWindow) return box;
  await target.evaluate((el) => el.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
  return boxOf(target, timeout);
}

/**
 * Moves from `at` towards `to`: first by the small `first` distances, then in even steps (STEP_PX, longer when
 * that would take more than MAX_STEPS) to `to`, or, with `firstOnly`, no further than the small moves. Returns
 * where the pointer is.
 */
async function moveAlong(move: Move, at: Point, to: Point, first: number[] = [], firstOnly = false): Promise<Point> {
  const dx = to.x - at.x;
  const dy = to.y - at.y;
  const distance = Math.hypot(dx, dy);
  const stops = first.filter((d) => d < distance);
  const from = stops.at(-1) ?? 0;
  const steps = firstOnly ? 0 : Math.min(MAX_STEPS, Math.max(1, Math.ceil((distance - from) / STEP_PX)));
  for (let i = 1; i <= steps; i++) stops.push(from + ((distance - from) * i) / steps);
  let now = at;
  for (const d of stops) {
    const f = distance ? d / distance : 1;
    now = { x: at.x + dx * f, y: at.y + dy * f };
    await move(now.x, now.y);
    await sleep(STEP_MS);
  }
  return now;
}

/**
 * Holds the pointer over the target, nudging it a pixel across the drag's line so that the page keeps hearing
 * it, until the target stops moving (a list animates its items into their new places). Returns where it is.
 */
async function hover(move: Move, target: Locator, at: Point, axis: Axis, timeout: number): Promise<Box> {
  let last: Box | null = null;
  for (let waited = 0; waited < HOVER_MAX_MS; waited += HOVER_MS) {
    const nudge = (waited / HOVER_MS) % 2;
    await move(at.x + (axis === 'y' ? nudge : 0), at.y + (axis === 'x' ? nudge : 0));
    await sleep(HOVER_MS);
    const box = await target.boundingBox({ timeout });
    if (sameBox(box, last)) return box!;
    last = box ?? last;
  }
  return last ?? boxOf(target, timeout);
}
