/**
 * Running an action and waiting for what it causes: a navigation (its document is given the time a navigation
 * gets, counted from its request, and stopped when it does not come), a tab it opens, a dialog that freezes the
 * page. What happened is returned as data; when the page is usable after it is the load policy's (settle.ts).
 */
import type { Frame, Page, Request } from 'playwright-core';
import { sleep, type Deadline } from '../deadline.js';
import { toBrowserToolError } from '../errors.js';
import { DOWNLOAD_EVENT_WAIT_MS } from './outcome.js';
import type { LoadingTab } from './tabLoading.js';
import { stopLoading } from './tabControl.js';

/** The action's own outcome, before the page settles. */
export type ActionRun =
  /** A dialog opened and froze the page: the action finishes in the background once it is answered. */
  | { kind: 'dialog' }
  /** The action ran; `began` is when, for the settle after it; `navigated`: the tab committed a new document meanwhile. */
  | { kind: 'done'; began: number; navigated: boolean }
  /** The action started loading a page (in this tab, or a tab it opened) whose server sent none in time: stopped, or that tab closed. */
  | { kind: 'neverCame'; url: string; seconds: number; inNewTab: boolean };

export interface ActionOptions {
  deadline: Deadline;
  /** A navigation's time (the config's `navigationTimeout`): what a page the action leads to gets. */
  navigationTimeout: number;
  /** The action is expected to open a tab (a target=_blank link): wait for it rather than the usual moment. */
  expectPopup?: boolean;
}

/**
 * Runs `action` in `tab` and waits for what it starts: a new document in the tab (until it commits), or a new
 * tab (until Playwright shows it). A tab waiting for its first page that does not come is closed.
 */
export async function runAction(tab: LoadingTab, action: () => Promise<unknown>, { deadline, navigationTimeout, expectPopup }: ActionOptions): Promise<ActionRun> {
  const page = tab.page;
  const traffic = tab.loading.traffic;
  const popup = nextPopup(page);
  const navigation = watchNavigation(page);
  const seconds = Math.round(navigationTimeout / 1000);
  // Hanging requests holding every connection to a server would hold the page the action may lead to as well.
  if (traffic.waits.holdsAllConnections()) await stopLoading(page);
  const began = Date.now();
  traffic.actionBegins();
  try {
    const outcome = await tab.loading.unlessDialogOpens(action()).catch((error: unknown) => {
      // The action waited for the page it started under its own time (Playwright's click waits for the commit;
      // history moves wait too) and ran out: the page gets what is left of a navigation's time below.
      if (navigation.stillWaiting() && toBrowserToolError(error).code === 'timeout') return { dialog: false as const };
      throw error;
    });
    if (outcome.dialog) return { kind: 'dialog' };
    // Clicks and Enter start navigations asynchronously; give them a moment to begin.
    await sleep(80);
    if (navigation.started()) {
      // The action led to a new page: it gets the time a navigation gets, counted from the page's request.
      const left = navigation.timeLeft(navigationTimeout);
      deadline.extend(left);
      await navigation.committed(Math.min(left, deadline.forStep()));
      const waiting = navigation.stillWaiting();
      if (waiting) {
        await stopLoading(page);
        // An action whose own time is longer than a navigation's (a `timeout` above `navigationTimeout`) waited longer.
        return { kind: 'neverCame', url: waiting, seconds: Math.max(seconds, navigation.secondsWaited()), inNewTab: false };
      }
    }
    // A tab still waiting for its first page (Chromium lists it; Playwright does not yet): it gets the time a
    // navigation gets, and is closed if its page does not come.
    const opening = navigation.tabOpening();
    const unborn = opening !== undefined && !popup.opened() && (await unbornTabs(page)) > 0;
    if (unborn) deadline.extend(navigationTimeout);
    if (unborn || expectPopup) {
      const opened = await popup.within(deadline.forStep());
      if (!opened && unborn && (await unbornTabs(page, { close: true }))) return { kind: 'neverCame', url: opening, seconds, inNewTab: true };
    }
  } finally {
    navigation.stop();
    popup.stop();
  }
  return { kind: 'done', began, navigated: navigation.committedDocument() };
}

/**
 * Watches the main frame for a navigation during an action, and the context for a tab the action opens.
 * Listeners are attached before the action runs so that a fast page cannot finish loading before we look.
 */
function watchNavigation(page: Page) {
  let request: Request | undefined;
  let requestedAt = 0;
  /** The first document of a tab the action opened: Playwright shows the tab only once it has committed. */
  let tabRequest: Request | undefined;
  let settled = false;
  let committed = false;
  let wake: () => void = () => {};
  const done = () => {
    settled = true;
    wake();
  };
  const onRequest = (r: Request) => {
    if (request || !r.isNavigationRequest() || r.frame() !== page.mainFrame()) return;
    request = r;
    requestedAt = Date.now();
  };
  const onContextRequest = (r: Request) => {
    if (!tabRequest && r.isNavigationRequest() && !r.serviceWorker() && !frameKnown(r)) tabRequest = r;
  };
  // The new document committed: from here the load policy decides when the page is usable.
  const onNavigated = (frame: Frame) => {
    if (!request || frame !== page.mainFrame()) return;
    committed = true;
    done();
  };
  // A navigation that turns into a download is aborted, and the download event follows it: wait for it (the
  // event ends the wait) so the action's result reports the file. Other aborted navigations are rare (the
  // allowlist blocks with its own code).
  const onFailed = (r: Request) => {
    if (r === request) /ERR_ABORTED/.test(r.failure()?.errorText ?? '') ? setTimeout(done, DOWNLOAD_EVENT_WAIT_MS) : done();
  };
  // A 204 response or a download never commits a new document.
  const onFinished = (r: Request) => {
    if (r === request) setTimeout(done, 500);
  };
  page.on('request', onRequest);
  page.context().on('request', onContextRequest);
  page.on('framenavigated', onNavigated);
  page.on('requestfailed', onFailed);
  page.on('requestfinished', onFinished);
  page.on('download', done);
  page.on('close', done);
  return {
    started: () => request !== undefined,
    /** True once the navigation committed its document. */
    committedDocument: () => committed,
    /** Whole seconds since the navigation's request began. */
    secondsWaited: () => Math.floor((Date.now() - requestedAt) / 1000),
    /** What is left of `ms` since the navigation's request began. */
    timeLeft: (ms: number) => Math.max(0, ms - (Date.now() - requestedAt)),
    /** The address of a navigation that began and has neither committed nor ended: its document has not come. */
    stillWaiting: () => (request && !settled ? request.url() : undefined),
    /** The address of a tab the action opened, once its first document was asked for. */
    tabOpening: () => tabRequest?.url(),
    /** Resolves when the navigation committed a document, failed, or `timeout` passed. */
    committed: (timeout: number) => (settled ? Promise.resolve() : Promise.race([new Promise<void>((resolve) => (wake = resolve)), sleep(timeout)])),
    stop: () => {
      page.off('request', onRequest);
      page.context().off('request', onContextRequest);
      page.off('framenavigated', onNavigated);
      page.off('requestfailed', onFailed);
      page.off('requestfinished', onFinished);
      page.off('download', done);
      page.off('close', done);
    },
  };
}

/** False for the first document of a tab Playwright does not show yet (its frame does not exist for it). */
function frameKnown(request: Request): boolean {
  try {
    request.frame();
    return true;
  } catch {
    return false;
  }
}

/** The tab `page` opens next: `within(ms)` resolves with it, or undefined after `ms`. */
function nextPopup(page: Page): { opened(): boolean; within(ms: number): Promise<Page | undefined>; stop(): void } {
  let opened: Page | undefined;
  let wake: () => void = () => {};
  const onPopup = (popup: Page) => {
    opened ??= popup;
    wake();
  };
  page.on('popup', onPopup);
  return {
    opened: () => opened !== undefined,
    within: async (ms) => {
      if (!opened) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), sleep(ms)]);
      return opened;
    },
    stop: () => page.off('popup', onPopup),
  };
}

/**
 * Counts the tabs `opener` opened whose first page has not arrived, and closes them when `close` is set.
 * Playwright shows a new tab only once its first document commits, so such a tab cannot be reached any other
 * way; Chromium lists it with no URL yet.
 */
async function unbornTabs(opener: Page, { close = false } = {}): Promise<number> {
  if (opener.isClosed()) return 0;
  try {
    const cdp = await opener.context().newCDPSession(opener);
    try {
      const self = (await cdp.send('Target.getTargetInfo')).targetInfo.targetId;
      const { targetInfos } = await cdp.send('Target.getTargets');
      const unborn = targetInfos.filter((target) => target.type === 'page' && target.openerId === self && target.url === '');
      if (close) await Promise.all(unborn.map((target) => cdp.send('Target.closeTarget', { targetId: target.targetId }).catch(() => {})));
      return unborn.length;
    } finally {
      void cdp.detach().catch(() => {});
    }
  } catch {
    return 0; // not Chromium, or the opener is gone
  }
}
