/**
 * Links: how a link's target reads in a line. A path on this site, "#part" in this page, else the address
 * without scheme and "www."; printed after `->` where the name does not tell links apart; naming a link that
 * has no name of its own.
 */
import { truncate } from './textLimits.js';

const URL_LIMIT = 60;
const URL_NAME_LIMIT = 45;

/**
 * Which link targets to print. `all`: every one (subtrees, find). `useful`: where the name alone does not
 * tell links apart (generic or repeated names). `none`: whole-page listings.
 */
export type LinkTargets = 'all' | 'useful' | 'none';

/** A link target, cut at URL_LIMIT except in a `ref` snapshot (no text limit there): that is where it is read whole. */
export function shortUrl(url: string, base: URL | undefined, whole: boolean): string {
  return whole ? siteUrl(url, base) : truncate(siteUrl(url, base), URL_LIMIT);
}

/** A URL as the model reads it: a path on this site, "#part" in this page, else without scheme and "www.". */
export function siteUrl(url: string, base: URL | undefined): string {
  let shown = url;
  try {
    const resolved = new URL(url, base);
    // A link into this very page says only where in it ("#top"), or nothing for a bare "#" (a script's link).
    if (base && resolved.origin === base.origin && resolved.pathname === base.pathname && resolved.search === base.search) shown = resolved.hash.length > 1 ? resolved.hash : '';
    else if (base && resolved.origin === base.origin) shown = resolved.pathname + resolved.search + resolved.hash;
    else shown = /^https?:$/.test(resolved.protocol) ? resolved.href.replace(/^https?:\/\/(www\.)?/, '') : resolved.href;
  } catch {
    // keep what the page wrote
  }
  return shown;
}

/**
 * A link with no name is named by its target, told apart by host and file rather than by tracking
 * parameters: "medium.com/backchannel" for "medium.com/backchannel?source=logo-…", and the host and the last
 * segment of a long path ("1.bp.blogspot.com/…/greenpak.png"). Its `ref` snapshot prints the whole target.
 */
export function urlName(target: string): string {
  const [path = '', query] = target.split(/[?#]/, 2);
  const base = query !== undefined && path && !/\/$/.test(path) ? path : target;
  if (base.length <= URL_NAME_LIMIT) return base;
  const parts = base.split('/').filter(Boolean);
  const last = parts[parts.length - 1] ?? '';
  return parts.length > 2 ? `${parts[0]}/…/${truncate(last, URL_NAME_LIMIT - parts[0]!.length - 3)}` : truncate(base, URL_NAME_LIMIT);
}

const GENERIC_LINK_NAMES = /^(more|read more|see more|learn more|more info|details|here|click here|link|next|previous|prev|back|continue|download|open|view|view all|see all|show all|edit|reply|share|comment|comments|\d+|\[\d+\]|»|›|→|…)$/i;

/**
 * The target to print after `->`, or undefined. In `useful` mode: the path when the name does not tell the
 * link apart (generic or repeated); nothing otherwise, not even for other sites (the name says where it goes
 * often enough, and `ref` snapshots print every target). `javascript:` targets say nothing and are never printed.
 */
export function linkTarget(name: string, url: string, target: string, shown: { linkTargets?: LinkTargets; repeatedLinkNames?: Set<string> }): string | undefined {
  const mode = shown.linkTargets ?? 'all';
  if (mode === 'none' || /^javascript:/i.test(url) || name === target) return undefined;
  if (!target || mode === 'all') return target || undefined;
  if (!name || GENERIC_LINK_NAMES.test(name.trim()) || shown.repeatedLinkNames?.has(name)) return target;
  return undefined;
}
