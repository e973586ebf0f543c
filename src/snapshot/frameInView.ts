/**
 * Is a frame within what a viewport snapshot shows: its element on screen, or within the band's margin above
 * and below it (region.ts)? The warm-up builds capture helpers only for such frames (warmUp.ts), and the load
 * policy waits only for such frames (loading/settle.ts): a snapshot of the screen cannot show the others.
 * A frame without a box (hidden) is not; rejects when the frame's element cannot be read (detached).
 */
import type { Frame, Page } from 'playwright-core';
import { bandMargin, boxInBand } from './region.js';

export async function frameInView(page: Page, frame: Frame): Promise<boolean> {
  const element = await frame.frameElement();
  try {
    const box = await element.boundingBox();
    const viewport = page.viewportSize();
    if (!box || !viewport || box.width === 0 || box.height === 0) return false;
    return boxInBand(box, viewport, bandMargin(viewport.height));
  } finally {
    void element.dispose().catch(() => {});
  }
}
