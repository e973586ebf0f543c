/**
 * Frames whose document has not begun to arrive are left out of a capture. Playwright's aria snapshot enters
 * every frame it shows and waits for that frame's document for as long as the capture may take: one ad frame
 * that never answers would cost the whole timeout and fail the snapshot. Such a frame has nothing to show yet,
 * so it is made invisible (`visibility: hidden`, which moves nothing on the page; `aria-hidden` alone does not
 * keep Playwright out) while the capture runs, and the snapshot names it as still loading instead (format.ts).
 * The next snapshot shows it once its document has come.
 */
import type { Frame } from 'playwright-core';
import type { Box, PageMetrics } from './capture.js';
import { NAME_LIMIT, quote, truncate } from './text.js';

/** A frame the capture left out, as the snapshot names it. */
export interface LoadingFrame {
  /** Its element's label or title, as its accessible name would be; "" when it has none. */
  name: string;
  /** Where its document is asked from. */
  host: string;
  /** Its box in the viewport, for a frame of the page's own document. */
  box?: Box;
}

interface Marked {
  name: string;
  box?: Box;
  /** The element's `style` attribute before we set it. */
  before: string | null;
}

/**
 * Runs in the page: hides the frame element (`restore` undefined), or gives it back its `style` attribute, and
 * returns the attribute as it was, with the element's name and box. Inside the change watch's `own`
 * (changes.ts), so the load policy does not take our mark for the page changing. Self-contained: it is sent as
 * source text.
 */
function markFrame(element: Element, { key, restore }: { key: string; restore?: { style: string | null } }): Marked {
  const watch = (window as unknown as Record<symbol, { own<T>(work: () => T): T } | undefined>)[Symbol.for(key)];
  const before = element.getAttribute('style');
  const style = (element as HTMLElement).style;
  // Bound rather than written as an arrow: a named inner function would need a helper the page lacks (inPage.ts).
  const set = !restore
    ? style.setProperty.bind(style, 'visibility', 'hidden', 'important')
    : restore.style === null
      ? element.removeAttribute.bind(element, 'style')
      : element.setAttribute.bind(element, 'style', restore.style);
  if (watch) watch.own(set);
  else set();
  const r = element.getBoundingClientRect();
  const name = element.getAttribute('aria-label') || element.getAttribute('title') || '';
  return { name, before, ...(window.parent === window ? { box: { x: r.x, y: r.y, width: r.width, height: r.height } } : {}) };
}

/**
 * Hides `frames` from the capture; `restore` gives their elements back their own style (not awaited by the
 * caller: the page runs it before any later script of ours).
 */
export async function hideLoadingFrames(frames: Array<{ frame: Frame; url: string }>, changesKey: string): Promise<{ frames: LoadingFrame[]; restore(): void }> {
  const marked = await Promise.all(
    frames.map(async ({ frame, url }) => {
      const element = await frame.frameElement().catch(() => undefined);
      const mark = await element?.evaluate(markFrame, { key: changesKey }).catch(() => undefined);
      return { element, mark, host: hostOf(url) };
    }),
  );
  return {
    frames: marked.filter(({ mark }) => mark).map(({ mark, host }) => ({ name: mark!.name, host, ...(mark!.box ? { box: mark!.box } : {}) })),
    restore() {
      for (const { element, mark } of marked) {
        if (!element) continue;
        void (mark ? element.evaluate(markFrame, { key: changesKey, restore: { style: mark.before } }) : Promise.resolve())
          .catch(() => {})
          .finally(() => element.dispose().catch(() => {}));
      }
    },
  };
}

/**
 * The frames a snapshot names: those with a box, in the band when `margin` is given (a viewport snapshot), and
 * those inside another frame, whose place is not known.
 */
export function framesToName(frames: LoadingFrame[] | undefined, metrics: PageMetrics, margin?: number): LoadingFrame[] {
  return (frames ?? []).filter(({ box }) => {
    if (!box) return true;
    if (box.width === 0 && box.height === 0) return false;
    return margin === undefined || (box.y + box.height >= -margin && box.y <= metrics.viewportHeight + margin && box.x + box.width > 0 && box.x < metrics.viewportWidth);
  });
}

/** 'still loading, not shown yet: frame "Map" (maps.example.com)', naming three frames at most. */
export function loadingFramesLine(frames: LoadingFrame[]): string {
  const named = frames.slice(0, 3).map(({ name, host }) => `frame${name ? ` ${quote(truncate(name, NAME_LIMIT))}` : ''} (${host})`);
  return `still loading, not shown yet: ${named.join(', ')}${frames.length > 3 ? ` and ${frames.length - 3} more` : ''}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url.slice(0, 40);
  } catch {
    return url.slice(0, 40);
  }
}
