/**
 * What a document's markup says about the requests it makes, read from the HTML as sent (traffic.ts reads it
 * once the main document has arrived): which sites the page waits for (its own code) and which
 * style sheets are for print or another medium than a screen. One regular expression over
 * the tags, not a parser: a tag written inside an inline script counts too, which errs towards waiting.
 */
import { siteOfUrl } from './sites.js';

export interface MarkupReading {
  /**
   * The sites the markup makes the page wait for: those of its scripts without `async` (the parser runs them
   * before the page is built) and of its style sheets and module preloads. A site that serves the page's own
   * code from a CDN of another domain (an app bundle, its chunks) is named there; a tag manager inserted by an
   * inline snippet, or a script marked `async`, is not.
   */
  sites: Set<string>;
  /**
   * Absolute URLs of style sheets linked for print, or for another medium that is never a screen (`media="print"`,
   * `"print, handheld"`, `"speech"`), with nothing in the tag to switch them on (no `onload`, the usual way to load
   * a sheet late): they cannot change what the screen shows.
   */
  offScreenSheets: Set<string>;
  /**
   * Absolute URLs of the scripts the parser runs before the document counts as parsed: every `<script src>` without
   * `async` (a `defer` or module script runs before DOMContentLoaded too). One that never answers holds the page
   * unparsed for good, whether or not the parser has reached it yet.
   */
  parserScripts: Set<string>;
  /** Absolute URLs of the `<script async src>`: the parser never waits on them. */
  asyncScripts: Set<string>;
}

export function readMarkup(html: string, documentUrl: string): MarkupReading {
  const sites = new Set<string>();
  const offScreenSheets = new Set<string>();
  const parserScripts = new Set<string>();
  const asyncScripts = new Set<string>();
  const base = baseOf(html, documentUrl);
  for (const [, name, attributes] of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const isScript = name!.toLowerCase() === 'script';
    const rel = isScript ? '' : (attribute(attributes!, 'rel') ?? '');
    const waitedFor = isScript ? !hasAttribute(attributes!, 'async') : /\b(stylesheet|modulepreload)\b/i.test(rel);
    const url = attribute(attributes!, isScript ? 'src' : 'href');
    if (isScript && url) {
      const absolute = resolve(url, base);
      if (absolute) (waitedFor ? parserScripts : asyncScripts).add(absolute);
    }
    if (!waitedFor || !url) continue;
    // A relative URL is the document's own site.
    if (/^(https?:)?\/\//i.test(url)) sites.add(siteOfUrl(url.startsWith('//') ? `https:${url}` : url));
    if (!isScript && /\bstylesheet\b/i.test(rel) && neverOnScreen(attribute(attributes!, 'media')) && !hasAttribute(attributes!, 'onload')) {
      const absolute = resolve(url, base);
      if (absolute) offScreenSheets.add(absolute);
    }
  }
  sites.delete('');
  return { sites, offScreenSheets, parserScripts, asyncScripts };
}

/**
 * Media types that a browser window never is: print, and the CSS 2 types the browser matches with nothing
 * (speech, handheld, tv, ...). Not an unknown word: `media="only x"` is how a page holds a sheet back until
 * its script switches it on, so such a sheet is waited for.
 */
const NOT_A_SCREEN = /^(only\s+)?(print|speech|aural|braille|embossed|handheld|projection|tty|tv)(\s+and\b|$)/;

/** True for a media list whose every query names such a type ("print", "print, handheld", "only print and (color)"). */
function neverOnScreen(media: string | undefined): boolean {
  if (!media) return false;
  const queries = media.split(',').map((query) => query.trim().toLowerCase());
  return queries.every((query) => NOT_A_SCREEN.test(query));
}

function baseOf(html: string, documentUrl: string): string {
  const href = /<base\b([^>]*)>/i.exec(html)?.[1];
  const given = href ? attribute(href, 'href') : undefined;
  return (given && resolve(given, documentUrl)) || documentUrl;
}

/** The URL a request for `url` carries, as the page's `request` events give it: absolute, without a fragment. */
function resolve(url: string, base: string): string | undefined {
  try {
    const parsed = new URL(url.replace(/&amp;/gi, '&'), base);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3])!.trim() : undefined;
}

function hasAttribute(attributes: string, name: string): boolean {
  const unquoted = attributes.replace(/"[^"]*"|'[^']*'/g, '""');
  return new RegExp(`(?:^|\\s)${name}(?:[\\s=/]|$)`, 'i').test(unquoted);
}
