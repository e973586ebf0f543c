/**
 * A thread's live view: CDP `Page.startScreencast` on the tab that thread's tools act on. The provider calls
 * `follow()` whenever the session's active tab changes (a new tab, a switch, a popup, a tab replaced after it
 * hung or crashed), and the stream moves its CDP session to that tab, so the viewer keeps watching what the
 * agent works on. Chromium sends a frame only when the page paints, and stops sending until each is acknowledged.
 */
import { EventEmitter } from 'node:events';
import type { ScreencastFrameData, ScreencastOptions, ScreencastStream } from '@mastra/core/browser';
import type { CDPSession, Frame, Page } from 'playwright-core';
import { isBetweenPages } from '../loading/index.js';

export type StopReason = 'manual' | 'browser_closed' | 'error';

/** What Studio asks for unless told otherwise: JPEG at the default viewport size, every frame. */
const DEFAULTS = { format: 'jpeg', quality: 80, maxWidth: 1280, maxHeight: 720, everyNthFrame: 1 } as const;

/** How long a newly watched tab may stay without a painted frame before its picture is sent as one. */
const STILL_AFTER_MS = 500;
/**
 * How long a CDP command of the stream may take. A tab that swaps its renderer while the stream attaches (a new
 * tab starting its first navigation) can leave a command unanswered for good; the stream then attaches again.
 */
const COMMAND_MS = 3_000;
const ATTACH_ATTEMPTS = 3;

export class PageScreencast extends EventEmitter implements ScreencastStream {
  private active = false;
  private page: Page | undefined;
  private cdp: CDPSession | undefined;
  /** Moves run one after another: a tab switch during an attach must not leave two CDP sessions streaming. */
  private moving: Promise<void> = Promise.resolve();
  private readonly options: Required<Omit<ScreencastOptions, 'threadId'>>;

  constructor(
    /** The tab to show now: the session's active tab, or undefined while it has none. */
    private readonly currentPage: () => Page | undefined,
    options: ScreencastOptions = {},
    /** Called once when the stream stops, so the provider forgets it. */
    private readonly onStop: () => void = () => {},
  ) {
    super();
    const { threadId: _threadId, ...cdpOptions } = options;
    this.options = { ...DEFAULTS, ...cdpOptions };
  }

  /** Starts streaming the current tab; with no tab yet, the stream waits for `follow()`. */
  async start(): Promise<void> {
    if (this.active) return;
    this.active = true;
    try {
      await this.moveTo(this.currentPage(), true);
    } catch (error) {
      await this.stop('error');
      throw error;
    }
  }

  /** The active tab may have changed: stream the current one if it is another. */
  follow(): Promise<void> {
    return this.moveTo(this.currentPage(), false).catch((error) => this.fail(error));
  }

  /** Attaches again to the current tab, even the same one (Mastra calls this after tab changes it saw itself). */
  async reconnect(): Promise<void> {
    await this.moveTo(this.currentPage(), true);
  }

  async stop(reason: StopReason = 'manual'): Promise<void> {
    if (!this.active) return;
    this.active = false;
    await this.queue(() => this.detach());
    this.onStop();
    this.emit('stop', reason);
  }

  isActive(): boolean {
    return this.active;
  }

  emitUrl(url: string): void {
    this.emit('url', url);
  }

  private moveTo(page: Page | undefined, force: boolean): Promise<void> {
    return this.queue(async () => {
      if (!this.active || (page === this.page && !force)) return;
      await this.detach();
      if (!page || page.isClosed()) return;
      await this.attach(page);
    });
  }

  private queue(step: () => Promise<void>): Promise<void> {
    const next = this.moving.then(step);
    this.moving = next.catch(() => {});
    return next;
  }

  /** Streams `page`; a start the tab leaves unanswered is tried again on a new CDP session. */
  private async attach(page: Page): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (await this.tryAttach(page)) return;
      await this.detach();
      if (page.isClosed() || !this.active) return;
      if (attempt === ATTACH_ATTEMPTS) throw new Error(`The tab did not start its screencast within ${ATTACH_ATTEMPTS} attempts of ${COMMAND_MS / 1000} s.`);
    }
  }

  private async tryAttach(page: Page): Promise<boolean> {
    const cdp = await answered(page.context().newCDPSession(page));
    if (!cdp) return false;
    this.page = page;
    this.cdp = cdp;
    let framed = false;
    cdp.on('Page.screencastFrame', (frame) => {
      if (this.cdp !== cdp) return;
      framed = true;
      const { metadata } = frame;
      const data: ScreencastFrameData = {
        data: frame.data,
        timestamp: metadata.timestamp ? metadata.timestamp * 1000 : Date.now(),
        viewport: {
          width: metadata.deviceWidth,
          height: metadata.deviceHeight,
          offsetTop: metadata.offsetTop,
          scrollOffsetX: metadata.scrollOffsetX,
          scrollOffsetY: metadata.scrollOffsetY,
          pageScaleFactor: metadata.pageScaleFactor,
        },
      };
      this.emit('frame', data);
      cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => {});
    });
    page.on('framenavigated', this.onNavigated);
    page.on('close', this.onClosed);
    const started = await answered(
      cdp.send('Page.startScreencast', {
        format: this.options.format,
        quality: this.options.quality,
        maxWidth: this.options.maxWidth,
        maxHeight: this.options.maxHeight,
        everyNthFrame: this.options.everyNthFrame,
      }),
    );
    if (!started) return false;
    this.emitUrl(page.url());
    // Chromium sends a frame only when the tab paints: a tab that finished painting before the stream came
    // (a tab opened in the background and switched to) would show nothing. Send its picture once instead.
    setTimeout(() => {
      if (!framed && this.cdp === cdp) void this.sendStill(page, cdp);
    }, STILL_AFTER_MS).unref();
    return true;
  }

  /** One frame from a screenshot, in the stream's format, for a tab that has not painted since it was attached. */
  private async sendStill(page: Page, cdp: CDPSession): Promise<void> {
    const shot = await answered(cdp.send('Page.captureScreenshot', { format: this.options.format, quality: this.options.quality }));
    const size = page.viewportSize();
    if (!shot || this.cdp !== cdp || !size) return;
    this.emit('frame', {
      data: shot.data,
      timestamp: Date.now(),
      viewport: { width: size.width, height: size.height, offsetTop: 0, scrollOffsetX: 0, scrollOffsetY: 0, pageScaleFactor: 1 },
    } satisfies ScreencastFrameData);
  }

  private async detach(): Promise<void> {
    const { page, cdp } = this;
    this.page = undefined;
    this.cdp = undefined;
    page?.off('framenavigated', this.onNavigated);
    page?.off('close', this.onClosed);
    if (!cdp) return;
    // The tab may be gone already (its CDP session went with it), or not answer: either way, let go of it.
    await answered(cdp.send('Page.stopScreencast'));
    await answered(cdp.detach());
  }

  private readonly onNavigated = (frame: Frame): void => {
    // The empty page a fresh frame passes through (loading/browsingInstance.ts) is not where the tab is going.
    if (frame === this.page?.mainFrame() && !isBetweenPages(frame.url())) this.emitUrl(frame.url());
  };

  /** The shown tab closed (by its page, a person or a crash): show the tab the next call would act on. */
  private readonly onClosed = (): void => {
    void this.follow();
  };

  private async fail(error: unknown): Promise<void> {
    if (!this.active) return;
    // An 'error' event nobody listens to would throw here, out of a page event handler.
    if (this.listenerCount('error') > 0) this.emit('error', error instanceof Error ? error : new Error(String(error)));
    await this.stop('error');
  }
}

/** The command's answer, or undefined when it failed or did not come within COMMAND_MS. */
async function answered<T>(command: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), COMMAND_MS)));
  try {
    return await Promise.race([command.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
