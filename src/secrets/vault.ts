/**
 * Secrets the agent types without ever seeing them: a password or a one-time-code seed, each under a name the
 * model uses (browser_type { ref, secret: "ledger" }), each typed only on the origins it names. The vault keeps
 * the values in this process; what leaves it (a tool result, an error, a saved session) goes through `scrub`,
 * which puts the name where a value the vault handed out would have been.
 */
import { Secret, TOTP } from 'otpauth';
import { BrowserToolError } from '../errors.js';

/** A value in place, read from an environment variable when the secret is used, or returned by a function (a vault's client). */
export type SecretSource = string | { env: string } | (() => string | Promise<string>);

export interface SecretOption {
  /** What is typed: a password, a passphrase, an account number. */
  value?: SecretSource;
  /** A one-time-code seed (base32, as an authenticator app is given it): the current code is typed (RFC 6238). */
  totp?: SecretSource;
  /** TOTP settings, for the rare site that changes them. Default: 6 digits, 30 s, SHA1. */
  digits?: number;
  period?: number;
  algorithm?: 'SHA1' | 'SHA256' | 'SHA512';
  /**
   * The origins whose pages (and frames) it may be typed into: `https://bank.example`, or `https://*.bank.example`
   * for every subdomain of bank.example (list both for both).
   */
  origins: string[];
}

export type SecretsOption = Record<string, SecretOption>;

/** A value shorter than this is not searched for in results: it would match ordinary text. */
const SCRUB_MIN_LENGTH = 4;

/** One-time codes typed stay scrubbed this long: past it they are worth nothing, and six digits match ordinary text. */
const CODE_SCRUB_MS = 10 * 60_000;

interface OriginPattern {
  scheme: string;
  /** Exact host, or the parent domain of `*.` patterns. */
  host: string;
  port: string;
  subdomains: boolean;
}

function parseOrigin(name: string, origin: string): OriginPattern {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(\*\.)?([^/:*]+)(?::(\d+))?\/?$/i.exec(origin.trim());
  if (!match) {
    throw new BrowserToolError('invalid_input', `BrowserToolset config: secrets.${name}.origins has "${origin}", which is not an origin. Write origins as https://bank.example, or https://*.bank.example for its subdomains.`);
  }
  const scheme = match[1]!.toLowerCase();
  const port = match[4] && match[4] !== (scheme === 'https' ? '443' : scheme === 'http' ? '80' : '') ? match[4] : '';
  return { scheme, host: match[3]!.toLowerCase(), port, subdomains: !!match[2] };
}

function originMatches(pattern: OriginPattern, url: URL): boolean {
  if (url.protocol !== `${pattern.scheme}:` || url.port !== pattern.port) return false;
  const host = url.hostname.toLowerCase();
  return pattern.subdomains ? host.endsWith(`.${pattern.host}`) : host === pattern.host;
}

interface Entry {
  name: string;
  option: SecretOption;
  origins: OriginPattern[];
}

export class SecretVault {
  private readonly entries = new Map<string, Entry>();
  /** Values handed out, with the name to put in their place; codes with when they stop being scrubbed. */
  private readonly handedOut = new Map<string, { name: string; until?: number }>();

  constructor(secrets: SecretsOption) {
    for (const [name, option] of Object.entries(secrets)) {
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new BrowserToolError('invalid_input', `BrowserToolset config: the secret name "${name}" may hold only letters, digits, "_", "-" and "." (the model types it).`);
      if (!option || (option.value === undefined) === (option.totp === undefined)) {
        throw new BrowserToolError('invalid_input', `BrowserToolset config: secrets.${name} needs either value or totp.`);
      }
      if (!Array.isArray(option.origins) || option.origins.length === 0) {
        throw new BrowserToolError('invalid_input', `BrowserToolset config: secrets.${name}.origins must list the origins it may be typed on, e.g. ["https://bank.example"].`);
      }
      this.entries.set(name, { name, option, origins: option.origins.map((origin) => parseOrigin(name, origin)) });
      // Values in place are known now: they are kept out of results even before they are typed.
      for (const source of [option.value, option.totp]) if (typeof source === 'string') this.remember(source, name);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Names of the secrets that may be typed on any of these pages or frames (their URLs). */
  namesFor(urls: string[]): string[] {
    const parsed = urls.flatMap((url) => {
      try {
        return [new URL(url)];
      } catch {
        return [];
      }
    });
    return [...this.entries.values()].filter((entry) => parsed.some((url) => entry.origins.some((pattern) => originMatches(pattern, url)))).map((entry) => entry.name);
  }

  /**
   * The secret to type on a page of `url`, checked: an unknown name or an origin it does not allow is an
   * `invalid_input` error naming what is known or allowed (never a value).
   */
  check(name: string, url: string): { name: string; origins: string[]; kind: 'value' | 'code' } {
    const entry = this.entries.get(name);
    if (!entry) {
      throw new BrowserToolError('invalid_input', `There is no secret named "${name}". Secrets: ${this.names().join(', ')}.`, {
        hint: 'Use one of the names listed (the snapshot lists those this page may use).',
      });
    }
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !entry.origins.some((pattern) => originMatches(pattern, parsed))) {
      const where = parsed && parsed.origin !== 'null' ? parsed.origin : url || 'a page without an origin';
      throw new BrowserToolError('invalid_input', `The secret "${name}" may be typed only on ${entry.option.origins.join(', ')}; this field is on ${where}.`, {
        hint: `Type it only into a field of a page (or frame) of ${entry.option.origins.join(', ')}: navigate there first. If this page is where it belongs, the person who configured the secrets must add its origin.`,
      });
    }
    return { name, origins: entry.option.origins, kind: entry.option.totp !== undefined ? 'code' : 'value' };
  }

  /** The text to type for `name`: its value, or the current one-time code of its seed. Checked with `check` first. */
  async reveal(name: string): Promise<string> {
    const { option } = this.entries.get(name)!;
    let read: string;
    try {
      read = await readSource(option.totp ?? option.value!);
    } catch (error) {
      throw new BrowserToolError('invalid_input', `The secret "${name}" could not be read: ${this.scrub(error instanceof Error ? error.message : String(error))}`, {
        hint: 'Tell the user the secret could not be read; whoever configured it must fix its source.',
        retryable: true,
      });
    }
    if (option.totp === undefined) {
      this.remember(read, name);
      return read;
    }
    this.remember(read, name);
    let code: string;
    try {
      code = new TOTP({ secret: Secret.fromBase32(read.replace(/[\s-]/g, '').toUpperCase()), digits: option.digits ?? 6, period: option.period ?? 30, algorithm: option.algorithm ?? 'SHA1' }).generate();
    } catch {
      throw new BrowserToolError('invalid_input', `The secret "${name}" is not a valid one-time-code seed (base32).`, { hint: 'Tell the user; whoever configured the secret must fix its seed.' });
    }
    this.remember(code, name, Date.now() + CODE_SCRUB_MS);
    return code;
  }

  /** `value` with every secret value handed out (and every one in place in the config) replaced by its name. */
  scrub<T>(value: T): T {
    this.forgetOldCodes();
    if (this.handedOut.size === 0) return value;
    return scrubValue(value, [...this.handedOut].sort((a, b) => b[0].length - a[0].length)) as T;
  }

  private remember(value: string, name: string, until?: number): void {
    if (value.length < SCRUB_MIN_LENGTH) return;
    const known = this.handedOut.get(value);
    if (known && known.until === undefined) return;
    this.handedOut.set(value, { name, ...(until ? { until } : {}) });
  }

  private forgetOldCodes(): void {
    const now = Date.now();
    for (const [value, { until }] of this.handedOut) if (until !== undefined && until < now) this.handedOut.delete(value);
  }
}

async function readSource(source: SecretSource): Promise<string> {
  if (typeof source === 'function') return String(await source());
  if (typeof source === 'object' && source && typeof source.env === 'string') {
    const value = process.env[source.env];
    if (value === undefined || value === '') throw new Error(`the environment variable ${source.env} is not set`);
    return value;
  }
  if (typeof source === 'string') return source;
  throw new Error('its source is neither a string, { env } nor a function');
}

function scrubValue(value: unknown, known: Array<[string, { name: string }]>): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const [secret, { name }] of known) if (out.includes(secret)) out = out.split(secret).join(`[secret ${name}]`);
    return out;
  }
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, known));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubValue(item, known)]));
  }
  return value;
}
