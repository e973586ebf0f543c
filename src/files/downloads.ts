/**
 * A session's downloads, kept for its life: each file by a short name (its file name, made unique in the
 * session: "report.csv", then "report (2).csv"), with what it is, its size, where it came from, the page and the
 * tool call that caused it, and when. Every tab hands its downloads here; results list the new ones, a tab
 * list lists them all, and `browser_read { file }` and `browser_upload` take them by name.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Download, Frame, Page } from 'playwright-core';
import { headOf, kindOf, sizeText, type Kind } from './kinds.js';

export interface DownloadEntry {
  /** The short name the model uses; also the file's name in the session's download folder. */
  name: string;
  path: string;
  /** The address the file came from. */
  url: string;
  /** The page that caused the download. */
  page: string;
  /** The tool call that caused it, or that it came between calls (the page itself, or a person in the live view). */
  action: string;
  /** When it began (ISO 8601). */
  at: string;
  state: 'downloading' | 'saved' | 'failed';
  bytes?: number;
  kind?: Kind;
  error?: string;
  /** Restored from a session store without its bytes (past the store's limit): listed, but not readable here. */
  notKept?: boolean;
}

/** A download as a result lists it: its short name, what it is and its size, for the model; its path for programs. */
export interface DownloadEvent {
  file: string;
  path: string;
  type?: string;
  bytes?: number;
  /** Still being saved when the result was given. */
  downloading?: true;
  error?: string;
}

/** What a session store keeps of a download: its listing, and its bytes (base64) within `STORED_BYTES`. */
export type SavedDownload = Omit<DownloadEntry, 'path' | 'notKept'> & { data?: string };

/**
 * How many bytes of downloads a session store keeps per conversation (5 MB): the newest files first, whole. An
 * older or larger file is still listed after a restore, and reading it says to download it again.
 */
export const STORED_BYTES = 5_000_000;

/** The action of a download that began while no tool call ran. */
export const BETWEEN_CALLS = 'between calls (the page itself, or a person in the live view)';

export class Downloads {
  private readonly entries: DownloadEntry[] = [];
  private readonly saving = new Map<DownloadEntry, Promise<void>>();
  /** Entries no result has listed yet, with the page that caused them. */
  private readonly unreported = new Map<DownloadEntry, Page>();
  /** The tool call running now, as a download's cause. */
  private action: string | undefined;
  /** The call running now was made for a person (Studio's address bar). */
  private forPerson = false;
  private running: string | undefined;
  /** Downloads the agent did not cause (a person in the live view, the page between calls), for its next call's notice. */
  private readonly toAnnounce = new Set<DownloadEntry>();

  constructor(private readonly dir: () => string) {}

  /** Names the call now running (`browser_click {"ref":"e12"}`), until `callEnded`. */
  callStarted(action: string, { forPerson = false } = {}): void {
    this.running = action;
    this.action = forPerson ? `a person in the live view (${action})` : action;
    this.forPerson = forPerson;
  }

  /** The call named `action` ended (one that ran out of time may end after the next began: that one stays named). */
  callEnded(action: string): void {
    if (this.running === action) {
      this.running = undefined;
      this.action = undefined;
      this.forPerson = false;
    }
  }

  /**
   * Downloads the agent's calls did not cause since its last call (a person's, the page's own), taken once for
   * its next result's notice; no action result lists them after.
   */
  takeAnnouncements(): DownloadEntry[] {
    const entries = [...this.toAnnounce];
    this.toAnnounce.clear();
    for (const entry of entries) this.unreported.delete(entry);
    return entries;
  }

  /** Takes a download the browser began in `page`: named at once, saved in the background. */
  add(download: Download, page: Page): DownloadEntry {
    const name = this.uniqueName(basename(download.suggestedFilename()) || 'download');
    const entry: DownloadEntry = {
      name,
      path: join(this.dir(), name),
      url: download.url(),
      page: page.url(),
      action: this.action ?? BETWEEN_CALLS,
      at: new Date().toISOString(),
      state: 'downloading',
    };
    this.entries.push(entry);
    this.unreported.set(entry, page);
    if (!this.action || this.forPerson) this.toAnnounce.add(entry);
    const saving = this.save(download, entry).finally(() => this.saving.delete(entry));
    this.saving.set(entry, saving);
    return entry;
  }

  /** Every download of the session, oldest first. */
  list(): readonly DownloadEntry[] {
    return this.entries;
  }

  /** The download called `name`, or undefined. A name is matched as given, then without regard to case. */
  get(name: string): DownloadEntry | undefined {
    const wanted = basename(name.trim());
    return this.entries.find((e) => e.name === wanted) ?? this.entries.find((e) => e.name.toLowerCase() === wanted.toLowerCase());
  }

  /** The latest download of `url`, if any. */
  latestFrom(url: string): DownloadEntry | undefined {
    return [...this.entries].reverse().find((e) => e.url === url);
  }

  /** Whether `page` began a download no result has listed yet. */
  begunIn(page: Page): boolean {
    return [...this.unreported.values()].includes(page);
  }

  /** Waits up to `ms` for `entry` to be saved; true when it is done (saved or failed). */
  async settled(entry: DownloadEntry, ms: number): Promise<boolean> {
    const saving = this.saving.get(entry);
    if (!saving) return true;
    if (!Number.isFinite(ms)) return saving.then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    return Promise.race([saving.then(() => true), late]).finally(() => clearTimeout(timer));
  }

  /**
   * The downloads `page` caused that no result has listed yet, once saved or after `waitMs`, whichever comes
   * first: one still being saved then is listed as downloading.
   */
  async take(page: Page, waitMs: number): Promise<DownloadEvent[]> {
    const mine = [...this.unreported].filter(([, from]) => from === page).map(([entry]) => entry);
    await Promise.all(mine.map((entry) => this.settled(entry, waitMs)));
    for (const entry of mine) this.unreported.delete(entry);
    return mine.map(eventOf);
  }

  /** What a session store keeps: every download listed, the bytes of the newest up to `STORED_BYTES` in all. */
  saved(): SavedDownload[] {
    let room = STORED_BYTES;
    const out: SavedDownload[] = [];
    for (const entry of [...this.entries].reverse()) {
      const { path, notKept, ...listed } = entry;
      const keep = entry.state === 'saved' && !notKept && entry.bytes !== undefined && entry.bytes <= room && existsSync(path);
      if (keep) room -= entry.bytes!;
      // A file still being saved will not be there in another process: it is listed as failed.
      const state = entry.state === 'downloading' ? { state: 'failed' as const, error: 'the browser was moved to another process while it was downloading' } : {};
      out.unshift({ ...listed, ...state, ...(keep ? { data: readFileSync(path).toString('base64') } : {}) });
    }
    return out;
  }

  /** The downloads of a session restored from a store: their files written back into the download folder. */
  restore(saved: SavedDownload[]): void {
    for (const { data, ...entry } of saved) {
      const path = join(this.dir(), entry.name);
      if (data !== undefined) {
        mkdirSync(this.dir(), { recursive: true });
        writeFileSync(path, Buffer.from(data, 'base64'));
      }
      this.entries.push({ ...entry, path, ...(data === undefined && entry.state === 'saved' ? { notKept: true } : {}) });
    }
  }

  private async save(download: Download, entry: DownloadEntry): Promise<void> {
    try {
      mkdirSync(this.dir(), { recursive: true });
      await download.saveAs(entry.path);
      entry.bytes = statSync(entry.path).size;
      entry.kind = kindOf(entry.name, headOf(entry.path));
      entry.state = 'saved';
    } catch (error) {
      entry.state = 'failed';
      entry.error = (await download.failure().catch(() => null)) ?? (error instanceof Error ? error.message.split('\n')[0] : String(error));
    }
  }

  private uniqueName(name: string): string {
    const clean = name.replace(/[\u0000-\u001f/\\]+/g, '_').slice(0, 150) || 'download';
    if (!this.entries.some((e) => e.name === clean)) return clean;
    const ext = extname(clean);
    const stem = clean.slice(0, clean.length - ext.length);
    for (let n = 2; ; n++) {
      const candidate = `${stem} (${n})${ext}`;
      if (!this.entries.some((e) => e.name === candidate)) return candidate;
    }
  }
}

export function eventOf(entry: DownloadEntry): DownloadEvent {
  return {
    file: entry.name,
    path: entry.path,
    ...(entry.kind ? { type: entry.kind.label } : {}),
    ...(entry.bytes !== undefined ? { bytes: entry.bytes } : {}),
    ...(entry.state === 'downloading' ? { downloading: true as const } : {}),
    ...(entry.error ? { error: entry.error } : {}),
  };
}

/** The notice for downloads the agent did not cause. */
export function announcement(entries: DownloadEntry[]): string {
  const names = entries.map((e) => `${e.name}${e.kind ? ` (${e.kind.label}${e.bytes !== undefined ? `, ${sizeText(e.bytes)}` : ''})` : e.state === 'downloading' ? ' (still downloading)' : ''}`);
  return `Since your last call, ${entries.length === 1 ? 'a file was' : `${entries.length} files were`} downloaded in this browser, not by your calls (by a person in the live view, or by the page itself): ${names.join(', ')}. browser_read { file } reads ${entries.length === 1 ? 'it' : 'one'}; browser_tabs "list" lists all downloads.`;
}

/** One line per download for a listing: `invoice.pdf: PDF, 14 KB, from <url>, by browser_click {...} on <page>, at <time>`. */
export function listingOf(entry: DownloadEntry): { file: string; type: string; size: string; from: string; by: string; on: string; at: string } {
  const state = entry.state === 'downloading' ? 'still downloading' : entry.state === 'failed' ? `failed: ${entry.error ?? 'unknown error'}` : entry.notKept ? 'not kept after a restart' : undefined;
  return {
    file: entry.name,
    type: state ?? entry.kind?.label ?? 'file',
    size: entry.bytes !== undefined ? sizeText(entry.bytes) : '',
    from: entry.url,
    by: entry.action,
    on: entry.page,
    at: entry.at,
  };
}

/**
 * The frames of `page` whose document is a PDF (the main frame when the page is one, an `<iframe>` or `<embed>`
 * of one), from the answers' content type: what Chromium shows in its PDF viewer, where it has one.
 */
export function watchPdfDocuments(page: Page): () => Frame[] {
  const frames = new Map<Frame, string>();
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'document' || !/^application\/pdf\b/i.test(response.headers()['content-type'] ?? '')) return;
    frames.set(response.frame(), response.url());
  });
  // A frame that went on to another document since is no longer a PDF.
  return () => [...frames].filter(([frame, url]) => !frame.isDetached() && frame.url() === url).map(([frame]) => frame);
}
