/**
 * When the page is loaded again without the requests given up on (untilBuilt.ts): the others refused by the same
 * load, so that each does not cost a load, and a whole cap, of its own.
 */
import type { Request } from 'playwright-core';
import { sleep, type Deadline } from '../deadline.js';
import { blocking } from './builtOrBlocked.js';
import type { Traffic } from './traffic.js';

/**
 * When the page is loaded again anyway: the scripts and style sheets that went out and have waited the cap since
 * the page asked for them, though not yet that long on their server, and those the parser does not wait on (an
 * `async` one would hold the next load's settling instead). Refused with those given up on, they do not cost a
 * load, or a wait, of their own (a script held back behind the head's style sheet, and then stuck).
 */
export function overdueSinceRequested(traffic: Traffic, giveUpMs: number): Request[] {
  const kinds = new Set(['script', 'stylesheet']);
  return traffic.pendingRequests().filter((request) => kinds.has(request.resourceType()) && !traffic.waits.notSent(request) && traffic.waits.pendingFor(request) >= giveUpMs);
}

/**
 * How far short of the cap a script or style sheet still out may be, when others are given up on, for the page to
 * be loaded again only once it has reached the cap too (`reachingCapAlongside`).
 */
const ALONGSIDE_MS = 500;

/**
 * Before the page is loaded again without what was given up on: the scripts and style sheets still out whose cap
 * ends within `ALONGSIDE_MS` (they went out moments after the ones given up on: a connection still being opened,
 * the document's next part). Waits until their cap has passed (within the deadline) and returns those still
 * unanswered, to be refused by the same load. Asked for anew by the next load, each would wait a whole cap of its
 * own, and cost a load more.
 */
export async function reachingCapAlongside(traffic: Traffic, giveUpMs: number, givenUp: ReadonlySet<string>, deadline: Deadline): Promise<Request[]> {
  const near = blocking(traffic).filter((request) => !givenUp.has(request.url()) && !traffic.waits.notSent(request) && traffic.waits.outFor(request) >= giveUpMs - ALONGSIDE_MS);
  if (!near.length) return [];
  const until = Math.max(...near.map((request) => giveUpMs - traffic.waits.outFor(request)));
  await sleep(Math.min(until, deadline.forStep()));
  const pending = new Set(traffic.pendingRequests());
  return near.filter((request) => pending.has(request) && traffic.waits.outFor(request) >= giveUpMs);
}

