/**
 * The page line's title and address as the model reads them: the address without the parameters that only
 * track a visit (an ad click's id, a mail campaign's name), and the title without the site's name where the
 * address already says it. The result's `url` field and `browser_tabs` keep the address whole.
 */
import { NAME_LIMIT, truncate } from './textLimits.js';

/**
 * Parameters that only say where a visit came from, named as the browsers that strip them name them
 * (Firefox's query stripping, Brave's debouncing): a page reads the same without them. `utm_` starts a family.
 */
const TRACKING = new Set([
  'fbclid', 'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'msclkid', 'yclid', 'twclid', 'ttclid', 'li_fat_id',
  'igshid', 'igsh', 'epik', 'rb_clickid', 'wickedid', 's_cid', 'mc_cid', 'mc_eid', 'mkt_tok', 'oly_anon_id',
  'oly_enc_id', 'vero_id', 'vero_conv', '_openstat', '_hsenc', '_hsmi', '__hssc', '__hstc', '__hsfp',
  'hsctatracking', 'ml_subscriber', 'ml_subscriber_hash', '_ga', '_gl', 'srsltid',
]);
const TRACKING_FAMILIES = ['utm_'];

export function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING.has(lower) || TRACKING_FAMILIES.some((family) => lower.startsWith(family));
}

/** The address without its tracking parameters; every other parameter stays, in its order and spelling. */
export function addressShown(url: string): string {
  const hash = url.indexOf('#');
  const end = hash < 0 ? url.length : hash;
  // Only the query: a fragment is the page's own (a hash route's "?tab=2" is read by its script).
  const query = url.indexOf('?');
  if (query < 0 || query > end) return url;
  const pairs = url.slice(query + 1, end).split('&');
  const kept = pairs.filter((pair) => {
    const name = pair.split('=')[0]!;
    try {
      return !isTrackingParameter(decodeURIComponent(name));
    } catch {
      return true;
    }
  });
  if (kept.length === pairs.length) return url;
  return `${url.slice(0, query)}${kept.length ? `?${kept.join('&')}` : ''}${url.slice(end)}`;
}

/** Where a title's parts meet: "Story - Site", "Story | Section | Site", "Story · Site". */
const SEPARATOR = / (?:[-|–—·»]|::) /g;

/** Letters and digits only, lower case, accents off: "Aktuálně.cz" and "aktualne.cz" read alike. */
function squashed(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * How a site's name may be spelled in its address: whole ("The Hill": thehill), without "The" ("The Washington
 * Post": washingtonpost), or with its first words as initials ("The New York Times": nytimes).
 */
function siteSpellings(name: string): string[] {
  const words = name.split(/\s+/).map(squashed).filter(Boolean);
  const bare = words[0] === 'the' && words.length > 1 ? words.slice(1) : words;
  const spellings = [words.join(''), bare.join('')];
  for (let k = 2; k < bare.length; k++) spellings.push(bare.slice(0, k).map((word) => word[0]).join('') + bare.slice(k).join(''));
  return spellings.filter(Boolean);
}

/** The names a host goes by, read from its end: "news.aktualne.cz" by "aktualne", "aktualnecz", "newsaktualne", ... */
function hostNames(url: string): Set<string> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return new Set();
  }
  const labels = host.split('.').filter((label) => label && label !== 'www');
  if (labels.length < 2 || /^[\d.]+$/.test(host) || host.includes(':')) return new Set();
  const names = labels.flatMap((_, i) => [labels.slice(i).join(''), labels.slice(i, -1).join('')]);
  return new Set(names.map(squashed).filter((name) => name.length >= 3));
}

/**
 * The title without a last part that is the site's name when the address says that name ("Mozilla -
 * Wikipedia" on wikipedia.org), cut at the names' limit. The rest of the title, what tells one page of a
 * site from another, is kept whole.
 */
export function titleShown(title: string, url: string): string {
  const parts = [...title.matchAll(SEPARATOR)];
  const last = parts[parts.length - 1];
  if (last) {
    const rest = title.slice(0, last.index);
    const names = hostNames(url);
    if (squashed(rest) && siteSpellings(title.slice(last.index! + last[0].length)).some((name) => names.has(name))) return truncate(rest, NAME_LIMIT);
  }
  return truncate(title, NAME_LIMIT);
}
