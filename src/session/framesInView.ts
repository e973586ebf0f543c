/**
 * Where the frames of a page sit against what a viewport snapshot shows: the viewport with its band above and
 * below (region.ts). The load policy does not wait for what a frame outside it loads (traffic.ts): the snapshot
 * it returns cannot show that frame, and a page of embedded videos, maps or ads further down would otherwise
 * be held by its slowest embed.
 */
import type { Frame, Page } from 'playwright-core';
import { bandMargin } from '../snapshot/region.js';
import type { Traffic } from './traffic.js';

/** Runs in the page: true when the frame's element is shown and reaches into the band. */
function reachesBand(element: Element, margin: number): boolean {
  const r = element.getBoundingClientRect();
  if ((r.width === 0 && r.height === 0) || !element.checkVisibility()) return false;
  return !(r.bottom < -margin || r.top > innerHeight + margin || r.right <= 0 || r.left >= innerWidth);
}

/**
 * Looks up where each frame's element is and tells `traffic`. A frame whose element cannot be read in time
 * counts as in view: it is waited for, as before.
 */
export async function placeFrames(page: Page, frames: Frame[], traffic: Traffic): Promise<void> {
  const margin = bandMargin(page.viewportSize()?.height ?? 720);
  await Promise.all(
    frames.map(async (frame) => {
      const element = await frame.frameElement().catch(() => undefined);
      const inView = element ? await element.evaluate(reachesBand, margin).catch(() => true) : true;
      void element?.dispose().catch(() => {});
      traffic.placeFrame(frame, inView);
    }),
  );
}
