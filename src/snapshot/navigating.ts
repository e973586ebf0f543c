/**
 * A page that navigates while it is read. A capture that began on a document the tab is leaving is given up
 * at once (`leaving`), instead of Playwright waiting seconds for the next document's body; and a page that
 * replaces itself again and again (a meta refresh or reload loop) is held on the document it shows
 * (`holdDocument`), as a person would press Stop, so that it can be read at all.
 */
import type { Page, Request, Route } from 'playwright-core';

/** Rejects when the tab starts loading another document (a navigation request of its main frame). */
export function leaving(page: Page): { promise: Promise<never>; dispose(): void } {
  let onRequest: (request: Request) => void = () => {};
  const promise = new Promise<never>((_, reject) => {
    onRequest = (request) => {
      if (request.isNavigationRequest() && isMainFrame(page, request)) reject(new Error('The page navigated to another document during the capture.'));
    };
    page.on('request', onRequest);
  });
  promise.catch(() => {});
  return { promise, dispose: () => page.off('request', onRequest) };
}

/**
 * Refuses the tab's next documents until the returned release is called: the page stays on the one it shows.
 * Refused as aborted, which leaves no error page; every other request goes on to the session's own routes.
 */
export async function holdDocument(page: Page): Promise<() => Promise<void>> {
  const refuse = (route: Route) => {
    const request = route.request();
    return request.isNavigationRequest() && isMainFrame(page, request) ? route.abort('aborted') : route.fallback();
  };
  await page.route('**/*', refuse);
  return () => page.unroute('**/*', refuse).catch(() => {});
}

/** True for a request of the tab's main frame; false for a frame's, or a service worker's (which has no frame). */
export function isMainFrame(page: Page, request: Request): boolean {
  try {
    return request.frame() === page.mainFrame();
  } catch {
    return false; // a service worker's request has no frame
  }
}
