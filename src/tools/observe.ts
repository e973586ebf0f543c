/**
 * What an action caused: a navigation, a new tab, a dialog, a download, a validation message, and a
 * diff of the page. Wrapped around every action so each result says what happened without the model
 * asking for a snapshot.
 */
import type { Frame, Page, Request } from 'playwright-core';
import { z } from 'zod';
import { BrowserToolError, toBrowserToolError } from '../errors.js';
import { sleep } from '../deadline.js';
import { settle, settleAction } from '../loading/settle.js';
import { DOWNLOAD_EVENT_WAIT_MS } from '../session/tab.js';
import { stopLoading, unbornTabs } from '../loading/unstick.js';
import { currentDocumentId, type Capture } from '../snapshot/capture.js';
import { diffCaptures } from '../snapshot/diff.js';
import { stageSync } from '../stages.js';
import type { CallContext } from './defineTool.js';

export const loadingSchema = z
  .string()
  .optional()
  .describe('Requests still in flight when the snapshot was taken: the page may still change as they arrive.');

export const effectsShape = {
  url: z.string().describe('The URL of the active tab after the action.'),
  navigated: z.boolean().describe('True when the action loaded a new page: refs from before are no longer valid.'),
  changes: z
    .string()
    .optional()
    .describe('How the page changed: "+" appeared, "~" changed (new state shown), "-" disappeared. Refs of unchanged elements stay valid.'),
  snapshot: z.string().optional().describe('The new page, when the action loaded one or switched to a new tab.'),
  loading: loadingSchema,
  newTab: z
    .object({ url: z.string(), title: z.string() })
    .optional()
    .describe('A tab the action opened (target=_blank, window.open). It is now the active tab.'),
  dialogs: z
    .array(
      z.object({
        type: z.string(),
        message: z.string(),
        handled: z.enum(['accepted', 'dismissed', 'pending']),
        defaultValue: z.string().optional(),
      }),
    )
    .optional()
    .describe('Dialogs the action opened. "pending" ones wait for browser_dialog.'),
  downloads: z
    .array(z.object({ file: z.string(), path: z.string(), bytes: z.number().optional(), error: z.string().optional() }))
    .optional()
    .describe('Files the action downloaded, saved on disk.'),
  invalidFields: z
    .array(z.string())
    .optional()
    .describe('Form fields the browser rejected, with its validation message.'),
};

type EffectsSchema = z.ZodObject<typeof effectsShape>;
export type Effects = z.infer<EffectsSchema>;

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
    if (request && frame === page.mainFrame()) done();
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

/** The error for an action whose new page, in this tab or a new one, never came. */
function documentNeverCame(url: string, seconds: number, inNewTab: boolean): BrowserToolError {
  return new BrowserToolError(
    'timeout',
    inNewTab
      ? `The action opened a new tab for ${url}, whose server sent no page within ${seconds} s; that tab was closed.`
      : `The action started loading ${url}, whose server sent no page within ${seconds} s; the load was stopped.`,
    { hint: 'The server is slow or down. This tab still shows the page it showed before, and its refs still work. Retry once, or try another way.' },
  );
}

/** Fields the browser refused on submit (`:user-invalid`), named as a person would. */
async function invalidFields(page: Page): Promise<string[]> {
  return page
    .evaluate(() =>
      [...document.querySelectorAll(':user-invalid')].slice(0, 5).map((el) => {
        const field = el as HTMLInputElement;
        const label = field.labels?.[0]?.innerText?.trim() || field.getAttribute('aria-label') || field.name || field.placeholder || field.tagName.toLowerCase();
        return `${label}: ${field.validationMessage}`;
      }),
    )
    .catch(() => []);
}

export interface ObserveOptions {
  /** Report `:user-invalid` fields when the action did not leave the page (clicks and Enter can submit forms). */
  checkValidation?: boolean;
  /** The action is expected to open a tab (a target=_blank link): wait for it rather than the usual moment. */
  expectPopup?: boolean;
}

export async function observeAction(call: CallContext, action: () => Promise<unknown>, options: ObserveOptions = {}): Promise<Effects> {
  const { page, session, config, refs, deadline } = call;
  const events = session.tabs.eventsOf(page);
  const pagesBefore = new Set(session.tabs.all());
  const documentBefore = await currentDocumentId(page);
  const before: Capture | undefined = refs.lastCapture(page, documentBefore) ?? (await refs.snapshot(page).catch(() => undefined))?.capture;

  session.tabs.takePopups(); // anything opened earlier is reported by the tool call's notices, not as this action's tab
  const popup = nextPopup(page);
  const navigation = watchNavigation(page);
  const seconds = Math.round(config.navigationTimeout / 1000);
  // Hanging requests holding every connection to a server would hold the page the action may lead to as well.
  if (events.traffic.waits.holdsAllConnections()) await stopLoading(page);
  const began = Date.now();
  events.traffic.actionBegins();
  try {
    const outcome = await events.unlessDialogOpens(action()).catch((error: unknown) => {
      // The action waited for the page it started under its own time (Playwright's click waits for the commit;
      // history moves wait too) and ran out: the page gets what is left of a navigation's time below.
      if (navigation.stillWaiting() && toBrowserToolError(error).code === 'timeout') return { dialog: false as const };
      throw error;
    });
    if (outcome.dialog) return { url: page.url(), navigated: false, dialogs: events.takeDialogs() };
    // Clicks and Enter start navigations asynchronously; give them a moment to begin.
    await sleep(80);
    if (navigation.started()) {
      // The action led to a new page: it gets the time a navigation gets, counted from the page's request.
      const left = navigation.timeLeft(config.navigationTimeout);
      deadline.extend(left);
      await navigation.committed(Math.min(left, deadline.forStep()));
      const waiting = navigation.stillWaiting();
      if (waiting) {
        await stopLoading(page);
        // An action whose own time is longer than a navigation's (a `timeout` above `navigationTimeout`) waited longer.
        throw documentNeverCame(waiting, Math.max(seconds, navigation.secondsWaited()), false);
      }
    }
    // A tab still waiting for its first page (Chromium lists it; Playwright does not yet): it gets the time a
    // navigation gets, and is closed if its page does not come.
    const opening = navigation.tabOpening();
    const unborn = opening !== undefined && !popup.opened() && (await unbornTabs(page)) > 0;
    if (unborn) deadline.extend(config.navigationTimeout);
    if (unborn || options.expectPopup) {
      const opened = await popup.within(deadline.forStep());
      if (!opened && unborn && (await unbornTabs(page, { close: true }))) throw documentNeverCame(opening, seconds, true);
    }
  } finally {
    navigation.stop();
    popup.stop();
  }

  const effects: Effects = { url: page.isClosed() ? '' : page.url(), navigated: false };
  const dialogs = events.takeDialogs();
  if (dialogs.length) effects.dialogs = dialogs;
  const downloads = await events.takeDownloads();
  if (downloads.length) effects.downloads = downloads;

  const opened = session.tabs.takePopups()[0] ?? session.tabs.all().find((p) => !pagesBefore.has(p));
  if (opened) {
    session.tabs.activate(opened);
    const settled = await settle(opened, session.tabs.eventsOf(opened).traffic, deadline, config.settle, () => refs.capture(opened));
    effects.newTab = { url: opened.url(), title: await opened.title().catch(() => '') };
    effects.snapshot = (await refs.snapshot(opened, {}, settled.snapshot)).formatted.text;
    if (settled.loading) effects.loading = settled.loading;
    return effects;
  }
  if (page.isClosed()) return effects;

  const documentAfter = await currentDocumentId(page);
  effects.navigated = documentBefore !== undefined && documentAfter !== documentBefore;
  let early: Capture | undefined;
  if (effects.navigated) {
    const settled = await settle(page, events.traffic, deadline, config.settle, () => refs.capture(page));
    if (settled.loading) effects.loading = settled.loading;
    effects.url = page.url();
    early = settled.snapshot;
  } else await settleAction(events.traffic, began, deadline, config.settle);
  const after = await refs.snapshot(page, {}, early);
  if (effects.navigated || !before) {
    effects.snapshot = after.formatted.text;
    return effects;
  }
  const diff = stageSync('diff against previous capture', () => diffCaptures(before, after.capture));
  if (diff.text) effects.changes = diff.text;
  if (options.checkValidation) {
    const invalid = await invalidFields(page);
    if (invalid.length) effects.invalidFields = invalid;
  }
  return effects;
}
