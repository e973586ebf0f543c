/**
 * What the load policy keeps of one tab for as long as the tab lives: its requests (`Traffic`), how many pages of
 * one site its frame has shown (`FrameWear`, freshFrame.ts), the requests the allowlist refused it, whether a
 * dialog froze it, whether a download began, and the watch that frees a frame of it held by a request that never
 * answers (frameRelease.ts). The tab's owner makes one per tab and hands the tab to every load; loading asks
 * nothing back of the owner.
 */
import type { Page } from 'playwright-core';
import type { DocumentHolds } from '../snapshot/index.js';
import { releaseHeldFrames } from './frameRelease.js';
import { FrameWear } from './freshFrame.js';
import { Traffic } from './traffic.js';

/** What loading needs of a tab: its page, what loading keeps of it, and its holds on its document. */
export interface LoadingTab {
  readonly page: Page;
  readonly loading: TabLoading;
  /** A page that keeps loading itself again is held on one document while it loads (snapshot/navigating.ts). */
  readonly holds: DocumentHolds;
}

export class TabLoading {
  /** The tab's requests, as the load policy sees them. */
  readonly traffic: Traffic;
  /** Pages of one site the tab's frame has shown, to renew it before it wears. */
  readonly frameWear: FrameWear;
  private refused: string[] = [];
  private readonly dialogListeners = new Set<() => void>();
  private downloadAt = 0;

  /** `settleCapMs`: the settle policy's cap, after which a frame's unanswered style sheet or script is given up on. */
  constructor(private readonly page: Page, settleCapMs: number) {
    this.traffic = new Traffic(page);
    this.frameWear = new FrameWear(page);
    releaseHeldFrames(page, this.traffic, settleCapMs);
    page.on('download', () => (this.downloadAt = Date.now()));
  }

  /** A request the allowlist refused (its owner is told by the allowlist); reported by the next result. */
  noteRefused(url: string): void {
    if (this.refused.length < 20) this.refused.push(url);
  }

  /** The requests refused since the last time they were taken. */
  takeRefused(): string[] {
    const urls = this.refused;
    this.refused = [];
    return urls;
  }

  /** The tab's owner left a dialog open for the agent: the page is frozen until it is answered. */
  dialogLeftOpen(): void {
    for (const listener of this.dialogListeners) listener();
  }

  /**
   * Waits for `work`, unless a dialog is left open for the agent first: the page is then frozen until it is
   * answered, so the caller returns at once and `work` finishes in the background.
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

  /**
   * True when a download began at `since` (Date.now()) or later, or begins within `ms`: a navigation that turns into
   * a download fails before the download's own event may come.
   */
  async downloadBegun(since: number, ms: number): Promise<boolean> {
    if (this.downloadAt >= since) return true;
    return this.page.waitForEvent('download', { timeout: ms }).then(
      () => true,
      () => false,
    );
  }
}
