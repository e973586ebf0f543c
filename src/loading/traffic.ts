/**
 * A tab's requests as the load policy (settle.ts) sees them: which are in flight, when one last started or
 * ended, and which of them the page is waited for. One `Traffic` per tab, kept in its `TabLoading` (tabLoading.ts).
 */
import type { Frame, Page, Request } from 'playwright-core';
import { ChromiumNetwork } from './chromiumNetwork.js';
import { FrameDocuments } from './frameDocuments.js';
import { Polls } from './polls.js';
import { readMarkup, type MarkupReading } from './markup.js';
import { RequestWaits } from './requestWaits.js';
import { hostOf, siteOfUrl } from './sites.js';

/** Resource types whose arrival can add, remove or restyle content (`networkQuietFor`). */
const SHAPES_THE_PAGE = new Set(['document', 'script', 'stylesheet', 'xhr', 'fetch', 'eventsource']);
/**
 * Of those, the ones that change the tab's own document only by running script in it, where the change watch
 * (snapshot/changes.ts) sees what they do. A style sheet restyles without a DOM change, and a frame's requests
 * change a document the watch does not observe.
 */
const ACTS_THROUGH_SCRIPT = new Set(['script', 'xhr', 'fetch', 'eventsource']);

/** True for a request whose arrival can change what the page shows: a document, script, style sheet or data request. */
export function shapesThePage(request: Request): boolean {
  return SHAPES_THE_PAGE.has(request.resourceType());
}

/** An EventSource, or a fetch answered as one (`text/event-stream`, as chat and live-update pages read theirs). */
function isEventStream(request: Request, contentType = ''): boolean {
  return request.resourceType() === 'eventsource' || /^\s*text\/event-stream\b/i.test(contentType);
}


export class Traffic {
  private readonly inflight = new Set<Request>();
  private lastNetworkActivity = Date.now();
  /** The last start or end of a shaping request the load policy waits for (`awaitedQuietFor`), and its request. */
  private lastAwaitedActivity = Date.now();
  private lastAwaited: Request | undefined;
  /** Requests not waited for: other sites' code running in the page, style sheets for print or speech (`awaitedRequests`). */
  private readonly notAwaited = new WeakSet<Request>();
  /** The last start or end of a shaping request whose effect the change watch cannot see (`unseenActivitySince`). */
  private lastUnseenActivity = Date.now();
  private documentDoneAt = 0;
  /** The request of the main frame's latest document, and its site ("" when it has none, as about:blank). */
  private document: Request | undefined;
  private documentSite = '';
  /** What the main document's markup says about its requests (markup.ts); unknown until it has been read. */
  private markup: MarkupReading | undefined;
  /** The frames inside the page: whether each has its document, has parsed it, and where it sits. */
  readonly frames: FrameDocuments;

  /** What the tab's document has asked for data since it loaded or since the last action (`isPoll`). */
  private readonly polls = new Polls();

  /** Which scripts made the tab's data requests (`isNotWaitedFor`), which requests went out and when. */
  private readonly network: ChromiumNetwork;
  /** How long each pending request has waited, and on whom: its server or the browser's queue. */
  readonly waits: RequestWaits;

  constructor(private readonly page: Page) {
    this.network = new ChromiumNetwork(page, (url) => this.sortInFlight((request) => request.url() === url));
    this.waits = new RequestWaits(this.network, () => this.pendingRequests());
    // Once a frame is parsed, or placed out of view, what it still loads may no longer be waited for.
    this.frames = new FrameDocuments(page, () => this.sortInFlight());
    page.on('request', (request) => {
      // blob:, data: and the like come from the tab itself: nothing to wait for, and Playwright may never end them.
      if (!request.isNavigationRequest() && !/^https?:/i.test(request.url())) return;
      this.inflight.add(request);
      this.waits.asked(request);
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        this.document = request;
        this.documentSite = siteOfUrl(request.url());
        this.markup = undefined;
        this.polls.forget();
      } else if (this.isNotWaitedFor(request) || this.isPoll(request)) this.notAwaited.add(request);
      this.noteActivity(request);
    });
    const done = (request: Request) => {
      if (!this.inflight.delete(request)) return;
      // The main document's last bytes are news only until it is parsed; its "finished" can come after that.
      if (request === this.document) {
        this.documentDoneAt = Date.now();
        void this.learnFromMarkup(request);
      } else this.noteActivity(request);
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    page.on('response', (response) => {
      const request = response.request();
      if (request.isNavigationRequest()) this.frames.documentAnswered(request);
      // An event stream, once open, stays open for as long as the page lives: waiting for its end would hold
      // every such page for the whole quiet window. What its messages change is done by script.
      else if (this.inflight.has(request) && isEventStream(request, response.headers()['content-type'])) this.notAwaited.add(request);
    });
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) this.frames.navigated(frame);
    });
  }

  /**
   * Requests the load policy gave up on while they were still out (a style sheet taken out of its document): from
   * now on they are not waited for, and not listed as loading; their end, if it ever comes, is not news.
   */
  giveUp(requests: Request[]): void {
    for (const request of requests) if (this.inflight.delete(request)) this.noteActivity(request);
  }

  /**
   * Whether the parser of the main document runs the script `request` loads before the page counts as parsed:
   * true when its markup has it without `async` (markup.ts); false when the markup marks it `async`, or, when the
   * markup does not name it, when the browser gave it a low priority (inserted by script: Chromium gives a
   * parser-inserted or `document.write` script a higher one). Undefined when not known, and for other requests.
   */
  parserRuns(request: Request): boolean | undefined {
    if (request.resourceType() !== 'script') return undefined;
    const url = request.url();
    if (this.markup?.parserScripts.has(url)) return true;
    if (this.markup?.asyncScripts.has(url)) return false;
    const priority = this.network.priorityOf(url);
    return priority === 'Low' || priority === 'VeryLow' ? false : undefined;
  }

  /** Resolves once what Chromium's network stack says about the tab's requests is heard (`ChromiumNetwork.ready`). */
  listening(): Promise<void> {
    return this.network.ready;
  }

  /** Requests of this tab still waiting for their answer (a redirected one is followed by its next hop). */
  pendingRequests(): Request[] {
    return [...this.inflight].filter((request) => !request.redirectedTo());
  }

  /** The HTTP method of the main document's request: only a GET page may be loaded again. */
  documentMethod(): string | undefined {
    return this.document?.method();
  }

  /** The HTTP status the main document's request was answered with; undefined before an answer. */
  async documentStatus(): Promise<number | undefined> {
    return (await this.document?.response().catch(() => null))?.status();
  }

  /**
   * The answer to the main document's request for `url` (the first of its redirects, fragment aside): its status
   * and status text. Undefined when it had none, or when the latest document was asked for another address.
   */
  async documentAnswerFor(url: string): Promise<{ status: number; statusText: string } | undefined> {
    let first = this.document;
    while (first?.redirectedFrom()) first = first.redirectedFrom()!;
    if (!first || first.url().split('#')[0] !== url.split('#')[0]) return undefined;
    const response = await this.document!.response().catch(() => null);
    return response ? { status: response.status(), statusText: response.statusText() } : undefined;
  }

  /** True once the main document's bytes have all arrived: a parser still waiting then waits on something else. */
  documentArrived(): boolean {
    return this.document !== undefined && !this.inflight.has(this.document);
  }

  /** True while a document request of the main frame waits for its answer or is still arriving. */
  documentPending(): boolean {
    return this.document !== undefined && this.inflight.has(this.document);
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
   * other sites' code (`awaitedRequests`).
   */
  awaitedQuietFor(): number {
    return Date.now() - Math.max(this.lastAwaitedActivity, this.documentDoneAt);
  }

  /**
   * Requests in flight that the load policy waits for, the page's own document aside. Not waited for: other sites'
   * code, that is the scripts the tab's document loads from sites its markup does not wait for (tag managers,
   * analytics, ads, widgets; markup.ts) and the data requests only such scripts made, and what a frame of another
   * site loads once its document is parsed. Such code arrives on its own schedule and would hold every page by its
   * slowest part. What it does in the document is seen by the change watch, so an early snapshot it changes is not
   * returned; what it does after the load returned shows in the next result. A frame is waited for until it is
   * parsed: the page is not shown with a frame still blank. Nor style sheets the markup links for print or another
   * medium than a screen: they change nothing on screen. Nor an event stream once it has answered: it never ends.
   */
  awaitedRequests(): Request[] {
    return [...this.inflight].filter((request) => request !== this.document && !this.notAwaited.has(request));
  }

  /** An action begins: what the page asks for from now on is its doing, even a question it has asked before. */
  actionBegins(): void {
    this.polls.forget();
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

  /**
   * What the quiet window was last measured from, for benchmarks and tests: the kind of the awaited request
   * that last started or ended ("stylesheet", "script in a frame"), or "document" when none has since the
   * document's own.
   */
  lastAwaitedKind(): string {
    const request = this.lastAwaited;
    if (!request || request === this.document) return 'document';
    return `${request.resourceType()}${request.frame() === this.page.mainFrame() ? '' : ' in a frame'}`;
  }

  /**
   * Frames whose document has not begun to arrive, with the host it is asked from. Such a frame has nothing
   * to show yet, and Playwright's capture would wait on it for as long as it is allowed (capture.ts).
   */
  framesAwaitingDocument(): Array<{ frame: Frame; host: string }> {
    return this.pendingRequests()
      .filter((request) => request.isNavigationRequest() && request.frame() !== this.page.mainFrame() && !this.frames.answered(request))
      .map((request) => ({ frame: request.frame(), host: hostOf(request.url()) }));
  }

  /**
   * Frames that have shown a document whose parse is not done yet, with their host: a snapshot shows only what
   * their parser has reached (a script or style sheet of theirs that does not answer holds it there). One whose
   * next document is on its way is also in `framesAwaitingDocument`, which the capture leaves out first.
   */
  framesBeingParsed(): Array<{ frame: Frame; host: string }> {
    return this.frames.beingParsed().map((frame) => ({ frame, host: hostOf(frame.url()) }));
  }

  /** A data request of the tab's document asking again what it asked since it loaded or the last action (polls.ts). */
  private isPoll(request: Request): boolean {
    return request.frame() === this.page.mainFrame() && this.polls.isRepeat(request);
  }

  /** True for a request whose effect on the tab's document the change watch sees: it acts there by running script. */
  actsThroughScript(request: Request): boolean {
    return ACTS_THROUGH_SCRIPT.has(request.resourceType()) && request.frame() === this.page.mainFrame();
  }

  /**
   * A script in the tab's document from a site its markup does not wait for, a data request only such scripts
   * made, or a style sheet its markup links for print or speech (none known before the markup has been read); a
   * request (not a document) of a parsed frame from another site than the tab's document; any request of a frame
   * out of view.
   */
  private isNotWaitedFor(request: Request): boolean {
    const frame = request.frame();
    if (this.frames.outOfView(frame)) return true;
    const site = this.documentSite;
    if (!site) return false;
    if (frame === this.page.mainFrame()) {
      if (!this.markup) return false;
      const type = request.resourceType();
      if (type === 'stylesheet') return this.markup.offScreenSheets.has(request.url());
      if (type === 'script') return this.othersCode(request.url());
      // A data request is the code's that made it: an analytics script's collect call is not waited for either.
      const scripts = type === 'xhr' || type === 'fetch' ? this.network.scriptsOf(request.url()) : undefined;
      return !!scripts?.length && scripts.every((url) => this.othersCode(url));
    }
    const frameSite = siteOfUrl(frame.url()); // none for about:blank or srcdoc: such a frame is the page's own
    return !request.isNavigationRequest() && frameSite !== '' && frameSite !== site && this.frames.parsed(frame);
  }

  /** True for a script of a site the tab's document does not wait for (markup.ts); false for its own or an unknown one. */
  private othersCode(url: string): boolean {
    const site = siteOfUrl(url);
    return site !== '' && site !== this.documentSite && !this.markup!.sites.has(site);
  }

  /** Once its markup is read, the main document's scripts and style sheets already in flight are sorted as they would have been. */
  private async learnFromMarkup(document: Request): Promise<void> {
    const html = await document
      .response()
      .then((response) => (response && /html/i.test(response.headers()['content-type'] ?? '') ? response.text() : ''))
      .catch(() => '');
    if (document !== this.document) return;
    this.markup = readMarkup(html, document.url());
    this.sortInFlight();
  }

  /** Sorts the requests in flight (those `only` picks) again, with what has been learnt since they started. */
  private sortInFlight(only?: (request: Request) => boolean): void {
    for (const request of this.inflight) if (!this.notAwaited.has(request) && (!only || only(request)) && this.isNotWaitedFor(request)) this.notAwaited.add(request);
  }

  private noteActivity(request: Request): void {
    if (!shapesThePage(request)) return;
    this.lastNetworkActivity = Date.now();
    if (this.notAwaited.has(request)) return;
    this.lastAwaitedActivity = Date.now();
    this.lastAwaited = request;
    if (!this.actsThroughScript(request)) this.lastUnseenActivity = Date.now();
  }
}
