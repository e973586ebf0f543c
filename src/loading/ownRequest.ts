/**
 * The navigation's own request: which request of the main frame is the one a navigation made for its address, so
 * that its arrival can tell a page that took the tab from it (arrive.ts) and a server that has begun to answer
 * (`unlessHung`, tabControl.ts).
 */
import type { Page, Request, Response } from 'playwright-core';
import { isMainFrame } from '../snapshot/index.js';

export interface OwnRequest {
  /** True once it has any answer (a redirect counts). */
  answered(): Promise<boolean>;
  /** True once its server sent the page itself: an answer that is not a redirect. */
  hasPage(): boolean;
  dispose(): void;
}

/** The main frame's request for `url` (the fragment aside), once made. */
export function ownRequest(page: Page, url: string): OwnRequest {
  const wanted = url.split('#')[0];
  let own: Request | undefined;
  let hasPage = false;
  const onRequest = (request: Request) => {
    if (!own && request.isNavigationRequest() && request.url().split('#')[0] === wanted && isMainFrame(page, request)) own = request;
  };
  const onResponse = (response: Response) => {
    const status = response.status();
    if (own && response.request().isNavigationRequest() && isMainFrame(page, response.request()) && (status < 300 || status >= 400)) hasPage = true;
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  return {
    answered: async () => {
      if (!own) return false;
      let last: Request = own;
      for (let next = last.redirectedTo(); next; next = next.redirectedTo()) last = next;
      return own !== last || (await last.response().catch(() => null)) !== null;
    },
    hasPage: () => hasPage,
    dispose: () => {
      page.off('request', onRequest);
      page.off('response', onResponse);
    },
  };
}
