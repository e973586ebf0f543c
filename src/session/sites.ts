/**
 * Whose code a request is: the page's own, or another site's (a tag manager, analytics, ads, a widget). The
 * load policy waits for the first and not for the second (traffic.ts; DECISIONS 60 and 61).
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

/** The site of a URL ("" for about:blank, data: and the like). */
export function siteOfUrl(url: string): string {
  try {
    const host = new URL(url).hostname;
    return host && siteOf(host);
  } catch {
    return '';
  }
}

/**
 * The sites a document's markup makes the page wait for: those of its scripts without `async` (the parser
 * runs them before the page is built) and of its style sheets and module preloads. A site that serves the
 * page's own code from a CDN of another domain (an app bundle, its chunks) is named there; a tag manager
 * inserted by an inline snippet, or a script marked `async`, is not. Read from the HTML as sent: a script
 * tag written inside an inline script counts too, which errs towards waiting.
 */
export function sitesTheMarkupWaitsFor(html: string): Set<string> {
  const sites = new Set<string>();
  for (const [, name, attributes] of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const isScript = name!.toLowerCase() === 'script';
    const waitedFor = isScript ? !hasAttribute(attributes!, 'async') : /\b(stylesheet|modulepreload)\b/i.test(attribute(attributes!, 'rel') ?? '');
    const url = attribute(attributes!, isScript ? 'src' : 'href');
    // A relative URL is the document's own site.
    if (waitedFor && url && /^(https?:)?\/\//i.test(url)) sites.add(siteOfUrl(url.startsWith('//') ? `https:${url}` : url));
  }
  sites.delete('');
  return sites;
}

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3])!.trim() : undefined;
}

function hasAttribute(attributes: string, name: string): boolean {
  const unquoted = attributes.replace(/"[^"]*"|'[^']*'/g, '""');
  return new RegExp(`(?:^|\\s)${name}(?:[\\s=/]|$)`, 'i').test(unquoted);
}
