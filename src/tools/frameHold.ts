/**
 * An element inside a frame that a style sheet which never answers keeps from rendering (session/heldFrames.ts):
 * Playwright would wait for the frame to paint, and at the settle cap the frame is loaded again without the sheet,
 * which takes the element away from under the waiting action, so it ran out of time. The action waits for the
 * frame to be released instead (the sheet comes, is taken out, or the frame is loaded again without it), then
 * finds its element again in what the frame shows now. A frame left held on purpose (heldFrames says why) is
 * reported at once.
 */
import type { Frame, Locator } from 'playwright-core';
import { BrowserToolError } from '../errors.js';
import type { ResolvedRef } from '../refs.js';
import { sleep } from '../deadline.js';
import { heldBySheet, leftHeldBecause, parsedWithin, sheetsOnTheirWayInFrames } from '../loading/frameRelease.js';
import { hostOf } from '../loading/sites.js';
import type { CallContext } from './defineTool.js';

/** How often a held frame is looked at again (each look costs up to a second more while it is held). */
const LOOK_MS = 200;

/** `target` once its frame renders; when its frame was loaded again meanwhile, the same element found there. */
export async function afterFrameHold(call: CallContext, target: ResolvedRef, action: string): Promise<ResolvedRef> {
  const { page } = call;
  const traffic = call.session.tabs.eventsOf(page).traffic;
  // Only a frame's own style sheet still on its way holds it: nothing to look at on almost every action.
  if (!sheetsOnTheirWayInFrames(page, traffic)) return target;
  const frame = await elementFrame(target.locator, call.deadline.forStep());
  if (!frame || frame === page.mainFrame()) return target;
  // A frame out of view may run no animation frame, held or not (Chromium throttles it): it is brought into view
  // first, as the action would bring it.
  await intoView(frame, call.deadline.forStep());
  if (!(await heldBySheet(frame, traffic))) return target;

  for (;;) {
    if (frame.isDetached()) return call.refs.resolve(page, target.ref, action);
    if (!(await heldBySheet(frame, traffic))) {
      // Released where it stood (the sheet came, or was taken out): the element is still there.
      if ((await target.locator.count().catch(() => 0)) === 1) return target;
      // Loaded again: once the new document is parsed and renders, the element is looked for there.
      await parsedWithin(frame, Math.min(LOOK_MS * 5, call.deadline.forStep()));
      if (!(await heldBySheet(frame, traffic))) break;
    }
    const why = leftHeldBecause(frame);
    if (why) {
      throw new BrowserToolError('element_not_visible', `${action}: the frame it is in (${hostOf(frame.url())}) shows nothing: a style sheet it needs never answered, and the frame is left so because ${why}.`, {
        hint: `Act on the rest of the page, or open the frame's page on its own with browser_navigate (${frame.url()}).`,
        retryable: false,
      });
    }
    if (call.deadline.forStep() <= LOOK_MS) {
      throw new BrowserToolError('timeout', `${action}: the frame it is in (${hostOf(frame.url())}) has shown nothing yet: a style sheet it waits for has not answered.`, {
        hint: 'Retry in a few seconds: a frame held this way is loaded again without the sheet. Or act on the rest of the page.',
      });
    }
    await sleep(LOOK_MS);
  }
  const again = await call.refs.resolve(page, target.ref, action);
  const told = `${target.ref} is in a frame that showed nothing while a style sheet it needs did not answer. The frame was loaded again without the sheet, and the action went to ${again.ref === target.ref ? 'the same element' : again.ref} there.`;
  return { ...again, notices: [...target.notices, told, ...again.notices] };
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
