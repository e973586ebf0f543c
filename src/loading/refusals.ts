/**
 * Requests refused, as an ad blocker would, once the load policy gave up on them: the page (untilBuilt.ts,
 * settle.ts) or one of its frames (frameRelease.ts) is loaded again without them (CDP Network.setBlockedURLs).
 *
 * Chromium matches each pattern anywhere in an address, so an address refuses itself. But an ad or tracking tag
 * often adds a timestamp or a random number to its address so that no cache answers it
 * (`deck_js.php?1795792707250`): the page loaded again asks for another form of it, which the first does not
 * refuse, and which its server does not answer either. So each load waited the whole cap again.
 * Such a form is given up on at once (`Refusals.refusedBefore`), and the address is then refused without its
 * query, which refuses every form of it. Otherwise an address keeps its query: a combo loader (`/combo?a.js&b.js`)
 * serves many of a page's scripts from one path.
 */
import type { CDPSession, Page, Request } from 'playwright-core';
import type { Deadline } from '../deadline.js';
import { stopLoading } from './tabControl.js';

/**
 * The addresses refused for one document (the page, or one of its frames) over its loads, and those its current
 * load asked for. A refused address asked for again in another form, while its own form was not asked for in this
 * load, nor any other form of its path, is the same request with a new query (a cache-busting one); another script
 * of the same path asked for besides it (`/never?script=2` after `/never?script=1`) is a request of its own, given
 * its own time.
 */
export class RefusedAddresses {
  private readonly urls = new Set<string>();
  /** Paths refused whatever their query: a request reissued in another form was refused. */
  private readonly paths = new Set<string>();
  private asked = new Set<string>();

  /** The document asked for `url` in its current load (refused or not). */
  noteAsked(url: string): void {
    this.asked.add(url);
  }

  /**
   * True when `url` is another form of a refused address whose own form this load did not ask for, and the only
   * form of that path this load asked for: a tag asks for its one address, where a page that asks for several of
   * one path (`/img?n=1` to `/img?n=6`, a combo loader) asks for each of its own.
   */
  reissued(url: string): boolean {
    const path = withoutQuery(url);
    for (const asked of this.asked) if (asked !== url && withoutQuery(asked) === path) return false;
    for (const refused of this.urls) if (refused !== url && !this.asked.has(refused) && withoutQuery(refused) === path) return true;
    return false;
  }

  /** Refuses `urls` too, from the next load on (which begins now: what it asks for is noted from here). */
  refuse(urls: Iterable<string>): void {
    // Judged against the loads before: addresses of one path given up on together are requests of their own.
    const given = [...urls];
    for (const url of given.filter((url) => this.reissued(url))) this.paths.add(withoutQuery(url));
    for (const url of given) this.urls.add(url);
    this.asked = new Set();
  }

  /** What to give Network.setBlockedURLs, which matches a pattern anywhere in an address: a path refuses every form of it. */
  patterns(): string[] {
    return [...this.paths, ...[...this.urls].filter((url) => !this.paths.has(withoutQuery(url)))];
  }
}

/** `url` without its query and fragment. */
function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/**
 * Loads the page again with the requests given up on refused. The refusal holds for as long as its CDP session is
 * open: until `end()`, when the load policy is done with the page, so that each further load refuses everything
 * given up on so far.
 */
export class Refusals {
  private cdp: CDPSession | undefined;
  private readonly refused = new RefusedAddresses();
  private stopNoting = () => {};
  reloads = 0;

  /** True when the page asks again, in another form, for an address given up on in an earlier load (see above). */
  readonly refusedBefore = (request: Request): boolean => this.refused.reissued(request.url());

  /** Refuses `urls` too and loads the page again; returns once the new document has begun (it is then settled like the first). */
  async reload(page: Page, urls: string[], deadline: Deadline): Promise<void> {
    this.reloads++;
    try {
      if (!this.cdp) {
        this.cdp = await page.context().newCDPSession(page);
        await this.cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
        const note = (request: Request) => this.refused.noteAsked(request.url());
        page.on('request', note);
        this.stopNoting = () => page.off('request', note);
      }
      this.refused.refuse(urls);
      await this.cdp.send('Network.setBlockedURLs', { urls: this.refused.patterns() });
      // The requests of the load being left are ended first: one that never answers holds a connection the
      // new load may need (six of them, every connection to an HTTP/1.1 server).
      await this.cdp.send('Page.stopLoading');
      await page.reload({ waitUntil: 'commit', timeout: deadline.forStep() });
    } catch {
      await stopLoading(page); // no further load: keep what the last one built
    }
  }

  /** Ends the refusal. Awaited: a refusal still held when the tab's next load begins would refuse its requests too. */
  async end(): Promise<void> {
    this.stopNoting();
    const cdp = this.cdp;
    this.cdp = undefined;
    await cdp?.detach().catch(() => {});
  }
}
