/**
 * Opening an address in a tab, the one way every caller loads a page (navigate, a new tab with an address, a
 * resumed session, the provider, emptying the last tab): its document until it arrives (arrive.ts), then the page
 * until it is usable (settle.ts); what it came to is decided once for every caller (outcome.ts) and returned as
 * data.
 */
import type { Response } from 'playwright-core';
import type { SettlePolicy } from '../config.js';
import type { Deadline } from '../deadline.js';
import { untilArrived, type WaitUntil } from './arrive.js';
import { outcomeOf, type LoadEnd, type Opened } from './outcome.js';
import { settle, type EarlySnapshot } from './settle.js';
import type { LoadingTab } from './tabLoading.js';

/** What opening an address needs: the call's deadline, the load policy, and optionally Playwright's strict waiting. */
export interface LoadOptions<T = never> {
  deadline: Deadline;
  /** The settle policy of the toolset's config. */
  settle: SettlePolicy;
  /** Wait strictly for this event instead of the load policy. */
  waitUntil?: WaitUntil;
  /** The snapshot to take while the page settles (settle.ts). */
  early?: EarlySnapshot<T>;
}

/** Opens `url` in `tab` and says what came of it (outcome.ts). */
export async function openAddress<T>(tab: LoadingTab, url: string, options: LoadOptions<T>): Promise<Opened<T>> {
  const before = { address: url, url: tab.page.url(), at: Date.now(), deadline: options.deadline };
  const loading = loadPage(tab, url, options);
  // A page that opens confirm() while loading cannot finish loading until it is answered.
  const outcome = await tab.loading.unlessDialogOpens(loading);
  return outcome.dialog ? { kind: 'dialog' } : outcomeOf(tab, outcome.value, before);
}

/** The document until it arrives, then the page until it is usable (unless `waitUntil` asks for Playwright's waiting). */
async function loadPage<T>(tab: LoadingTab, url: string, { deadline, settle: policy, waitUntil, early }: LoadOptions<T>): Promise<LoadEnd<T>> {
  const arrival = await untilArrived(tab, url, deadline, waitUntil);
  if (arrival.kind !== 'arrived') return arrival;
  const response: Response | null = arrival.response;
  // A proxy that refused its login (407) sent no page of the site to wait for: the npm-shipped headless shell shows
  // its empty answer to an http address, and never finishes loading it for an https one.
  if ((waitUntil && !arrival.movedOn) || response?.status() === 407) return { kind: 'page', loaded: { response, parsed: true } };
  return { kind: 'page', loaded: { response, ...(await settle(tab, deadline, policy, early)) } };
}
