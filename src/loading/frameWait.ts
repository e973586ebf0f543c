/**
 * An element inside a frame that a style sheet which never answers keeps from rendering (frameRelease.ts):
 * Playwright would wait for the frame to paint, and at the settle cap the frame is loaded again without the sheet,
 * which takes the element away from under the waiting action, so it ran out of time. The action waits for the
 * frame to be released instead (the sheet comes, is taken out, or the frame is loaded again without it), then
 * finds its element again in what the frame shows now (the caller resolves its ref again). A frame left held on purpose (frameRelease.ts says why) is
 * reported at once.
 */
import type { Frame, Locator } from 'playwright-core';
import { BrowserToolError } from '../errors.js';
import { sleep, type Deadline } from '../deadline.js';
import { heldBySheet, leftHeldBecause, parsedWithin, sheetsOnTheirWayInFrames } from './frameRelease.js';
import { hostOf } from './sites.js';
import type { LoadingTab } from './tabLoading.js';

/** How often a held frame is looked at again (each look costs up to a second more while it is held). */
const LOOK_MS = 200;

/**
 * Waits until the frame of the element `locator` finds renders. `unchanged`: it rendered all along, or was
 * released where it stood, and the element is still there; `replaced`: its frame was loaded again (or went), so
 * the element must be looked for anew; `reloaded`: it was loaded again without what held it, which the agent
 * should be told. Throws when the frame is left held, or the deadline comes first.
 */
export async function untilFrameRenders(tab: LoadingTab, locator: Locator, action: string, deadline: Deadline): Promise<'unchanged' | 'replaced' | 'reloaded'> {
  const page = tab.page;
  const traffic = tab.loading.traffic;
  // Only a frame's own style sheet still on its way holds it: nothing to look at on almost every action.
  if (!sheetsOnTheirWayInFrames(page, traffic)) return 'unchanged';
  const frame = await elementFrame(locator, deadline.forStep());
  if (!frame || frame === page.mainFrame()) return 'unchanged';
  // A frame out of view may run no animation frame, held or not (Chromium throttles it): it is brought into view
  // first, as the action would bring it.
  await intoView(frame, deadline.forStep());
  if (!(await heldBySheet(frame, traffic))) return 'unchanged';

  for (;;) {
    if (frame.isDetached()) return 'replaced';
    if (!(await heldBySheet(frame, traffic))) {
      // Released where it stood (the sheet came, or was taken out): the element is still there.
      if ((await locator.count().catch(() => 0)) === 1) return 'unchanged';
      // Loaded again: once the new document is parsed and renders, the element is looked for there.
      await parsedWithin(frame, Math.min(LOOK_MS * 5, deadline.forStep()));
      if (!(await heldBySheet(frame, traffic))) return 'reloaded';
    }
    const why = leftHeldBecause(frame);
    if (why) {
      throw new BrowserToolError('element_not_visible', `${action}: the frame it is in (${hostOf(frame.url())}) shows nothing: a style sheet it needs never answered, and the frame is left so because ${why}.`, {
        hint: `Act on the rest of the page, or open the frame's page on its own with browser_navigate (${frame.url()}).`,
        retryable: false,
      });
    }
    if (deadline.forStep() <= LOOK_MS) {
      throw new BrowserToolError('timeout', `${action}: the frame it is in (${hostOf(frame.url())}) has shown nothing yet: a style sheet it waits for has not answered.`, {
        hint: 'Retry in a few seconds: a frame held this way is loaded again without the sheet. Or act on the rest of the page.',
      });
    }
    await sleep(LOOK_MS);
  }
}

/** The frame the element sits in. */
async function elementFrame(locator: Locator, timeout: number): Promise<Frame | undefined> {
  const handle = await locator.elementHandle({ timeout: Math.min(timeout, 1_000) }).catch(() => null);
  if (!handle) return undefined;
  try {
    return (await handle.ownerFrame()) ?? undefined;
  } catch {
    return undefined;
  } finally {
    void handle.dispose().catch(() => {});
  }
}

/** Scrolls the element that holds `frame` into view, if it is not. */
async function intoView(frame: Frame, timeout: number): Promise<void> {
  const element = await frame.frameElement().catch(() => undefined);
  if (!element) return;
  await element.scrollIntoViewIfNeeded({ timeout: Math.min(timeout, 1_000) }).catch(() => {});
  void element.dispose().catch(() => {});
}
