/**
 * A tab as the session keeps it: its page, and what the page did on its own between and during actions:
 * dialogs it opened, files it downloaded, requests it has in flight (its `Traffic`, for the load policy), how
 * many pages of one site its browsing instance has shown (its `InstanceAge`) and requests the allowlist refused.
 * One `Tab` per page, made by the session's tab list (tabs.ts) when it first sees the page; every tool call gets
 * the active one (`call.tab`).
 */
import type { Dialog, Frame, Page } from 'playwright-core';
import { watchPdfDocuments, type DownloadEvent, type Downloads } from '../files/downloads.js';
import { InstanceAge, Traffic } from '../loading/index.js';

export type DialogPolicy = 'ask' | 'accept' | 'dismiss';

export interface DialogEvent {
  type: string;
  message: string;
  /** `pending`: still open, waiting for browser_dialog. */
  handled: 'accepted' | 'dismissed' | 'pending';
  defaultValue?: string;
}

export type { DownloadEvent };

export class Tab {
  private dialogs: DialogEvent[] = [];
  private pending: { dialog: Dialog; event: DialogEvent } | undefined;
  private readonly dialogListeners = new Set<() => void>();
  /** The tab's requests, for the load policy. */
  readonly traffic: Traffic;
  /** Pages of one site its browsing instance has shown, to renew it before it wears (browsingInstance.ts). */
  readonly instanceAge: InstanceAge;
  private blocked: string[] = [];
  /** Frames whose document is a PDF (the page itself, or one it embeds), to read as files. */
  readonly pdfFrames: () => Frame[];

  constructor(
    readonly page: Page,
    private readonly options: { dialogPolicy: DialogPolicy; downloads: Downloads },
  ) {
    page.on('dialog', (dialog) => this.onDialog(dialog));
    // The session keeps its downloads (files/downloads.ts): named, saved, and listed for every later call.
    page.on('download', (download) => this.options.downloads.add(download, page));
    this.pdfFrames = watchPdfDocuments(page);
    this.traffic = new Traffic(page);
    this.instanceAge = new InstanceAge(page);
  }

  /** A request the allowlist refused; reported by the next result. */
  noteBlocked(url: string): void {
    if (this.blocked.length < 20) this.blocked.push(url);
  }

  takeBlocked(): string[] {
    const urls = this.blocked;
    this.blocked = [];
    return urls;
  }

  /** The dialog waiting for an answer, if any: while it is open the page runs no script. */
  get pendingDialog(): DialogEvent | undefined {
    return this.pending?.event;
  }

  /**
   * Waits for `work`, unless a dialog is left open for the agent first: the page is then frozen until
   * browser_dialog answers it, so the caller returns at once and `work` finishes in the background.
   */
  async unlessDialogOpens<T>(work: Promise<T>): Promise<{ dialog: true } | { dialog: false; value: T }> {
    let listener = () => {};
    const opened = new Promise<{ dialog: true }>((resolve) => {
      listener = () => resolve({ dialog: true });
      this.dialogListeners.add(listener);
    });
    try {
      const outcome = await Promise.race([work.then((value) => ({ dialog: false as const, value })), opened]);
      if (outcome.dialog) work.catch(() => {});
      return outcome;
    } finally {
      this.dialogListeners.delete(listener);
    }
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
   * True when a download has begun since the last `takeDownloads`, or begins within `ms`: a navigation that
   * turns into a download fails before the download's own event may come.
   */
  async downloadBegun(ms: number): Promise<boolean> {
    if (this.options.downloads.begunIn(this.page)) return true;
    return this.page.waitForEvent('download', { timeout: ms }).then(
      () => true,
      () => false,
    );
  }

  /**
   * Downloads this tab began since the last call, once saved; one still being saved after `waitMs` is listed as
   * downloading (it goes on in the background).
   */
  takeDownloads(waitMs = Infinity): Promise<DownloadEvent[]> {
    return this.options.downloads.take(this.page, waitMs);
  }

  private onDialog(dialog: Dialog): void {
    const type = dialog.type();
    const event: DialogEvent = { type, message: dialog.message(), handled: 'pending' };
    if (type === 'prompt') event.defaultValue = dialog.defaultValue();
    this.dialogs.push(event);
    // Alerts only inform and beforeunload only asks to leave: answering them is always safe.
    const decision = type === 'alert' || type === 'beforeunload' ? 'accept' : this.options.dialogPolicy;
    if (decision === 'ask') {
      this.pending = { dialog, event };
      for (const listener of this.dialogListeners) listener();
      return;
    }
    event.handled = decision === 'accept' ? 'accepted' : 'dismissed';
    void (decision === 'accept' ? dialog.accept() : dialog.dismiss()).catch(() => {});
  }
}
