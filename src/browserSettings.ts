/**
 * What a site sees of the browser: proxy, user agent, language, time zone, position, extra headers, permissions
 * and colour scheme. Named and shaped as Playwright's context options, so each session's context gets them as
 * they are; a toolset gives them to every session, and `sessionSettings` may change them per session.
 */
import type { BrowserContextOptions } from 'playwright-core';
import { z } from 'zod';
import { BrowserToolError } from './errors.js';

export type BrowserSettings = Pick<BrowserContextOptions, 'proxy' | 'userAgent' | 'locale' | 'timezoneId' | 'geolocation' | 'extraHTTPHeaders' | 'permissions' | 'colorScheme'>;

/** The names of the settings, in the order the docs give them. */
export const SETTING_NAMES = ['proxy', 'userAgent', 'locale', 'timezoneId', 'geolocation', 'extraHTTPHeaders', 'permissions', 'colorScheme'] as const;

const timeZone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, 'is not an IANA time zone (e.g. "Europe/Rome")');

const locale = z.string().refine((tag) => {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}, 'is not a language tag (e.g. "en-GB")');

const settingsSchema = z
  .object({
    proxy: z
      .object({
        server: z.string().min(1, 'proxy.server is required (e.g. "http://myproxy:3128" or "socks5://myproxy:1080")'),
        bypass: z.string().optional(),
        username: z.string().optional(),
        password: z.string().optional(),
      })
      .strict(),
    userAgent: z.string().min(1),
    locale,
    timezoneId: timeZone,
    geolocation: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180), accuracy: z.number().min(0).optional() }).strict(),
    extraHTTPHeaders: z.record(z.string(), z.string()),
    permissions: z.array(z.string()),
    colorScheme: z.enum(['light', 'dark', 'no-preference']).nullable(),
  })
  .partial();

/** Checks settings given by a config or a `sessionSettings` function; `where` names them in the error. */
export function checkSettings(value: unknown, where: string): BrowserSettings {
  const parsed = settingsSchema.safeParse(value ?? {});
  if (parsed.success) return withProxyCredentials(parsed.data as BrowserSettings);
  const issue = parsed.error.issues[0]!;
  throw new BrowserToolError('invalid_input', `${where}: ${issue.path.join('.') || 'settings'} ${issue.message}.`);
}

/**
 * `http://user:password@proxy:3128` as a proxy address, as proxy settings are often written: Chromium ignores
 * credentials in the address, so they become Playwright's `username` and `password`.
 */
function withProxyCredentials(settings: BrowserSettings): BrowserSettings {
  const proxy = settings.proxy;
  if (!proxy || proxy.username !== undefined) return settings;
  let address: URL;
  try {
    address = new URL(proxy.server);
  } catch {
    return settings; // a bare "host:port" has none
  }
  if (!address.username) return settings;
  const username = decodeURIComponent(address.username);
  const password = decodeURIComponent(address.password);
  address.username = '';
  address.password = '';
  return { ...settings, proxy: { ...proxy, server: address.origin, username, password } };
}

/** The settings named in `config`, leaving out the rest of it. */
export function pickSettings(config: Partial<Record<(typeof SETTING_NAMES)[number], unknown>>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) if (config[name] !== undefined) picked[name] = config[name];
  return picked;
}

/**
 * The context options of one session: the toolset's settings, then its own on top (headers merged by name).
 * A position is of no use to a page that may not read it, so setting one grants the permission.
 */
export function contextSettings(toolset: BrowserSettings, session: BrowserSettings = {}): BrowserSettings {
  const merged: BrowserSettings = { ...toolset, ...session };
  if (toolset.extraHTTPHeaders && session.extraHTTPHeaders) merged.extraHTTPHeaders = { ...toolset.extraHTTPHeaders, ...session.extraHTTPHeaders };
  if (merged.geolocation && !merged.permissions?.includes('geolocation')) merged.permissions = [...(merged.permissions ?? []), 'geolocation'];
  return merged;
}
