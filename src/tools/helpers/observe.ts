/**
 * What an action caused: a navigation, a new tab, a dialog, a download, a validation message, and a
 * diff of the page. Wrapped around every action so each result says what happened without the model
 * asking for a snapshot.
 */
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { eventOf } from '../../files/downloads.js';
import { runAction, settle, settleAction } from '../../loading/index.js';
import { currentDocumentId, diffCaptures, type Capture } from '../../snapshot/index.js';
import { stageSync } from '../../stages.js';
import type { CallContext } from '../defineTool.js';
import { openingOf, shownDocument } from './fileReading.js';
import { noteRead } from './scrollView.js';

/** How long an action waits for a file it downloaded to be saved before answering with it listed as downloading. */
const DOWNLOAD_SAVE_WAIT_MS = 5_000;

export const loadingSchema = z
  .string()
  .optional()
  .describe('Requests still in flight when the snapshot was taken: the page may still change as they arrive.');

export const effectsShape = {
  url: z.string().describe('The URL of the active tab after the action.'),
  navigated: z.boolean().describe('True when the action loaded a new page: refs from before are no longer valid.'),
  urlChanged: z.boolean().describe('True when the address changed: a new page, or a route change within the page.'),
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
    .array(
      z.object({
        file: z.string().describe('Its short name: browser_read { file } reads it, browser_upload takes it.'),
        path: z.string(),
        type: z.string().optional(),
        bytes: z.number().optional(),
        downloading: z.literal(true).optional(),
        error: z.string().optional(),
      }),
    )
    .optional()
    .describe('Files the action downloaded, kept for this session.'),
  file: z
    .string()
    .optional()
    .describe('A document the call opened (a PDF, a CSV, a text file), read like a page: its first part, and the call that reads on.'),
  invalidFields: z
    .array(z.string())
    .optional()
    .describe('Form fields the browser rejected, with its validation message.'),
};

type EffectsSchema = z.ZodObject<typeof effectsShape>;
export type Effects = z.infer<EffectsSchema>;

/** The error for an action whose new page, in this tab or a new one, never came. */
export function documentNeverCame(url: string, seconds: number, inNewTab: boolean): BrowserToolError {
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
  const { tab, session, config, deadline } = call;
  const { page, refs } = tab;
  const tabsBefore = new Set(session.tabs.all());
  const documentBefore = await currentDocumentId(page);
  const urlBefore = page.url();
  const before: Capture | undefined = refs.lastCapture(documentBefore) ?? (await refs.snapshot().catch(() => undefined))?.capture;

  session.tabs.takePopups(); // anything opened earlier is reported by the tool call's notices, not as this action's tab
  const run = await runAction(tab, action, { deadline, navigationTimeout: config.navigationTimeout, expectPopup: options.expectPopup });
  if (run.kind === 'dialog') return { url: page.url(), navigated: false, urlChanged: page.url() !== urlBefore, dialogs: tab.takeDialogs() };
  if (run.kind === 'neverCame') throw documentNeverCame(run.url, run.seconds, run.inNewTab);

  const effects: Effects = { url: page.isClosed() ? '' : page.url(), navigated: false, urlChanged: false };
  const dialogs = tab.takeDialogs();
  if (dialogs.length) effects.dialogs = dialogs;
  // A download still being saved after a few seconds is listed as downloading: the action has answered.
  const downloads = await tab.takeDownloads(Math.min(DOWNLOAD_SAVE_WAIT_MS, deadline.forStep()));
  if (downloads.length) effects.downloads = downloads;
  const opening = await openingOf(call, downloads);
  if (opening) effects.file = opening.file;

  const opened = session.tabs.takePopups()[0] ?? session.tabs.all().find((other) => !tabsBefore.has(other));
  if (opened) {
    session.tabs.activate(opened);
    const settled = await settle(opened, deadline, config.settle, () => opened.refs.capture());
    effects.newTab = { url: opened.page.url(), title: await opened.page.title().catch(() => '') };
    const shown = await opened.refs.snapshot({}, settled.snapshot);
    effects.snapshot = shown.formatted.text;
    noteRead(opened, shown.capture.documentId, effects.snapshot);
    if (settled.loading) effects.loading = settled.loading;
    return effects;
  }
  if (page.isClosed()) return effects;

  const documentAfter = await currentDocumentId(page);
  effects.navigated = documentBefore !== undefined && documentAfter !== documentBefore;
  let early: Capture | undefined;
  if (effects.navigated) {
    const settled = await settle(tab, deadline, config.settle, () => refs.capture());
    if (settled.loading) effects.loading = settled.loading;
    effects.url = page.url();
    early = settled.snapshot;
    // A link to a PDF that Chromium shows in its viewer: read like the page it is.
    const shown = await shownDocument(call);
    if (shown) {
      effects.downloads = [...(effects.downloads ?? []), eventOf(shown)];
      effects.file = (await openingOf(call, [eventOf(shown)]))?.file;
    }
  } else await settleAction(tab, run.began, deadline, config.settle);
  const after = await refs.snapshot({}, early);
  // Read after the page settled: a route change (pushState) often follows the click's first answer.
  effects.url = page.url();
  effects.urlChanged = effects.url !== urlBefore;
  if (effects.navigated || !before) {
    effects.snapshot = after.formatted.text;
    noteRead(tab, after.capture.documentId, effects.snapshot);
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
