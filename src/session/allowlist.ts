/**
 * The domain allowlist, held on every request a session's pages make: documents, redirect hops, frames,
 * popups, scripts, images, fetch and XHR, form posts, WebSockets. It is routing on the context, so nothing a
 * page does gets around it; a service worker, which could answer without routing, is blocked with it
 * (BrowserSession opens the context with `serviceWorkers: 'block'`). Refused requests are noted on their tab
 * and reported by the next result.
 */
import type { APIResponse, BrowserContext, Page, Request } from 'playwright-core';

/** `example.com` matches that host; `*.example.com` matches it and every subdomain. */
export function isAllowedHost(hostname: string, allowed: string[]): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((pattern) => (pattern.startsWith('*.') ? host === pattern.slice(2) || host.endsWith(pattern.slice(1)) : host === pattern));
}

/** Whether the browser may fetch `url`: network URLs need an allowed host; data:, blob: and about: stay in the page. */
export function isAllowedUrl(url: string, allowed: string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (/^(https?|wss?):$/.test(parsed.protocol)) return isAllowedHost(parsed.hostname, allowed);
  return /^(data|blob|about):$/.test(parsed.protocol);
}

function pageOf(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined; // a service worker's request has no frame
  }
}

/** `onBlocked` hears of each refused URL, with its tab when the browser says which (WebSockets do not). */
export async function installAllowlist(context: BrowserContext, allowed: string[], onBlocked: (url: string, page: Page | undefined) => void): Promise<void> {
  await context.route('**/*', async (route) => {
    const request = route.request();
    if (!isAllowedUrl(request.url(), allowed)) {
      onBlocked(request.url(), pageOf(request));
      return route.abort('blockedbyclient');
    }
    // Routing sees only the first hop of a redirect chain, so the request is made here with redirects off and
    // a redirect is let through only to an allowed host; the browser's next hop is then routed in turn.
    // The cost: with an allowlist, responses reach the page whole rather than streamed.
    let response: APIResponse;
    try {
      response = await route.fetch({ maxRedirects: 0, timeout: 0 });
    } catch {
      return route.abort('failed').catch(() => {});
    }
    const location = response.status() >= 300 && response.status() < 400 ? response.headers().location : undefined;
    if (location) {
      const target = new URL(location, request.url()).href;
      if (!isAllowedUrl(target, allowed)) {
        onBlocked(target, pageOf(request));
        return route.abort('blockedbyclient');
      }
    }
    return route.fulfill({ response }).catch(() => {});
  });
  await context.routeWebSocket(
    (url) => !isAllowedUrl(url.href, allowed),
    (socket) => {
      onBlocked(socket.url(), undefined);
      void socket.close({ code: 1008, reason: 'Blocked by the domain allowlist' }).catch(() => {});
    },
  );
}
