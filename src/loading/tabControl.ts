/**
 * The moves the load policy makes on a tab itself: stop what it is loading (Chromium's stop button), ask whether
 * its renderer still answers (a renderer in an endless loop answers nothing), and wait for a navigation unless the
 * tab hangs meanwhile.
 */
import type { Page, Response } from 'playwright-core';
import { sleep, type Deadline } from '../deadline.js';
import { within } from '../within.js';
import type { OwnRequest } from './ownRequest.js';

/** True when the tab runs a trivial script within `ms`: a hung renderer (an endless loop) does not. */
export async function runsScript(page: Page, ms: number): Promise<boolean> {
  const ran = page.evaluate('1').then(
    () => true,
    () => false,
  );
  return (await within(ran, ms)) ?? false;
}

/**
 * True when the tab's renderer gives any answer to a trivial script within `ms`, a failure included (unlike
 * `runsScript`): a document being replaced as it is asked answers with one, and only a hung renderer says nothing.
 */
export async function rendererAnswers(page: Page, ms: number): Promise<boolean> {
  const answered = page.evaluate('1').then(
    () => true,
    () => true,
  );
  return (await within(answered, ms)) ?? false;
}

/**
 * How long a tab that may be hung is given to answer a trivial script. Generous: on a machine short of CPU a healthy
 * tab can take a second or two, and replacing it loses its page.
 */
export const HUNG_ANSWER_MS = 3_000;

/** Stops a load in progress (Chromium's stop button). A tab wedged by a load answers again at once. */
export async function stopLoading(page: Page): Promise<void> {
  if (page.isClosed()) return;
  try {
    const cdp = await page.context().newCDPSession(page);
    await Promise.race([cdp.send('Page.stopLoading'), sleep(2_000)]);
    void cdp.detach().catch(() => {});
  } catch {
    // not Chromium, or the tab is gone: nothing to stop
  }
}

/** Thrown out of `unlessHung` when the tab does not answer. */
export class TabHung extends Error {}

/** How long a navigation waits for its page before asking whether the tab still answers at all. */
const HUNG_CHECK_MS = 2_000;

/**
 * `going` (the navigation), unless its server has answered, the page has still not arrived a while later, and
 * the tab does not answer a trivial script either. Before the answer the tab's silence says nothing: while
 * Chromium awaits a document for it, a tab answers no script at all.
 */
export async function unlessHung(page: Page, going: Promise<Response | null>, own: OwnRequest, deadline: Deadline): Promise<Response | null> {
  let arrived = false;
  going.then(
    () => (arrived = true),
    () => (arrived = true),
  );
  const check = async () => {
    while (!arrived && !own.hasPage()) await sleep(100);
    await sleep(Math.min(HUNG_CHECK_MS, deadline.forStep() / 3));
    if (arrived || (await rendererAnswers(page, Math.min(HUNG_ANSWER_MS, deadline.forStep() / 3))) || arrived) return going;
    throw new TabHung();
  };
  return Promise.race([going, check()]);
}
