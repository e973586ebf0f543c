/**
 * Files as the tools see them: a download found by its short name, read in parts (files/reader.ts), and a
 * document a call opened (a PDF link, a CSV served as a file) given in the call's result like a page: its first
 * part and the call that reads on. A PDF that Chromium shows in its own viewer (Chrome and Debian's Chromium
 * have one; the headless shell downloads instead) is fetched into the downloads the same way, so both read alike.
 */
import type { Frame, Page } from 'playwright-core';
import { BrowserToolError } from '../../errors.js';
import { eventOf, type DownloadEntry, type DownloadEvent } from '../../files/downloads.js';
import { readDownload, type FileRead } from '../../files/reader.js';
import { articleMarkdown } from './article.js';
import type { CallContext } from '../defineTool.js';

/** The part size of browser_read's default, for the first part a result gives: the next call reads on from it. */
export const READ_TOKENS = 2_000;

/** How long a read waits for a file still being saved before saying so. */
const SAVE_WAIT_MS = 5_000;

/** Kinds read as a document in a call's result; an image, an archive or a binary is only listed. */
const DOCUMENTS = new Set(['pdf', 'csv', 'tsv', 'json', 'text', 'html']);

export function findDownload(call: Pick<CallContext, 'session'>, name: string): DownloadEntry {
  const entry = call.session.downloads.get(name);
  if (entry) return entry;
  const names = call.session.downloads.list().map((e) => e.name);
  throw new BrowserToolError('invalid_input', `There is no download called "${name}" in this session.`, {
    hint: names.length
      ? `Use one of the names results listed under downloads: ${names.slice(-10).map((n) => JSON.stringify(n)).join(', ')} (browser_tabs "list" lists them all).`
      : 'This session has downloaded nothing yet. Click the link or button that downloads the file, or navigate to its address; its result lists it under downloads.',
  });
}

/** Waits (within the call's time) for a download still being saved; an error for one that failed or was not kept. */
export async function readyDownload(call: Pick<CallContext, 'session' | 'deadline'>, entry: DownloadEntry): Promise<DownloadEntry> {
  if (entry.state === 'downloading' && !(await call.session.downloads.settled(entry, Math.min(SAVE_WAIT_MS, call.deadline.forStep())))) {
    const seconds = Math.round((Date.now() - Date.parse(entry.at)) / 1000);
    throw new BrowserToolError('timeout', `${entry.name} is still downloading (it began ${seconds} s ago, from ${entry.url}).`, {
      hint: 'The file is large or its server slow. Do something else or wait with browser_wait, then call browser_read again.',
      retryable: true,
    });
  }
  if (entry.state === 'failed') {
    throw new BrowserToolError('navigation_failed', `The download of ${entry.name} failed: ${entry.error ?? 'no reason given'}.`, {
      hint: `Download it again (from ${entry.page}, or at ${entry.url}); if it fails again, the server does not give the file.`,
      retryable: true,
    });
  }
  if (entry.notKept) {
    throw new BrowserToolError('invalid_input', `${entry.name} was downloaded before this conversation's browser was restored, and was too large to keep in the session store.`, {
      hint: `Download it again from ${entry.url}.`,
    });
  }
  return entry;
}

export async function readFileFor(call: CallContext, entry: DownloadEntry, maxTokens: number, part: number): Promise<FileRead> {
  await readyDownload(call, entry);
  return readDownload(entry, { maxTokens, part, ms: call.deadline.forStep(), htmlToMarkdown: (html) => htmlMarkdown(call.tab.page, html) });
}

/** The call that reads the part after `part` of `name`, when there is one. */
export function nextCall(name: string, part: number, parts: number, maxTokens?: number): string | undefined {
  if (part >= parts) return undefined;
  return `browser_read ${JSON.stringify({ file: name, page: part + 1, ...(maxTokens ? { maxTokens } : {}) })}`;
}

/**
 * The first document among `downloads`, read like a page for the call's result: its first part and the call
 * that reads on, or the line that says why it cannot be read; with its title. Undefined when none is a document.
 */
export async function openingOf(call: CallContext, downloads: DownloadEvent[] | undefined): Promise<{ file: string; title: string } | undefined> {
  for (const event of downloads ?? []) {
    const entry = call.session.downloads.get(event.file);
    if (!entry || entry.state !== 'saved' || !entry.kind || !DOCUMENTS.has(entry.kind.kind)) continue;
    try {
      const read = await readFileFor(call, entry, READ_TOKENS, 1);
      const next = nextCall(entry.name, 1, read.parts);
      return { file: [...read.notes.map((note) => `note: ${note}`), read.text, ...(next ? [`[part 1 of ${read.parts}; next: ${next}]`] : [])].join('\n'), title: read.title };
    } catch (error) {
      const failure = error instanceof BrowserToolError ? error : undefined;
      return { file: `file "${entry.name}": ${failure ? `${failure.message} ${failure.hint}` : 'could not be read.'}`, title: entry.name };
    }
  }
  return undefined;
}

/**
 * Saves the PDF a viewer frame shows into the session's downloads, as the headless shell would have: a link to
 * its own address with `download`, clicked inside it, which Chromium saves without showing it again.
 */
export async function downloadShownPdf(call: CallContext, frame: Frame): Promise<DownloadEvent[]> {
  const known = call.session.downloads.latestFrom(frame.url());
  if (known) return [eventOf(known)];
  const began = Date.now();
  await frame
    .evaluate(() => {
      const link = document.createElement('a');
      link.href = location.href;
      link.download = '';
      document.documentElement.appendChild(link);
      link.click();
      link.remove();
    })
    .catch(() => {});
  if (!(await call.tab.loading.downloadBegun(began, Math.min(3_000, call.deadline.forStep())))) return [];
  return call.deadline.race(call.tab.takeDownloads(), 'saving the PDF shown', call.deadline.forStep());
}

/** The document shown in the tab as a file of the session: a PDF in the viewer (saved first), or none. */
export async function shownDocument(call: CallContext): Promise<DownloadEntry | undefined> {
  const frame = call.tab.page.mainFrame();
  if (!call.tab.pdfFrames().includes(frame)) return undefined;
  await downloadShownPdf(call, frame);
  return call.session.downloads.latestFrom(frame.url());
}

/** HTML to Markdown by the page reader, run on a document parsed (never run) in the tab's page. */
function htmlMarkdown(page: Page, html: string): Promise<string> {
  return articleMarkdown(page, html);
}
