/**
 * Polls: a page asking the same question again (a live feed, a ticker, a status check) refreshes what the first
 * answer brought, so the load policy does not wait for the repeats. A question is a data request's method,
 * address and body, where a query parameter that is only a number (a timestamp or random cache-buster, a
 * counter) does not make it another question; a chain of requests to one path with other parameters
 * (`/orders`, then `/orders?details`) asks new questions.
 */
import type { Request } from 'playwright-core';

function isData(request: Request): boolean {
  return request.resourceType() === 'xhr' || request.resourceType() === 'fetch';
}

function questionOf(request: Request): string {
  const url = new URL(request.url());
  const number = /^[\d.]+$/;
  const kept = [...url.searchParams].filter(([key, value]) => !number.test(value) && !(value === '' && number.test(key)));
  return `${request.method()} ${url.origin}${url.pathname}?${new URLSearchParams(kept).toString()} ${request.postData() ?? ''}`;
}

/** The questions a document has asked since it loaded or since the last action: a question asked again is a poll. */
export class Polls {
  private asked = new Set<string>();

  /** A new document, or an action: what the page asks from now on is new again. */
  forget(): void {
    this.asked = new Set();
  }

  /** True for a data request asking what was asked before (a poll); otherwise it is remembered. */
  isRepeat(request: Request): boolean {
    if (!isData(request)) return false;
    const question = questionOf(request);
    if (this.asked.has(question)) return true;
    this.asked.add(question);
    return false;
  }
}
