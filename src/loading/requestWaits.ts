/**
 * How long each of a tab's pending requests has waited, and on whom: on its server (it went out and no answer
 * came), or on the browser (held back behind the six connections Chromium opens to an HTTP/1.1 server, or behind
 * more urgent requests). The load policy gives up on a request by its time on its server only (untilBuilt.ts):
 * a request queued behind others is not a sign of a server that does not answer. One per tab,
 * held by its `Traffic`.
 */
import type { Request } from 'playwright-core';
import { CONNECTIONS_PER_SERVER, type ChromiumNetwork } from './chromiumNetwork.js';
import { originOf } from './sites.js';

export class RequestWaits {
  /** When the page asked for each request. */
  private readonly askedAt = new WeakMap<Request, number>();

  /** `pending` lists the tab's requests still waiting for their answer (`Traffic.pendingRequests`). */
  constructor(
    private readonly network: ChromiumNetwork,
    private readonly pending: () => Request[],
  ) {}

  /** The page asked for `request` now. */
  asked(request: Request): void {
    this.askedAt.set(request, Date.now());
  }

  /** When the page asked for `request` (Date.now()); undefined for a request not seen. */
  askedAtOf(request: Request): number | undefined {
    return this.askedAt.get(request);
  }

  /** Milliseconds since the page asked for `request`. */
  pendingFor(request: Request): number {
    return Date.now() - (this.askedAt.get(request) ?? Date.now());
  }

  /**
   * Milliseconds `request` has waited on its server: since it went out (chromiumNetwork.ts), 0 while the browser
   * still holds it back (`notSent`), or since the page asked for it when neither is known. Time spent queued
   * behind the page's other requests is the browser's, not a sign of a server that does not answer.
   */
  outFor(request: Request): number {
    const at = this.network.wentOutAt(request.url());
    if (at !== undefined) return Date.now() - at;
    return this.notSent(request) ? 0 : this.pendingFor(request);
  }

  /**
   * True when the browser holds `request` back rather than a server not answering it: it has not gone out yet
   * (chromiumNetwork.ts). False when it went out or that is not known.
   */
  notSent(request: Request): boolean {
    return this.network.notSent(request.url());
  }

  /** True when the browser sent one of the tab's requests in the last `ms` (chromiumNetwork.ts). */
  sentWithin(ms: number): boolean {
    return this.network.sentWithin(ms);
  }

  /**
   * The requests `request` waits behind for a connection, when it is not known to have gone out and as many
   * requests to its server as Chromium opens connections to one (HTTP/1.1) were asked for before it and are still
   * pending: a server that does not answer them holds it back for as long. Undefined otherwise.
   */
  heldBehind(request: Request): Request[] | undefined {
    const origin = originOf(request.url());
    if (!origin || this.network.wentOutAt(request.url()) !== undefined) return undefined;
    const since = this.askedAt.get(request) ?? 0;
    const ahead = this.pending().filter((other) => other !== request && originOf(other.url()) === origin && (this.askedAt.get(other) ?? 0) <= since);
    return ahead.length >= CONNECTIONS_PER_SERVER ? ahead : undefined;
  }

  /**
   * True when this tab's requests to the server `url` is on wait for a connection: six went out and one more is
   * held back (chromiumNetwork.ts).
   */
  connectionsFull(url: string): boolean {
    return this.network.connectionsFull(url);
  }

  /**
   * True when this tab's requests still waiting on one server (the one `url` is on, or any) are as many as
   * Chromium opens connections to it over HTTP/1.1: a page whose polls hang. Any further request to that server,
   * a navigation among them, then waits behind them for ever.
   */
  holdsAllConnections(url?: string): boolean {
    const counts = new Map<string, number>();
    for (const request of this.pending()) {
      const origin = originOf(request.url());
      if (origin) counts.set(origin, (counts.get(origin) ?? 0) + 1);
    }
    const held = url === undefined ? [...counts.values()] : [counts.get(originOf(url) ?? '') ?? 0];
    return held.some((count) => count >= CONNECTIONS_PER_SERVER);
  }
}
