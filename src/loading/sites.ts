/**
 * Sites: whose code a request is, the page's own or another site's (a tag manager, analytics, ads, a widget).
 * The load policy waits for the first and not for the second (traffic.ts); which sites
 * are the page's own, its markup says (markup.ts). Also the host of a URL as results name it.
 */

/**
 * The site of a host, as browsers group pages: its registrable domain ("news.example.co.uk" gives
 * "example.co.uk"). Approximated without the public suffix list: the last two labels, or three under a
 * country code whose second level is generic ("co.uk", "com.au"). An address or a one-label host is its own site.
 * Where the guess is wrong, it is wrong towards "same site", which is waited for.
 */
export function siteOf(host: string): string {
  if (/^[\d.]+$|^\[|^[^.]+$/.test(host)) return host;
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  const generic = labels.length > 2 && labels.at(-1)!.length === 2 && GENERIC_SECOND_LEVEL.has(labels.at(-2)!);
  return labels.slice(generic ? -3 : -2).join('.');
}
const GENERIC_SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'go', 'gob', 'gov', 'ltd', 'mil', 'ne', 'net', 'nic', 'or', 'org', 'plc', 'sch']);

/** The host of a URL as a result names it ("ads.example.com", "127.0.0.1:8080"); the URL's start when it has none. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url.slice(0, 40);
  } catch {
    return url.slice(0, 40);
  }
}

/** A URL's scheme, host and port ("https://example.com"), or undefined for a malformed one. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The site of a URL ("" for about:blank, data: and the like). */
export function siteOfUrl(url: string): string {
  try {
    const host = new URL(url).hostname;
    return host && siteOf(host);
  } catch {
    return '';
  }
}

/** Chromium's site of a page: its scheme and registrable domain ("https://example.com"); "" for a URL without a host. */
export function schemefulSiteOf(url: string): string {
  const site = siteOfUrl(url);
  return site && `${url.slice(0, url.indexOf(':'))}://${site}`;
}
