/**
 * A tab: a page and everything the toolset keeps of it, in one place. Its refs and latest capture (refs.ts), what
 * the load policy keeps of it (its requests, its frame's wear, the requests the allowlist refused: loading/), its
 * holds on its document, the dialogs it opened, the files it downloaded, a person's input into it, and where it is
 * on its way to. Every watcher of its page is set up here, when the session's tab list (tabs.ts) first sees the
 * page; every tool call gets the active tab (`call.tab`), and the page is the tab's (`tab.page`).
 */
import type { CDPSession, Dialog, Frame, Page } from 'playwright-core';
import type { ResolvedConfig } from '../config.js';
import { watchPdfDocuments, type DownloadEvent, type Downloads } from '../files/downloads.js';
import { TabLoading, type LoadingTab } from '../loading/index.js';
import { warmUpCaptures, type DocumentHolds } from '../snapshot/index.js';
import { RefManager } from './refs.js';

export type DialogPolicy = 'ask' | 'accept' | 'dismiss';

export interface DialogEvent {
  type: string;
  message: string;
  /** `pending`: still open, waiting for browser_dialog. */
  handled: 'accepted' | 'dismissed' | 'pending';
  defaultValue?: string;
}

export type { DownloadEvent };

/** What a tab needs from the session that keeps it. */
export interface TabHost {
  readonly config: ResolvedConfig;
  /** The session's downloads, which every tab hands its own to (files/downloads.ts). */
  readonly downloads: Downloads;
  /** True while a call runs: warm-ups wait for a quiet moment (snapshot/warmUp.ts). */
  busy(): boolean;
  /** The tab crashed (it is closed): the next call says so. */
  crashed(): void;
  /** The tab's page closed. */
  closed(tab: Tab): void;
}

export class Tab implements LoadingTab {
  /** The tab's refs and its latest capture. */
  readonly refs: RefManager;
  /** What the load policy keeps of the tab: its requests and its frame's wear. */
  readonly loading: TabLoading;
  /** The holds on its document: a page caught in a reload loop is held on one document while it is read or loaded. */
  readonly holds: DocumentHolds = { count: 0 };
  /** Being closed: a hung tab can take seconds to go, and is never listed or picked as active meanwhile. */
  closing = false;
  /** Opened by a page (target=_blank, window.open) and not yet mentioned by a result. */
  unreported = false;
  /** The lines the model read of the tab's page, for its document (tools/helpers/scrollView.ts, DECISIONS 130). */
  read: { documentId: number | undefined; lines: Set<string> } | undefined;
  /** Loading in the background (a resumed session's tab), with the page it is on its way to: listed at it meanwhile. */
  private arriving: { url: string; title: string } | undefined;
  private dialogs: DialogEvent[] = [];
  private pending: { dialog: Dialog; event: DialogEvent } | undefined;
  /** The CDP session a person's input goes through (`inputSession`). */
  private input: Promise<CDPSession> | undefined;
  /** Frames whose document is a PDF (the page itself, or one it embeds), to read as files. */
  readonly pdfFrames: () => Frame[];

  constructor(
    readonly page: Page,
    private readonly host: TabHost,
  ) {
    const { config } = host;
    this.loading = new TabLoading(page, config.settle.maxMs);
    // A page on an origin that secrets allow (itself or a frame) names them in its snapshot.
    const secrets = () => config.secrets?.namesFor(page.frames().map((frame) => frame.url()));
    this.refs = new RefManager(page, () => ({ scope: 'viewport', maxTokens: config.snapshotMaxTokens, secrets: secrets() }), {
      secretSelector: config.secretSelector,
      framesAwaitingDocument: () => this.loading.traffic.framesAwaitingDocument(),
      framesBeingParsed: () => this.loading.traffic.framesBeingParsed(),
      holds: this.holds,
    });
    page.on('dialog', (dialog) => this.onDialog(dialog));
    // The session keeps its downloads (files/downloads.ts): named, saved, and listed for every later call.
    page.on('download', (download) => host.downloads.add(download, page));
    this.pdfFrames = watchPdfDocuments(page);
    page.on('crash', () => {
      host.crashed();
      void page.close().catch(() => {});
    });
    page.on('close', () => host.closed(this));
    // A page another one opened: the result of the action that opened it reports it, or the next call's notices.
    void page.opener().then((opener) => (this.unreported = opener !== null));
    warmUpCaptures(page, () => host.busy());
  }

  /** The tab's address, or where it is on its way to while it loads in the background. */
  get url(): string {
    return this.arriving?.url ?? this.page.url();
  }

  /** The title it is listed with while it loads in the background (a resumed session's tab). */
  get arrivingTitle(): string | undefined {
    return this.arriving?.title;
  }

  /** The tab is loading `where` in the background (a resumed session): it is listed at it until `going` ends. */
  loadingInBackground(where: { url: string; title: string }, going: Promise<unknown>): void {
    this.arriving = where;
    void going.finally(() => (this.arriving = undefined));
  }

  /** The dialog waiting for an answer, if any: while it is open the page runs no script. */
  get pendingDialog(): DialogEvent | undefined {
    return this.pending?.event;
  }

  async answer(accept: boolean, promptText?: string): Promise<DialogEvent | undefined> {
    const pending = this.pending;
    if (!pending) return undefined;
    this.pending = undefined;
    pending.event.handled = accept ? 'accepted' : 'dismissed';
    await (accept ? pending.dialog.accept(promptText) : pending.dialog.dismiss()).catch(() => {});
    return pending.event;
  }

  takeDialogs(): DialogEvent[] {
    const events = this.dialogs;
    this.dialogs = [];
    return events;
  }

  /**
   * Downloads this tab began since the last call, once saved; one still being saved after `waitMs` is listed as
   * downloading (it goes on in the background).
   */
  takeDownloads(waitMs = Infinity): Promise<DownloadEvent[]> {
    return this.host.downloads.take(this.page, waitMs);
  }

  /**
   * The CDP session a person's input from a live view goes through (provider/input.ts): one per tab, kept while
   * it lives, for a pointer move arrives many times a second and each would otherwise open a session of its own.
   */
  inputSession(): Promise<CDPSession> {
    if (!this.input) {
      const opening = this.page.context().newCDPSession(this.page);
      this.input = opening;
      opening.catch(() => {
        if (this.input === opening) this.input = undefined;
      });
    }
    return this.input;
  }

  private onDialog(dialog: Dialog): void {
    const type = dialog.type();
    const event: DialogEvent = { type, message: dialog.message(), handled: 'pending' };
    if (type === 'prompt') event.defaultValue = dialog.defaultValue();
    this.dialogs.push(event);
    // Alerts only inform and beforeunload only asks to leave: answering them is always safe.
    const decision = type === 'alert' || type === 'beforeunload' ? 'accept' : this.host.config.dialogPolicy;
    if (decision === 'ask') {
      this.pending = { dialog, event };
      // What was waiting on the page (a load, an action) returns at once: the page is frozen until the agent answers.
      this.loading.dialogLeftOpen();
      return;
    }
    event.handled = decision === 'accept' ? 'accepted' : 'dismissed';
    void (decision === 'accept' ? dialog.accept() : dialog.dismiss()).catch(() => {});
  }
}
