/**
 * What a tab did on its own between and during actions: dialogs it opened, files it downloaded, requests it
 * has in flight (for the load policy) and requests the allowlist refused. One `PageEvents` per tab, created
 * by the session when it first sees the tab.
 */
import { mkdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Dialog, Download, Page, Request } from 'playwright-core';

export type DialogPolicy = 'ask' | 'accept' | 'dismiss';

export interface DialogEvent {
  type: string;
  message: string;
  /** `pending`: still open, waiting for browser_dialog. */
  handled: 'accepted' | 'dismissed' | 'pending';
  defaultValue?: string;
}

export interface DownloadEvent {
  file: string;
  path: string;
  bytes?: number;
  error?: string;
}

/** Resource types whose arrival can add, remove or restyle content (`networkQuietFor`). */
const SHAPES_THE_PAGE = new Set(['document', 'script', 'stylesheet', 'xhr', 'fetch', 'eventsource']);
/**
 * Of those, the ones that change the tab's own document only by running script in it, where the change watch
 * (snapshot/changes.ts) sees what they do. A style sheet restyles without a DOM change, and a frame's requests
 * change a document the watch does not observe.
 */
const ACTS_THROUGH_SCRIPT = new Set(['script', 'xhr', 'fetch', 'eventsource']);

/**
 * The site of a host, as browsers group pages: its registrable domain ("news.example.co.uk" gives
 * "example.co.uk"). Approximated without the public suffix list: the last two labels, or three under a
 * country code whose second level is generic ("co.uk", "com.au"). An address or a one-label host is its own site.
 * Where the guess is wrong, it is wrong towards "same site", which is waited for.
 */
export function siteOf(host: string): string {
  if (/^[\d.]+$|^\[|^[^.]+$/.test(host)) return host;
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  const generic = labels.length > 2 && labels.at(-1)!.length === 2 && GENERIC_SECOND_LEVEL.has(labels.at(-2)!);
  return labels.slice(generic ? -3 : -2).join('.');
}
const GENERIC_SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'go', 'gob', 'gov', 'ltd', 'mil', 'ne', 'net', 'nic', 'or', 'org', 'plc', 'sch']);

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

export class PageEvents {
  private dialogs: DialogEvent[] = [];
  private downloads: DownloadEvent[] = [];
  private pending: { dialog: Dialog; event: DialogEvent } | undefined;
  private readonly saving = new Set<Promise<void>>();
  private readonly dialogListeners = new Set<() => void>();
  private readonly inflight = new Set<Request>();
  private lastNetworkActivity = Date.now();
  /** The last start or end of a shaping request the load policy waits for (`awaitedQuietFor`). */
  private lastAwaitedActivity = Date.now();
  /** Requests of other sites' code running in the page, not waited for (`awaitedInFlight`). */
  private readonly notAwaited = new WeakSet<Request>();
  /** The last start or end of a shaping request whose effect the change watch cannot see (`unseenInFlight`). */
  private lastUnseenActivity = Date.now();
  private documentDoneAt = 0;
  /** The request of the main frame's latest document. */
  private document: Request | undefined;
  private blocked: string[] = [];

  constructor(
    private readonly page: Page,
    private readonly options: { dialogPolicy: DialogPolicy; downloadDir: () => string },
  ) {
    page.on('dialog', (dialog) => this.onDialog(dialog));
    page.on('download', (download) => this.track(this.onDownload(download)));
    page.on('request', (request) => {
      this.inflight.add(request);
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.document = request;
      else if (this.isOtherSitesCode(request)) this.notAwaited.add(request);
      this.noteActivity(request);
    });
    const done = (request: Request) => {
      this.inflight.delete(request);
      // The main document's last bytes are news only until it is parsed; its "finished" can come after that.
      if (request === this.document) this.documentDoneAt = Date.now();
      else this.noteActivity(request);
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  }

  /** Requests of this tab still waiting for their answer (a redirected one is followed by its next hop). */
  pendingRequests(): Request[] {
    return [...this.inflight].filter((request) => !request.redirectedTo());
  }

  /** The HTTP method of the main document's request: only a GET page may be loaded again. */
  documentMethod(): string | undefined {
    return this.document?.method();
  }

  /** True once the main document's bytes have all arrived: a parser still waiting then waits on something else. */
  documentArrived(): boolean {
    return this.document !== undefined && !this.inflight.has(this.document);
  }

  /**
   * Milliseconds since a request that can change what the page shows (a document, script, style sheet or data
   * request) last started or ended. Images, fonts and media fill in boxes the page already has: a tracker pixel
   * or a slow image CDN does not hold up the answer (they still show in the loading line while in flight).
   */
  networkQuietFor(): number {
    return Date.now() - Math.max(this.lastNetworkActivity, this.documentDoneAt);
  }

  /**
   * Like `networkQuietFor`, but counting only the requests the load policy waits for: every shaping request but
   * other sites' code (`awaitedInFlight`).
   */
  awaitedQuietFor(): number {
    return Date.now() - Math.max(this.lastAwaitedActivity, this.documentDoneAt);
  }

  /**
   * Shaping requests in flight that the load policy waits for. Not waited for: other sites' code, that is the
   * scripts of other sites the tab's own document loads, and what frames of other sites load once their
   * document has arrived (tag managers, analytics, ads, widgets). It arrives on its own schedule and would
   * hold every page by its slowest part. What such a script does in the document is seen by the change watch,
   * so an early snapshot it changes is not returned; what it does after the load returned shows in the next
   * result. A frame's document itself is waited for: the page is not shown with a frame still blank.
   */
  awaitedInFlight(): number {
    return this.countShaping((request) => !this.notAwaited.has(request));
  }

  /**
   * True when a request that can change what the page shows started or ended at `time` (Date.now()) or later;
   * for a page already parsed, so the end of its own document does not count.
   */
  shapingActivitySince(time: number): boolean {
    return this.lastNetworkActivity >= time;
  }

  /**
   * True when, at `time` or later, a request started or ended whose effect on the page the change watch cannot
   * see: a style sheet, or any request of a frame inside the page (its document among them).
   */
  unseenActivitySince(time: number): boolean {
    return this.lastUnseenActivity >= time;
  }

  /** Shaping requests in flight whose effect the change watch could not see when they answer (`unseenActivitySince`). */
  unseenInFlight(): number {
    return this.countShaping((request) => !this.notAwaited.has(request) && !this.actsThroughScript(request));
  }

  /** Documents of frames inside the page still waiting for their answer or still arriving. */
  pendingFrameDocuments(): Request[] {
    return this.pendingRequests().filter((request) => request.isNavigationRequest() && request.frame() !== this.page.mainFrame());
  }

  /** True while a document request of the main frame waits for its answer or is still arriving. */
  documentPending(): boolean {
    return this.document !== undefined && this.inflight.has(this.document);
  }

  /** Shaping requests in flight (the page's own document aside) for which `also` holds. */
  private countShaping(also: (request: Request) => boolean): number {
    let count = 0;
    for (const request of this.inflight) if (request !== this.document && SHAPES_THE_PAGE.has(request.resourceType()) && !request.redirectedTo() && also(request)) count++;
    return count;
  }

  private actsThroughScript(request: Request): boolean {
    return ACTS_THROUGH_SCRIPT.has(request.resourceType()) && request.frame() === this.page.mainFrame();
  }

  /** A script of another site in the tab's document, or a request (not a document) of a frame from another site. */
  private isOtherSitesCode(request: Request): boolean {
    if (!this.document) return false;
    const site = siteOf(hostnameOf(this.document.url()));
    const frame = request.frame();
    if (frame === this.page.mainFrame()) return request.resourceType() === 'script' && siteOf(hostnameOf(request.url())) !== site;
    const frameHost = hostnameOf(frame.url()); // none for about:blank or srcdoc: such a frame is the page's own
    return !request.isNavigationRequest() && frameHost !== '' && siteOf(frameHost) !== site;
  }

  private noteActivity(request: Request): void {
    if (!SHAPES_THE_PAGE.has(request.resourceType())) return;
    this.lastNetworkActivity = Date.now();
    if (this.notAwaited.has(request)) return;
    this.lastAwaitedActivity = Date.now();
    if (!this.actsThroughScript(request)) this.lastUnseenActivity = Date.now();
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

  /** Downloads finished (or failed) since the last call; waits for saves in progress. */
  async takeDownloads(): Promise<DownloadEvent[]> {
    await Promise.all(this.saving);
    const events = this.downloads;
    this.downloads = [];
    return events;
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

  private async onDownload(download: Download): Promise<void> {
    const file = basename(download.suggestedFilename()) || 'download';
    const dir = this.options.downloadDir();
    const path = join(dir, file);
    try {
      mkdirSync(dir, { recursive: true });
      await download.saveAs(path);
      this.downloads.push({ file, path, bytes: statSync(path).size });
    } catch (error) {
      this.downloads.push({ file, path, error: error instanceof Error ? error.message.split('\n')[0] : String(error) });
    }
  }

  private track(promise: Promise<void>): void {
    this.saving.add(promise);
    void promise.finally(() => this.saving.delete(promise));
  }
}
