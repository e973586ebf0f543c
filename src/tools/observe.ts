/**
 * What an action caused: a navigation, a new tab, a dialog. Wrapped around every action so each
 * result can say what happened without the model asking.
 */
import type { Page, Request } from 'playwright-core';
import { z } from 'zod';
import type { CallContext } from './defineTool.js';

export const effectsShape = {
  url: z.string().describe('The URL of the active tab after the action.'),
  navigated: z.boolean().describe('True when the action loaded a new page: refs from before are no longer valid.'),
  newTab: z
    .object({ url: z.string(), title: z.string() })
    .optional()
    .describe('A tab the action opened (target=_blank, window.open). It is now the active tab.'),
  dialogs: z
    .array(z.object({ type: z.string(), message: z.string(), handled: z.enum(['accepted', 'dismissed']) }))
    .optional()
    .describe('Dialogs (alert, confirm, prompt) the action opened, and how they were answered.'),
};

export interface Effects {
  url: string;
  navigated: boolean;
  newTab?: { url: string; title: string };
  dialogs?: Array<{ type: string; message: string; handled: 'accepted' | 'dismissed' }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Watches the main frame for a navigation during an action. Listeners are attached before the
 * action runs so that a fast page cannot finish loading before we look.
 */
function watchNavigation(page: Page) {
  let request: Request | undefined;
  let settled = false;
  let wake: () => void = () => {};
  const settle = () => {
    settled = true;
    wake();
  };
  const onRequest = (r: Request) => {
    if (!request && r.isNavigationRequest() && r.frame() === page.mainFrame()) request = r;
  };
  const onDomContentLoaded = () => {
    if (request) settle();
  };
  const onFailed = (r: Request) => {
    if (r === request) settle();
  };
  // A 204 response or a download never commits a new document.
  const onFinished = (r: Request) => {
    if (r === request) setTimeout(settle, 500);
  };
  page.on('request', onRequest);
  page.on('domcontentloaded', onDomContentLoaded);
  page.on('requestfailed', onFailed);
  page.on('requestfinished', onFinished);
  page.on('close', settle);
  return {
    started: () => request !== undefined,
    /** Resolves when the navigation committed a document, failed, or `timeout` passed. */
    settled: (timeout: number) =>
      settled ? Promise.resolve() : Promise.race([new Promise<void>((resolve) => (wake = resolve)), sleep(timeout)]),
    stop: () => {
      page.off('request', onRequest);
      page.off('domcontentloaded', onDomContentLoaded);
      page.off('requestfailed', onFailed);
      page.off('requestfinished', onFinished);
      page.off('close', settle);
    },
  };
}

const documentId = (page: Page) => page.evaluate(() => performance.timeOrigin).catch(() => undefined);

export async function observeAction(call: CallContext, action: () => Promise<void>): Promise<Effects> {
  const { page, session, config } = call;
  const pagesBefore = new Set(session.pages());
  const documentBefore = await documentId(page);
  const navigation = watchNavigation(page);
  try {
    await action();
    // Clicks and Enter start navigations asynchronously; give them a moment to begin.
    await sleep(80);
    if (navigation.started()) await navigation.settled(config.navigationTimeout);
  } finally {
    navigation.stop();
  }

  const effects: Effects = { url: page.isClosed() ? '' : page.url(), navigated: false };
  if (!page.isClosed()) {
    const documentAfter = await documentId(page);
    effects.navigated = documentBefore !== undefined && documentAfter !== documentBefore;
  }

  const opened = session.pages().find((p) => !pagesBefore.has(p));
  if (opened) {
    await opened.waitForLoadState('domcontentloaded', { timeout: config.navigationTimeout }).catch(() => {});
    effects.newTab = { url: opened.url(), title: await opened.title().catch(() => '') };
  }
  const dialogs = session.takeDialogs(page);
  if (dialogs.length) effects.dialogs = dialogs;
  return effects;
}
