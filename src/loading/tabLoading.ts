/**
 * What the load policy keeps of one tab for as long as the tab lives: its requests (`Traffic`), how many pages of
 * one site its frame has shown (`FrameWear`, freshFrame.ts), and the watch that frees a frame of it held by a
 * request that never answers (frameRelease.ts). The tab's owner makes one per tab, and hands the tab to every load.
 */
import type { Page } from 'playwright-core';
import type { DocumentHolds } from '../snapshot/index.js';
import { releaseHeldFrames } from './frameRelease.js';
import { FrameWear } from './freshFrame.js';
import { Traffic } from './traffic.js';

export class TabLoading {
  /** The tab's requests, as the load policy sees them. */
  readonly traffic: Traffic;
  /** Pages of one site the tab's frame has shown, to renew it before it wears. */
  readonly frameWear: FrameWear;

  /** `settleCapMs`: the settle policy's cap, after which a frame's unanswered style sheet or script is given up on. */
  constructor(page: Page, settleCapMs: number) {
    this.traffic = new Traffic(page);
    this.frameWear = new FrameWear(page);
    releaseHeldFrames(page, this.traffic, settleCapMs);
  }
}

/** What loading needs of a tab: its page, what loading keeps of it, and its holds on its document. */
export interface LoadingTab {
  readonly page: Page;
  readonly loading: TabLoading;
  /** A page that keeps loading itself again is held on one document while it loads (snapshot/navigating.ts). */
  readonly holds: DocumentHolds;
}

/** What opening an address or acting needs of a tab besides: dialogs, downloads, refused requests. */
export interface OpeningTab<D> extends LoadingTab {
  /** Waits for `work` unless a dialog is left open for the agent first (the page is then frozen). */
  unlessDialogOpens<T>(work: Promise<T>): Promise<{ dialog: true } | { dialog: false; value: T }>;
  /** Requests the allowlist refused since the last call. */
  takeBlocked(): string[];
  /** True when a download has begun, or begins within `ms`. */
  downloadBegun(ms: number): Promise<boolean>;
  /** Downloads finished since the last call, once saved. */
  takeDownloads(): Promise<D[]>;
}
