/**
 * A new browsing instance (a fresh frame) for a tab that has shown many pages of one site.
 *
 * Chromium keeps a tab's frame for as long as it shows pages of one site. Playwright gives every document an
 * isolated world of its own (its utility world, where snapshots and refs are computed), and the frame keeps each
 * of those worlds and builds all of them again in every later document. So a tab grows slower with every page of
 * the site it shows, in any Playwright-driven browser. A page of another site gets a new frame, and the frame
 * starts over.
 *
 * So before `loadPage` opens a page of the site whose pages the tab has shown `RENEW_AFTER` times in a row, the
 * tab first passes through an empty page of no site (a data: URL, which comes from no server). The page asked
 * for then opens in a new frame (a new browsing instance), in a renderer process of its own; the old one goes with
 * the frames it held. The empty page stays in the tab's history between the two pages, so browser_history and
 * navigate's way back step over it (`moveInHistory`).
 */
import type { Page } from 'playwright-core';
import { stage } from '../stages.js';
import type { Deadline } from '../deadline.js';
import { schemefulSiteOf } from './sites.js';
import { stopLoading } from './tabControl.js';
import { within } from '../within.js';
import { BETWEEN_PAGES, isBetweenPages, moveInHistory, untilParsed } from './historyMoves.js';

/**
 * Documents of one site in a row before the next navigate renews the frame. Each costs the ones after it about
 * 1 ms, and a renewal costs ~20 ms: every 10 keeps the average cost near 6 ms a page, and the empty pages rare.
 */
export const RENEW_AFTER = 10;

/** How long the empty page may take to arrive; it comes from no server, so only a busy machine delays it. */
const RENEW_MS = 2_000;

/** How many documents of one site a tab's frame has shown in a row, and the renewal that starts it over. */
export class FrameWear {
  private site = '';
  private documents = 0;

  constructor(private readonly page: Page) {
    page.on('domcontentloaded', () => this.shown(page.url()));
  }

  /** Opening `url` would add one more document to a frame that has already shown `RENEW_AFTER` of its site. */
  worn(url: string): boolean {
    return this.documents >= RENEW_AFTER && schemefulSiteOf(url) === this.site;
  }

  /**
   * Passes the tab through the empty page when opening `url` would wear its frame further. If the empty page does
   * not arrive in time its load is stopped and the tab keeps its frame: the page still opens, as it would have.
   */
  async renewBefore(url: string, deadline: Deadline): Promise<void> {
    if (!this.worn(url)) return;
    await stage('load: fresh frame', async () => {
      try {
        await this.page.goto(BETWEEN_PAGES, { waitUntil: 'commit', timeout: Math.min(RENEW_MS, deadline.forStep() / 4) });
        this.site = '';
        this.documents = 0;
      } catch {
        await stopLoading(this.page);
      }
    });
  }

  /**
   * After a load that brought no page (its server did not answer in time, a download, an empty answer): a tab
   * left on the empty page goes back to the page before it, which a stopped load would have kept on screen.
   * True when the tab shows that page again, or was not on the empty page.
   */
  async backOverRenewal(deadline: Deadline): Promise<boolean> {
    if (!isBetweenPages(this.page.url())) return true;
    await stage('load: back over the fresh frame', async () => {
      // After a timeout only the time kept for the answer is left: half of it for the way back.
      const ends = Date.now() + Math.min(RENEW_MS, deadline.remaining() / 2);
      const left = () => Math.max(1, ends - Date.now());
      // A load refused at once (a redirect the allowlist blocks) ends while the empty page is still arriving, when a
      // move fails or is lost: it waits for the page to be parsed, and moveInHistory moves again if still on it.
      await untilParsed(this.page, left()).catch(() => {});
      // Parsed, not only committed: the page the agent reads next, which a stopped load would not have taken away.
      await moveInHistory(this.page, 'back', () => ({ waitUntil: 'domcontentloaded', timeout: left() })).catch(() => stopLoading(this.page));
    });
    return !isBetweenPages(this.page.url());
  }

  private shown(url: string): void {
    const site = schemefulSiteOf(url);
    // about:blank, error pages and other data: pages may be shown in the same frame: they neither count nor reset.
    if (!site) return;
    if (site !== this.site) {
      this.site = site;
      this.documents = 0;
    }
    this.documents++;
  }
}
