/**
 * What the load policy hands back once it is done with a page (settle.ts): whether the page was parsed, one line
 * for the result about what it gave up on and what is still in flight, and the snapshot taken while it settled.
 * Written last, from what the two parts before it handed on (untilBuilt.ts, quiet.ts).
 */
import type { Request } from 'playwright-core';
import type { Quieted } from './quiet.js';
import { hostOf } from './sites.js';
import type { Traffic } from './traffic.js';
import type { Built } from './untilBuilt.js';

export interface Settled<T = never> {
  /** False when the document itself was still arriving at the deadline (a page streamed for ever). */
  parsed: boolean;
  /** One line for the result when requests were still in flight: "3 requests (ads.example.com, …)". */
  loading?: string;
  /** What `snapshot` took during the quiet window, when the page did not change while it was taken. */
  snapshot?: T;
}

/** What came of the page: built and then quiet (`quiet`), its document still arriving at the deadline, or the tab closed. */
export function settledAs<T>(traffic: Traffic, built: Built, quiet: Quieted<T> | undefined): Settled<T> {
  if (built.kind === 'closed') return { parsed: true };
  if (built.kind === 'late') return { parsed: false, loading: describeLoading(traffic, 'its document is still arriving') };
  const refused = describeRequests(built.refused);
  const loading = [refused && `refused ${refused} that did not answer in ${Math.round(built.giveUpMs / 100) / 10} s`, describeLoading(traffic)].filter(Boolean).join('; ');
  return { parsed: true, ...(loading ? { loading } : {}), ...quiet };
}

/** What is still loading, in one line for a result ("3 requests (ads.example.com, …)"), after `about` when given. */
function describeLoading(traffic: Traffic, about?: string): string | undefined {
  return [about, describeRequests(traffic.pendingRequests())].filter(Boolean).join('; ') || undefined;
}

/** "3 requests (ads.example.com, cdn.example.net, …)" */
function describeRequests(requests: Request[]): string | undefined {
  if (!requests.length) return undefined;
  const hosts = [...new Set(requests.map((request) => hostOf(request.url())))];
  const shown = hosts.slice(0, 3).join(', ') + (hosts.length > 3 ? ', …' : '');
  return `${requests.length} request${requests.length === 1 ? '' : 's'} (${shown})`;
}
