/** Command-line flags shared by the commands, and how they become a BrowserToolsetConfig. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { BrowserToolsetConfig } from '../config.js';
import { LibSQLSessionStore } from '../store/libsql.js';
import { PostgresSessionStore } from '../store/postgres.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A mistake in the command line: reported in one line with a pointer to --help, exit code 2. */
export class UsageError extends Error {}

export const BROWSER_FLAGS = {
  config: { type: 'string' },
  headless: { type: 'boolean' },
  headed: { type: 'boolean' },
  'executable-path': { type: 'string' },
  chromium: { type: 'string' },
  'cdp-url': { type: 'string' },
  'ws-endpoint': { type: 'string' },
  'allowed-domains': { type: 'string' },
  'upload-dir': { type: 'string' },
  'allow-evaluate': { type: 'boolean' },
  'no-content-boundary': { type: 'boolean' },
  viewport: { type: 'string' },
  timeout: { type: 'string' },
  'navigation-timeout': { type: 'string' },
  'browser-arg': { type: 'string', multiple: true },
  'proxy-server': { type: 'string' },
  'proxy-bypass': { type: 'string' },
  'user-agent': { type: 'string' },
  lang: { type: 'string' },
  timezone: { type: 'string' },
  geolocation: { type: 'string' },
  'grant-permissions': { type: 'string' },
  'color-scheme': { type: 'string' },
  'extra-http-header': { type: 'string', multiple: true },
  'trace-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** `mcp` takes the browser options, where to listen, and where replicas keep their conversations' browsers. */
export const MCP_FLAGS = {
  ...BROWSER_FLAGS,
  port: { type: 'string' },
  host: { type: 'string' },
  'session-store': { type: 'string' },
  'allow-plaintext': { type: 'boolean' },
} as const satisfies Options;

/** Addresses of a Postgres or a LibSQL database; anything else given to --session-store is a directory. */
const POSTGRES_URL = /^postgres(ql)?:/i;
const LIBSQL_URL = /^(libsql|file|https?|wss?):/i;

/**
 * The session store of --session-store: a Postgres or LibSQL database for replicas on one host or many, or a
 * directory for the processes of one host. The encryption key is read from the environment by the toolset, never
 * from a flag (a command line is visible to every user of the host).
 */
export function storeConfig(values: { 'session-store'?: string; 'allow-plaintext'?: boolean }): Pick<BrowserToolsetConfig, 'sessionStore' | 'allowPlaintext'> {
  const where = values['session-store'];
  if (where === undefined) {
    if (values['allow-plaintext']) throw new UsageError('--allow-plaintext needs --session-store');
    return {};
  }
  if (!where.trim()) throw new UsageError('--session-store takes a directory, a Postgres URL (postgres:) or a LibSQL URL (file:, libsql:, https:)');
  const database = POSTGRES_URL.test(where) ? new PostgresSessionStore({ connectionString: where }) : LIBSQL_URL.test(where) ? new LibSQLSessionStore({ url: where }) : undefined;
  return {
    sessionStore: database ?? where,
    ...(values['allow-plaintext'] ? { allowPlaintext: true } : {}),
  };
}

export const BROWSER_FLAGS_HELP = `Browser options:
  --config <file.json>          BrowserToolset config as JSON (any key of docs/configuration.md); flags override it
  --headless / --headed         run without / with a window (default: headless)
  --executable-path <path>      the Chrome or Chromium to launch
  --chromium <auto|system|bundled>  which browser to look for when none is named (default: auto)
  --cdp-url <url>               attach to a running browser over CDP (http://127.0.0.1:9222)
  --ws-endpoint <url>           attach to a Playwright browser server
  --allowed-domains <a,b>       allow navigation only to these hosts (*.example.com matches subdomains)
  --upload-dir <dir>            offer browser_upload, reading files from this directory only
  --allow-evaluate              offer browser_evaluate (runs any JavaScript in the page)
  --no-content-boundary         leave out the N{ ... }N lines around page content in results
  --viewport <WxH>              viewport size (default: 1280x720)
  --timeout <ms>                element actions (default: 10000)
  --navigation-timeout <ms>     navigations (default: 30000)
  --browser-arg <flag>          an extra Chromium flag; repeat for more

What sites see (Playwright's context options; docs/configuration.md):
  --proxy-server <url>          send traffic through this proxy (http://host:3128, http://user:pass@host:3128, socks5://host:1080)
  --proxy-bypass <a,b>          hosts that skip the proxy (.example.com, localhost)
  --user-agent <string>         the User-Agent header and navigator.userAgent
  --lang <tag>                  locale: Accept-Language, navigator.language, Intl formats (e.g. en-GB)
  --timezone <zone>             IANA time zone of the page (e.g. Europe/Rome)
  --geolocation <lat,long>      position navigator.geolocation reports (permission granted)
  --grant-permissions <a,b>     permissions granted to every site (geolocation, notifications, clipboard-read, ...)
  --color-scheme <light|dark|no-preference>  prefers-color-scheme
  --extra-http-header <"Name: value">  a header sent with every request; repeat for more
  --trace-dir <dir>             write a Playwright trace of each session there when it closes`;

export function parse<O extends Options>(args: string[], options: O): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages sometimes go on with advice about "--": the first sentence is the mistake.
    throw new UsageError((error as Error).message.split('. ')[0]!);
  }
}

function milliseconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0) throw new UsageError(`--${flag} takes a number of milliseconds, not "${value}"`);
  return ms;
}

function viewport(value: string | undefined): BrowserToolsetConfig['viewport'] {
  if (value === undefined) return undefined;
  const match = /^(\d+)x(\d+)$/.exec(value);
  if (!match) throw new UsageError(`--viewport takes WIDTHxHEIGHT, e.g. 1280x720, not "${value}"`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

function readConfigFile(path: string | undefined): BrowserToolsetConfig {
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`cannot read the config file ${path}`);
  }
  try {
    const config = JSON.parse(text) as unknown;
    if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('not an object');
    return config as BrowserToolsetConfig;
  } catch (error) {
    throw new UsageError(`the config file ${path} is not a JSON object (${(error as Error).message})`);
  }
}

type BrowserFlagValues = { [K in keyof typeof BROWSER_FLAGS]?: (typeof BROWSER_FLAGS)[K] extends { multiple: true } ? string[] : (typeof BROWSER_FLAGS)[K]['type'] extends 'string' ? string : boolean };

/** The config file, then the flags on top of it. */
export function toolsetConfig(values: BrowserFlagValues): BrowserToolsetConfig {
  if (values.headless && values.headed) throw new UsageError('give --headless or --headed, not both');
  const chromium = values.chromium;
  if (chromium !== undefined && !['auto', 'system', 'bundled'].includes(chromium)) throw new UsageError(`--chromium takes auto, system or bundled, not "${chromium}"`);
  const fromFlags: BrowserToolsetConfig = {
    headless: values.headed ? false : values.headless ? true : undefined,
    executablePath: values['executable-path'],
    chromium: chromium as BrowserToolsetConfig['chromium'],
    cdpUrl: values['cdp-url'],
    wsEndpoint: values['ws-endpoint'],
    allowedDomains: values['allowed-domains']?.split(',').map((d) => d.trim()).filter(Boolean),
    uploadDir: values['upload-dir'],
    allowEvaluate: values['allow-evaluate'],
    contentBoundary: values['no-content-boundary'] ? false : undefined,
    viewport: viewport(values.viewport),
    timeout: milliseconds(values.timeout, 'timeout'),
    navigationTimeout: milliseconds(values['navigation-timeout'], 'navigation-timeout'),
  };
  Object.assign(fromFlags, settingsFromFlags(values));
  const file = readConfigFile(values.config);
  const config: BrowserToolsetConfig = { ...file };
  for (const [key, value] of Object.entries(fromFlags)) if (value !== undefined) (config as Record<string, unknown>)[key] = value;
  if (values['browser-arg']?.length) config.args = [...(file.args ?? []), ...values['browser-arg']];
  if (fromFlags.extraHTTPHeaders) config.extraHTTPHeaders = { ...file.extraHTTPHeaders, ...fromFlags.extraHTTPHeaders };
  const secrets = secretsFromEnvironment();
  if (secrets) config.secrets = { ...file.secrets, ...secrets };
  return config;
}

/** The environment variable that holds the `secrets` option as JSON: an MCP client sets its server's environment, not its files. */
export const SECRETS_ENV = 'MASTRA_BROWSER_SECRETS';

/**
 * `MASTRA_BROWSER_SECRETS`, e.g. `{"ledger":{"value":{"env":"LEDGER_PASSWORD"},"origins":["https://bank.example"]}}`:
 * secrets are never a flag (a command line is visible to every user of the host) nor a tool's argument.
 */
function secretsFromEnvironment(): BrowserToolsetConfig['secrets'] {
  const text = process.env[SECRETS_ENV];
  if (!text?.trim()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The message of JSON.parse may quote the text, which holds secrets.
    throw new UsageError(`${SECRETS_ENV} is not JSON: it takes the secrets option as a JSON object`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`${SECRETS_ENV} must be a JSON object of secrets by name`);
  return parsed as BrowserToolsetConfig['secrets'];
}

/** The flags of what sites see, named as @playwright/mcp and Playwright's own command line name them. */
function settingsFromFlags(values: BrowserFlagValues): BrowserToolsetConfig {
  const list = (value: string | undefined) => value?.split(',').map((item) => item.trim()).filter(Boolean);
  if (values['proxy-bypass'] !== undefined && values['proxy-server'] === undefined) throw new UsageError('--proxy-bypass needs --proxy-server');
  const scheme = values['color-scheme'];
  if (scheme !== undefined && !['light', 'dark', 'no-preference'].includes(scheme)) throw new UsageError(`--color-scheme takes light, dark or no-preference, not "${scheme}"`);
  let geolocation: BrowserToolsetConfig['geolocation'];
  if (values.geolocation !== undefined) {
    const [latitude, longitude, extra] = values.geolocation.split(',').map((part) => Number(part.trim()));
    if (extra !== undefined || !Number.isFinite(latitude) || !Number.isFinite(longitude)) throw new UsageError(`--geolocation takes LATITUDE,LONGITUDE, e.g. 41.89,12.49, not "${values.geolocation}"`);
    geolocation = { latitude: latitude!, longitude: longitude! };
  }
  let headers: Record<string, string> | undefined;
  for (const header of values['extra-http-header'] ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new UsageError(`--extra-http-header takes "Name: value", not "${header}"`);
    (headers ??= {})[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  return {
    proxy: values['proxy-server'] === undefined ? undefined : { server: values['proxy-server'], ...(values['proxy-bypass'] ? { bypass: values['proxy-bypass'] } : {}) },
    userAgent: values['user-agent'],
    locale: values.lang,
    timezoneId: values.timezone,
    geolocation,
    permissions: list(values['grant-permissions']),
    colorScheme: scheme as BrowserToolsetConfig['colorScheme'],
    extraHTTPHeaders: headers,
    trace: values['trace-dir'] === undefined ? undefined : { dir: values['trace-dir'] },
  };
}

/** This package's version, from its package.json (found above this file in src/ and in dist/ alike). */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'mastra-browser-toolset' && pkg.version) return pkg.version;
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}
