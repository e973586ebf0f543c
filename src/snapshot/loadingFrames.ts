/**
 * Frames still loading, and what a snapshot says of them.
 *
 * Frames whose document has not begun to arrive are left out of a capture. Playwright's aria snapshot enters
 * every frame it shows and waits for that frame's document for as long as the capture may take: one ad frame
 * that never answers would cost the whole timeout and fail the snapshot. Such a frame has nothing to show yet,
 * so it is made invisible (`visibility: hidden`, which moves nothing on the page; `aria-hidden` alone does not
 * keep Playwright out) while the capture runs, and the snapshot names it as still loading instead (format.ts).
 * The next snapshot shows it once its document has come.
 *
 * A frame whose document has come but is not parsed yet is captured as far as its parser has reached, and named
 * as shown in part: its parser may be held by a script or style sheet that does not answer, until the frame is
 * loaded again without it (loading/frameRelease.ts), and the model should know that more is to come.
 */
import type { Frame } from 'playwright-core';
import { within } from '../within.js';
import type { Box, LoadingFrame, PageMetrics } from './tree.js';
import { boxInBand } from './region.js';
import { NAME_LIMIT, quote, truncate } from './textLimits.js';

/** The frame element's style attribute before we hid it, and its `visibility` property. */
interface Visibility {
  value: string;
  priority: string;
  attribute: string | null;
  /** The attribute as our change left it: when it still reads so, the page did not touch it meanwhile. */
  hidden?: string | null;
}

interface Marked {
  name: string;
  box?: Box;
  before: Visibility;
}

/**
 * Runs in the page: hides the frame element (`restore` undefined), or gives it back its style, and returns the
 * style as it was, with the element's name and box. The style attribute comes back as it was; if the page
 * changed it meanwhile, only `visibility` is put back, so the page's change stays. Inside the change watch's
 * `own` (changes.ts), so the load policy does not take our mark for the page changing. Self-contained: it is
 * sent as source text, and has no named inner function (inPage.ts).
 */
function markFrame(element: Element, { key, restore }: { key: string; restore?: Visibility }): Marked {
  const watch = (window as unknown as Record<symbol, { own(work: () => void): void } | undefined>)[Symbol.for(key)];
  const style = (element as HTMLElement).style;
  const before: Visibility = { value: style.getPropertyValue('visibility'), priority: style.getPropertyPriority('visibility'), attribute: element.getAttribute('style') };
  const own = watch ? watch.own.bind(watch) : (work: () => void) => work();
  own(() => {
    if (!restore) style.setProperty('visibility', 'hidden', 'important');
    else if (element.getAttribute('style') === restore.hidden) {
      if (restore.attribute === null) element.removeAttribute('style');
      else element.setAttribute('style', restore.attribute);
    } else if (restore.value) style.setProperty('visibility', restore.value, restore.priority);
    else style.removeProperty('visibility');
  });
  if (!restore) before.hidden = element.getAttribute('style');
  const r = element.getBoundingClientRect();
  const name = element.getAttribute('aria-label') || element.getAttribute('title') || '';
  return { name, before, ...(window.parent === window ? { box: { x: r.x, y: r.y, width: r.width, height: r.height } } : {}) };
}

/**
 * Hides `frames` from the capture; `restore` gives their elements back their own visibility (not awaited by
 * the caller: the page runs it before any later script of ours).
 */
export async function hideLoadingFrames(frames: Array<{ frame: Frame; host: string }>, changesKey: string): Promise<{ frames: LoadingFrame[]; restore(): void }> {
  const marked = await Promise.all(
    frames.map(async ({ frame, host }) => {
      const element = await frame.frameElement().catch(() => undefined);
      const mark = await element?.evaluate(markFrame, { key: changesKey }).catch(() => undefined);
      // Inside another frame, its box in the page's viewport comes from Playwright (one more round trip).
      // None means no layout box (hidden): nothing a snapshot could show.
      if (mark && !mark.box) mark.box = await element!.boundingBox().then((box) => box ?? { x: 0, y: 0, width: 0, height: 0 }, () => undefined);
      return { element, mark, host };
    }),
  );
  return {
    frames: marked.filter(({ mark }) => mark).map(({ mark, host }) => ({ name: mark!.name, host, ...(mark!.box ? { box: mark!.box } : {}) })),
    restore() {
      for (const { element, mark } of marked) {
        if (!element) continue;
        void (mark ? element.evaluate(markFrame, { key: changesKey, restore: mark.before }) : Promise.resolve())
          .catch(() => {})
          .finally(() => element.dispose().catch(() => {}));
      }
    },
  };
}

/** Runs in the frame's parent: the frame element's name, and its box when the parent is the page. Self-contained (inPage.ts). */
function frameLabel(element: Element): { name: string; box?: Box } {
  const r = element.getBoundingClientRect();
  const name = element.getAttribute('aria-label') || element.getAttribute('title') || '';
  return { name, ...(window.parent === window ? { box: { x: r.x, y: r.y, width: r.width, height: r.height } } : {}) };
}

/**
 * Names `frames` and finds their place, leaving them as they are. A frame whose element cannot be read in
 * `LABEL_MS` (its parent frame is busy or hung) is left out: the capture does not wait on it.
 */
export async function labelFrames(frames: Array<{ frame: Frame; host: string }>): Promise<LoadingFrame[]> {
  const labelled = await Promise.all(frames.map(({ frame, host }) => within(label(frame, host), LABEL_MS)));
  return labelled.filter((frame): frame is LoadingFrame => !!frame);
}

/** How long a frame's name and place are waited for. */
const LABEL_MS = 1_000;

async function label(frame: Frame, host: string): Promise<LoadingFrame | undefined> {
  const element = await frame.frameElement().catch(() => undefined);
  if (!element) return undefined;
  try {
    const read = await element.evaluate(frameLabel).catch(() => undefined);
    // Inside another frame, its box in the page's viewport comes from Playwright (one more round trip).
    if (read && !read.box) read.box = await element.boundingBox().then((box) => box ?? { x: 0, y: 0, width: 0, height: 0 }, () => undefined);
    return read && { name: read.name, host, ...(read.box ? { box: read.box } : {}) };
  } finally {
    void element.dispose().catch(() => {});
  }
}

/**
 * The frames a snapshot names: those that show (a box with width and height, as frameInView.ts counts them), in
 * the band when `margin` is given (a viewport snapshot), and those whose place could not be read.
 */
export function framesToName(frames: LoadingFrame[] | undefined, metrics: PageMetrics, margin?: number): LoadingFrame[] {
  return (frames ?? []).filter(({ box }) => {
    if (!box) return true; // where it sits is not known: say so rather than leave it out
    if (box.width === 0 || box.height === 0) return false; // hidden, or a tracker's frame of no width
    return margin === undefined || boxInBand(box, { width: metrics.viewportWidth, height: metrics.viewportHeight }, margin);
  });
}

/**
 * 'still loading, not shown yet: frame "Map" (maps.example.com)' for frames left out, 'still loading, shown in
 * part so far: …' for frames being parsed; three frames named at most.
 */
export function loadingFramesLine(frames: LoadingFrame[], shown: 'not shown yet' | 'shown in part so far' = 'not shown yet'): string {
  const named = frames.slice(0, 3).map(({ name, host }) => `frame${name ? ` ${quote(truncate(name, NAME_LIMIT))}` : ''} (${host})`);
  return `still loading, ${shown}: ${named.join(', ')}${frames.length > 3 ? ` and ${frames.length - 3} more` : ''}`;
}
