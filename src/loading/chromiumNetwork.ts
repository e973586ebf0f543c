/**
 * What Chromium's network stack knows about a tab's requests and Playwright does not say, from a CDP session of
 * the tab's own:
 * - who made a data request: the scripts on the call stack when the page called `fetch` or `XMLHttpRequest`
 *   (its initiator). The load policy treats an analytics script's collect call like the script itself: other
 *   sites' code is not waited for (traffic.ts). Asked only about the main document's requests
 *   (a frame's are sorted by whose frame it is).
 * - whether and when a request went out to its server. The browser holds some back: a seventh request to an
 *   HTTP/1.1 server already holding six, or a page's later requests while its head style sheets are out. Such a
 *   request is waiting on the browser, not on a server that does not answer: its time on its server is counted
 *   from when it went out (untilBuilt.ts). Chromium may tell of a request going out before it
 *   tells of the request.
 * - the priority the browser gave a request: a script inserted by script gets a low one, and the parser does not
 *   wait on it.
 * All are keyed by URL: the latest request to a URL is the one known.
 */
import type { Page } from 'playwright-core';
import { sleep } from '../deadline.js';
import { originOf } from './sites.js';

interface StackTrace {
  callFrames: Array<{ url: string }>;
  parent?: StackTrace;
}

interface RequestWillBeSent {
  requestId: string;
  request: { url: string; initialPriority?: string };
  type?: string;
  initiator: { type: string; stack?: StackTrace };
}

/** Chromium's limit of open HTTP/1.1 connections to one server (scheme, host and port), per browser profile. */
export const CONNECTIONS_PER_SERVER = 6;

/** How long `ready` waits for the session to listen (it answers in a few ms). */
const LISTEN_MS = 1_000;

/** How many data requests' initiators, and how many unanswered requests, are kept: the most recent ones. */
const KEPT = 500;

export class ChromiumNetwork {
  /** URL of a data request -> the script URLs on its stack, newest requests last. */
  private readonly scripts = new Map<string, string[]>();
  /**
   * Requests without an answer yet, by CDP request id: their URL and the priority the browser gave them (once
   * known), and when they went out (once they did).
   */
  private readonly unanswered = new Map<string, { url?: string; priority?: string; sentAt?: number }>();
  /** When the browser last sent one of the tab's requests. */
  private lastSentAt = 0;
  private attached = false;
  /**
   * Resolves once the session listens, or after `LISTEN_MS` (a hung tab never answers). A load begun before that
   * may be told of in part only: Chromium tells a session that is still being set up when the tab's first page
   * loads of a request going out, not of the request.
   */
  readonly ready: Promise<void>;

  /** `onLearned` hears the URL of each data request whose initiator became known, to sort it if it is already in flight. */
  constructor(page: Page, onLearned: (url: string) => void) {
    this.ready = Promise.race([this.attach(page, onLearned), sleep(LISTEN_MS)]);
  }

  /**
   * The scripts on the stack that made a data request to `url` (the latest such request), or undefined when
   * that is not known: no stack (the browser itself, a form), or no CDP session (another browser engine).
   */
  scriptsOf(url: string): string[] | undefined {
    return this.scripts.get(url);
  }

  /**
   * True when the browser has the latest request to `url` but has not sent it to the server: it waits for a
   * connection or for the page's more urgent requests. False when it went out, was answered, or is not known.
   */
  notSent(url: string): boolean {
    const latest = this.latest(url);
    return latest !== undefined && latest.sentAt === undefined;
  }

  /** When the latest request to `url` went out to its server (a `Date.now()` time); undefined when not known. */
  wentOutAt(url: string): number | undefined {
    return this.latest(url)?.sentAt;
  }

  /** True when the browser sent one of the tab's requests in the last `ms`: its network is not stalled. */
  sentWithin(ms: number): boolean {
    return this.attached && Date.now() - this.lastSentAt < ms;
  }

  /**
   * The priority the browser gave the latest request to `url` that has no answer yet ('VeryLow' to 'VeryHigh').
   * A script inserted by script gets 'Low': the parser does not wait on it; one the parser or `document.write`
   * adds gets 'Medium' or more.
   */
  priorityOf(url: string): string | undefined {
    return this.latest(url)?.priority;
  }

  /**
   * True when requests to the server `url` is on wait for a connection: as many went out unanswered as Chromium
   * opens to one HTTP/1.1 server, and at least one more is held back behind them.
   */
  connectionsFull(url: string): boolean {
    const origin = originOf(url);
    let sent = 0;
    let held = false;
    for (const entry of this.unanswered.values()) {
      if (!entry.url || originOf(entry.url) !== origin) continue;
      if (entry.sentAt !== undefined) sent++;
      else held = true;
    }
    return held && sent >= CONNECTIONS_PER_SERVER;
  }

  private latest(url: string): { priority?: string; sentAt?: number } | undefined {
    if (!this.attached) return undefined;
    let latest: { priority?: string; sentAt?: number } | undefined;
    for (const entry of this.unanswered.values()) if (entry.url === url) latest = entry;
    return latest;
  }

  private async attach(page: Page, onLearned: (url: string) => void): Promise<void> {
    // The two events of a request come in either order: an entry is made by whichever is first.
    const entry = (id: string) => {
      let found = this.unanswered.get(id);
      if (!found) {
        this.unanswered.set(id, (found = {}));
        if (this.unanswered.size > KEPT) this.unanswered.delete(this.unanswered.keys().next().value!);
      }
      return found;
    };
    try {
      const session = await page.context().newCDPSession(page);
      session.on('Network.requestWillBeSent', (event: RequestWillBeSent) => {
        Object.assign(entry(event.requestId), { url: event.request.url, priority: event.request.initialPriority });
        if (event.type !== 'XHR' && event.type !== 'Fetch') return;
        const urls = stackScripts(event.initiator.stack);
        if (!urls.length) return;
        this.scripts.delete(event.request.url);
        this.scripts.set(event.request.url, urls);
        if (this.scripts.size > KEPT) this.scripts.delete(this.scripts.keys().next().value!);
        onLearned(event.request.url);
      });
      // The headers as they go out: the request has left the browser for its server.
      session.on('Network.requestWillBeSentExtraInfo', (event: { requestId: string }) => void (entry(event.requestId).sentAt = this.lastSentAt = Date.now()));
      const answered = (event: { requestId: string }) => void this.unanswered.delete(event.requestId);
      session.on('Network.responseReceived', answered);
      session.on('Network.loadingFinished', answered);
      session.on('Network.loadingFailed', answered);
      // Only what the events need: no request bodies kept for this session.
      await session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
      this.attached = true;
      page.once('close', () => void session.detach().catch(() => {}));
    } catch {
      // Not Chromium, or the tab is already gone: every data request stays waited for, every request counts as sent.
    }
  }
}

/** The distinct script URLs on a stack and the stacks it was called from (async parents, when Chromium gives them). */
function stackScripts(stack: StackTrace | undefined): string[] {
  const urls = new Set<string>();
  for (let part = stack; part; part = part.parent) for (const frame of part.callFrames) urls.add(frame.url);
  return [...urls];
}
