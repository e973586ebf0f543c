/**
 * The frames inside a tab's page as the load policy sees them (traffic.ts): whether a frame's document has begun
 * to arrive, whether the frame has parsed it, and where the frame sits, in view of a viewport snapshot or out of
 * it. One per tab, held by its `Traffic`.
 */
import type { Frame, Page, Request } from 'playwright-core';

export class FrameDocuments {
  /** Frames whose current document has been parsed (DOMContentLoaded). */
  private readonly parsedFrames = new WeakSet<Frame>();
  /** How many documents each frame has shown, so a parse that ends late is not taken for the next document's. */
  private readonly loads = new WeakMap<Frame, number>();
  /** Documents of frames whose answer has begun: the frame has something to show. */
  private readonly answeredDocuments = new WeakSet<Request>();
  /** Frames of the tab's document found outside what a viewport snapshot shows (`place`), and those found inside. */
  private readonly framesOutOfView = new WeakSet<Frame>();
  private readonly framesPlaced = new WeakSet<Frame>();

  constructor(
    private readonly page: Page,
    /** Told when what a frame loads may no longer be waited for: it parsed its document, or was placed out of view. */
    private readonly onLessAwaited: () => void,
  ) {}

  /** A frame's document has begun to arrive. */
  documentAnswered(request: Request): void {
    this.answeredDocuments.add(request);
  }

  answered(request: Request): boolean {
    return this.answeredDocuments.has(request);
  }

  /**
   * A frame shows a new document. Once it is parsed, what it still loads is its own business, when it is of
   * another site. A frame that has not parsed in a minute counts as parsed too.
   */
  navigated(frame: Frame): void {
    void this.watchParse(frame);
  }

  parsed(frame: Frame): boolean {
    return this.parsedFrames.has(frame);
  }

  /** Frames that have shown a document whose parse is not done yet. */
  beingParsed(): Frame[] {
    return this.page.frames().filter((frame) => this.loads.has(frame) && !this.parsedFrames.has(frame) && !frame.isDetached());
  }

  /**
   * Records where a frame of the tab's document sits. What a frame outside the viewport snapshot's band loads
   * (its document, and everything in it) is not waited for: the snapshot does not show it, and a page of
   * embedded videos or ads far down would otherwise be held by its slowest frame.
   */
  place(frame: Frame, inView: boolean): void {
    this.framesPlaced.add(frame);
    if (inView) return;
    this.framesOutOfView.add(frame);
    this.onLessAwaited();
  }

  placed(frame: Frame): boolean {
    return this.framesPlaced.has(frame);
  }

  /** True when `frame` is, or is inside, a frame of the tab's document placed out of view. */
  outOfView(frame: Frame): boolean {
    const placed = this.ofDocument(frame);
    return placed !== undefined && this.framesOutOfView.has(placed);
  }

  /**
   * The frame of the tab's document that holds `frame`: itself, or the ancestor whose parent is the main frame;
   * undefined for the main frame. Frames are placed (`place`) at that level.
   */
  ofDocument(frame: Frame): Frame | undefined {
    let current = frame;
    while (current.parentFrame() && current.parentFrame() !== this.page.mainFrame()) current = current.parentFrame()!;
    return current.parentFrame() ? current : undefined;
  }

  private async watchParse(frame: Frame): Promise<void> {
    const loads = (this.loads.get(frame) ?? 0) + 1;
    this.loads.set(frame, loads);
    this.parsedFrames.delete(frame);
    await frame.waitForLoadState('domcontentloaded', { timeout: 60_000 }).catch(() => {});
    if (this.loads.get(frame) !== loads || frame.isDetached()) return;
    this.parsedFrames.add(frame);
    this.onLessAwaited();
  }
}
