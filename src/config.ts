import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { checkSettings, pickSettings, type BrowserSettings } from './browserSettings.js';
import { BrowserToolError } from './errors.js';
import { SecretVault, type SecretsOption } from './secrets/vault.js';
import { DirectoryStore } from './store/directory.js';
import type { SessionStore } from './store/types.js';

/** Cookies and local storage of a browser context, as Playwright saves and loads them. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** When the load policy counts a page as settled (loading/settle.ts). */
export interface SettlePolicy {
  /**
   * The page counts as settled once no request that shapes it started or ended for this long (some may never
   * answer), or for a tenth of it when all of them have been answered.
   */
  quietMs: number;
  /** And at the latest this long after its document was parsed. */
  maxMs: number;
}

/** The environment variable read for `sessionStoreKey` when the config does not give one. */
export const STORE_KEY_ENV = 'MASTRA_BROWSER_STORE_KEY';

export type { BrowserSettings };

/** A Playwright trace per session (trace.ts): what `npx playwright show-trace` opens. */
export interface TraceOption {
  /** The folder the traces are written to, one `<session>-<time>.zip` per session when it closes. */
  dir: string;
  /** Screenshots as the page changes (the trace viewer's film strip). Default: true. */
  screenshots?: boolean;
  /** A DOM snapshot before and after each action. Default: true. */
  snapshots?: boolean;
  /** The source files of the code that called Playwright (this package's own, mostly). Default: false. */
  sources?: boolean;
}

/**
 * The browser settings (BrowserSettings) are Playwright's context options of the same names: each session's
 * context starts with them.
 */
export interface BrowserToolsetConfig extends BrowserSettings {
  /** Run without a visible window. Default: true. */
  headless?: boolean;
  /**
   * Path to a Chrome or Chromium binary. Default: `CHROME_PATH`, then a Chrome, Chromium or Edge installed on the
   * machine, then the Chromium of the optional npm package `@sparticuz/chromium`.
   */
  executablePath?: string;
  /**
   * Which browser to launch when none is named: `auto` (default), `system` (never the npm one), `bundled` (only
   * the npm one). Default: the `MASTRA_BROWSER_CHROMIUM` environment variable, else `auto`.
   */
  chromium?: ChromiumChoice;
  /** Attach to a running browser over CDP (`http://127.0.0.1:9222` or a `ws://` URL) instead of launching one. */
  cdpUrl?: string;
  /** Attach to a Playwright browser server (`launchServer`, `playwright run-server`, browser services that speak it). */
  wsEndpoint?: string;
  /**
   * `thread` (default): each Mastra thread (else resource, else workflow run, else MCP connection) gets its own
   * isolated session: context, cookies, tabs, refs. `shared`: every call uses one session.
   */
  scope?: 'thread' | 'shared';
  /** Sessions open at once; beyond it the one unused longest is closed. Default: 25. */
  maxSessions?: number;
  /** A session unused for this long (ms) is closed; its next call is told. Default: 15 minutes. `Infinity` keeps them. */
  idleTimeout?: number;
  /**
   * Tool calls that run in the browser at once, over all sessions; more wait their turn, first come first served.
   * Keeps each call fast when many conversations act together on a few cores. `browser_wait` does not count.
   * Default: 4 per CPU core, at least 4.
   */
  maxConcurrentCalls?: number;
  /**
   * How long (ms) a call waits for its turn when `maxConcurrentCalls` are running; past it, the call gets a
   * retryable "busy" error. A call's own time limit starts when its turn comes. Default: 60 s.
   */
  queueTimeout?: number;
  /** Cookies and storage each new session starts with: a Playwright storage state, a path to one, or a function of the session key. */
  storageState?: StorageStateOption;
  /**
   * When a navigation counts as done: after the document is parsed, at `load`, or once no script, style sheet or
   * data request started or ended for `quietMs` (a tenth of it when all of them have answered), but at most
   * `maxMs` later. Scripts of other sites that the page adds as it runs or marks `async` (tag managers, ads)
   * are not waited for. Requests still in flight are reported. A script or style sheet the parser waits on is
   * waited for up to `maxMs`; one that has not answered by then is given up on (a style sheet taken out of the
   * page, a script refused by loading the page again without it; the result says so). Default 500 / 3,000 ms.
   */
  settle?: { quietMs?: number; maxMs?: number };
  /** Viewport size. Default: 1280x720. */
  viewport?: { width: number; height: number };
  /** Timeout for element actions (click, type, scroll), in ms. Default: 10,000. */
  timeout?: number;
  /** Timeout for navigations, in ms. Default: 30,000. */
  navigationTimeout?: number;
  /** Extra Chromium command-line arguments, added after the defaults. */
  args?: string[];
  /**
   * URL schemes allowed besides http and https, e.g. `['file']` to open local files.
   * `javascript:`, `data:`, `file:` and `chrome:` are refused unless listed here.
   */
  allowedSchemes?: string[];
  /** When set, navigation is allowed only to these hosts (a leading `*.` also matches subdomains). */
  allowedDomains?: string[];
  /** Default token budget of `browser_snapshot` and of snapshots attached to results. Default: 2,000. */
  snapshotMaxTokens?: number;
  /**
   * Default token budget of `browser_snapshot` with `scope: "page"`. Default: 4,000, which lists every control
   * and heading of nine pages in ten of the benchmark corpus (.planning/BENCHMARKS.md); longer pages are cut
   * by priority and the cut is reported.
   */
  pageMaxTokens?: number;
  /**
   * What to do with `confirm()` and `prompt()` dialogs. `ask` (default): leave them open and let the agent answer
   * with browser_dialog. Alerts and beforeunload are always accepted.
   */
  dialogPolicy?: 'ask' | 'accept' | 'dismiss';
  /** Where downloads are saved. Default: a `mastra-browser-downloads` folder in the OS temp directory. */
  downloadDir?: string;
  /** The only directory browser_upload may read files from. Uploads are refused when unset. */
  uploadDir?: string;
  /** Offer browser_evaluate, which runs arbitrary JavaScript in the page. Default: false. */
  allowEvaluate?: boolean;
  /**
   * CSS selectors of fields whose values are never shown to the model, in snapshots, diffs, results or
   * screenshots (password inputs always are). Added to the defaults: fields whose autocomplete, name, id,
   * aria-label or placeholder marks a card number, card security code, IBAN, one-time code or SSN.
   */
  secretFields?: string[];
  /**
   * Secrets the agent types by name without seeing them (browser_type { ref, secret }), each only on its origins:
   * `{ ledger: { value: '…', origins: ['https://bank.example'] }, ledgerCode: { totp: '<base32 seed>', origins: [...] } }`.
   * A value may be a string, `{ env: 'NAME' }` or a function that returns it ([logins](logins.md)).
   */
  secrets?: SecretsOption;
  /** Choose the tools offered to the model, by id, e.g. `{ exclude: ['browser_screenshot'] }` for a text-only model. */
  tools?: { include?: string[]; exclude?: string[] };
  /**
   * Keep each conversation's browser (cookies, each origin's storage, open tabs) in a store after every call, so
   * that another process (a replica, a restarted server, a serverless instance) resumes it. A directory path for
   * a store on this host's disk, or a store shared by many processes, e.g. `new PostgresSessionStore({ client: pool })`
   * or `new LibSQLSessionStore({ url })`.
   * A lease per conversation lets one process drive it at a time. Default: none (sessions live in this process).
   */
  sessionStore?: string | SessionStore;
  /**
   * The secret that encrypts what the store holds (AES-256-GCM): 64 hex digits, base64 of 32 bytes, or a
   * passphrase. Default: the `MASTRA_BROWSER_STORE_KEY` environment variable. Without one, cookies and storage
   * are not stored (only the tabs), unless `allowPlaintext` is true.
   */
  sessionStoreKey?: string;
  /** Store cookies and storage unencrypted when there is no `sessionStoreKey`. Default: false. */
  allowPlaintext?: boolean;
  /**
   * Settings of one session, by its key (`thread:<id>`, `resource:<id>`, `named:<name>`, `mcp:<id>` or
   * `default`), over the toolset's: e.g. a proxy per customer. Called when the session opens its context.
   */
  sessionSettings?: (sessionKey: string) => BrowserSettings | undefined;
  /** Record a Playwright trace of each session (actions, DOM snapshots, screenshots, network). Default: off. */
  trace?: TraceOption;
  /**
   * Put what came from the page between two marker lines carrying a number of the session in every result the
   * model reads, and say so in the tools' descriptions, so that text on a page cannot pass for instructions
   * (docs/snapshot-format.md). Seven tokens a result. Default: true; false for a model that does not need it.
   */
  contentBoundary?: boolean;
}

export interface ResolvedConfig {
  headless: boolean;
  executablePath?: string;
  chromium: ChromiumChoice;
  cdpUrl?: string;
  wsEndpoint?: string;
  scope: 'thread' | 'shared';
  maxSessions: number;
  idleTimeout: number;
  maxConcurrentCalls: number;
  queueTimeout: number;
  storageState?: StorageStateOption;
  settle: SettlePolicy;
  viewport: { width: number; height: number };
  timeout: number;
  navigationTimeout: number;
  args: string[];
  allowedSchemes: string[];
  allowedDomains?: string[];
  snapshotMaxTokens: number;
  pageMaxTokens: number;
  dialogPolicy: 'ask' | 'accept' | 'dismiss';
  downloadDir: string;
  uploadDir?: string;
  allowEvaluate: boolean;
  tools: { include?: string[]; exclude?: string[] };
  /** One selector list built from the defaults and `secretFields`. */
  secretSelector: string;
  /** The `secrets`, when there are any. */
  secrets?: SecretVault;
  sessionStore?: SessionStore;
  sessionStoreKey?: string;
  allowPlaintext: boolean;
  /** The browser settings every session starts with (checked). */
  settings: BrowserSettings;
  sessionSettings?: (sessionKey: string) => BrowserSettings | undefined;
  trace?: Required<TraceOption>;
  contentBoundary: boolean;
}

export type StorageStateOption = StorageState | string | ((sessionKey: string) => StorageState | string | undefined);

/**
 * Words that mark a field as secret when they appear in its name, id, label attribute or placeholder (any
 * case): card numbers, card security codes, IBANs, one-time codes, social security numbers.
 */
const SECRET_WORDS = [
  'cardnumber', 'card-number', 'card_number', 'card number', 'ccnumber', 'cc-number', 'cc_number', 'ccnum', 'creditcard', 'credit-card', 'credit_card', 'credit card',
  'cvv', 'cvc', 'cvn', 'securitycode', 'security-code', 'security_code', 'security code', 'card code', 'cardcode',
  'iban',
  'one-time', 'onetime', 'one_time', 'one time', 'totp', '2fa', 'mfa-code', 'verification-code', 'verification code',
  'social-security', 'socialsecurity', 'social_security', 'social security',
];
const SECRET_ATTRIBUTES = ['name', 'id', 'aria-label', 'placeholder'];

/** The mark browser_type puts on a field it typed a secret into: its value is never shown from then on. */
export const SECRET_MARK = 'data-mastra-browser-secret';

/** Fields whose values are never shown, besides passwords: by autocomplete token, then by the words above. */
export const DEFAULT_SECRET_FIELDS = [
  `[${SECRET_MARK}]`,
  ...['cc-number', 'cc-csc', 'one-time-code'].map((token) => `input[autocomplete~="${token}" i]`),
  ...SECRET_ATTRIBUTES.flatMap((attribute) => SECRET_WORDS.map((word) => `input[${attribute}*="${word}" i]`)),
  // Short words hide inside others ("footprint"): matched whole, or at the start or end of a name or id.
  ...['ssn', 'otp'].flatMap((word) =>
    ['name', 'id'].flatMap((attribute) => [`input[${attribute}="${word}" i]`, `input[${attribute}^="${word}" i]`, `input[${attribute}$="-${word}" i]`, `input[${attribute}$="_${word}" i]`]),
  ),
];

/**
 * Quiet flags: without them Chromium keeps trying to reach Google services, which is slow and noisy
 * on closed networks and pointless for automation. `--no-sandbox` because automation often runs as root
 * in containers, where the sandbox cannot start. No `--process-per-site`: it spared a renewed browsing
 * instance the start of a new process, a gain inside the network benchmark's noise, and doubled the renderer's
 * memory over a long visit to one site (docs/loading.md).
 */
export const DEFAULT_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** `auto`: the user's, then a system one, then the npm-shipped one. `system` never unpacks; `bundled` skips the system. */
export type ChromiumChoice = 'auto' | 'system' | 'bundled';

const CHROMIUM_CHOICES: ChromiumChoice[] = ['auto', 'system', 'bundled'];

/** `MASTRA_BROWSER_CHROMIUM`, so a deployment (or CI) picks the browser without a code change. */
function chromiumFromEnvironment(): ChromiumChoice {
  const value = process.env.MASTRA_BROWSER_CHROMIUM?.trim().toLowerCase();
  if (!value) return 'auto';
  if (!CHROMIUM_CHOICES.includes(value as ChromiumChoice)) {
    throw new BrowserToolError('invalid_input', `MASTRA_BROWSER_CHROMIUM must be one of ${CHROMIUM_CHOICES.join(', ')}, got "${value}".`);
  }
  return value as ChromiumChoice;
}

export function resolveConfig(config: BrowserToolsetConfig = {}): ResolvedConfig {
  const positive = (value: number | undefined, fallback: number, name: string): number => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value <= 0) {
      throw new BrowserToolError('invalid_input', `BrowserToolset config: ${name} must be a positive number, got ${value}.`);
    }
    return value;
  };
  return {
    headless: config.headless ?? true,
    executablePath: config.executablePath,
    chromium: config.chromium ?? chromiumFromEnvironment(),
    cdpUrl: config.cdpUrl,
    wsEndpoint: config.wsEndpoint,
    scope: config.scope ?? 'thread',
    maxSessions: Math.floor(positive(config.maxSessions, 25, 'maxSessions')),
    idleTimeout: config.idleTimeout === Infinity ? Infinity : positive(config.idleTimeout, 15 * 60_000, 'idleTimeout'),
    maxConcurrentCalls: Math.floor(positive(config.maxConcurrentCalls, Math.max(4, 4 * availableParallelism()), 'maxConcurrentCalls')),
    queueTimeout: positive(config.queueTimeout, 60_000, 'queueTimeout'),
    storageState: config.storageState,
    settle: { quietMs: positive(config.settle?.quietMs, 500, 'settle.quietMs'), maxMs: positive(config.settle?.maxMs, 3_000, 'settle.maxMs') },
    viewport: config.viewport ?? { width: 1280, height: 720 },
    timeout: positive(config.timeout, 10_000, 'timeout'),
    navigationTimeout: positive(config.navigationTimeout, 30_000, 'navigationTimeout'),
    args: [...DEFAULT_CHROMIUM_ARGS, ...(config.args ?? [])],
    allowedSchemes: (config.allowedSchemes ?? []).map((s) => s.replace(/:$/, '').toLowerCase()),
    allowedDomains: config.allowedDomains?.map((d) => d.toLowerCase()),
    snapshotMaxTokens: positive(config.snapshotMaxTokens, 2_000, 'snapshotMaxTokens'),
    pageMaxTokens: positive(config.pageMaxTokens, 4_000, 'pageMaxTokens'),
    dialogPolicy: config.dialogPolicy ?? 'ask',
    downloadDir: resolve(config.downloadDir ?? join(tmpdir(), 'mastra-browser-downloads')),
    uploadDir: config.uploadDir === undefined ? undefined : resolve(config.uploadDir),
    allowEvaluate: config.allowEvaluate ?? false,
    tools: config.tools ?? {},
    secretSelector: [...DEFAULT_SECRET_FIELDS, ...(config.secretFields ?? [])].join(', '),
    secrets: config.secrets && Object.keys(config.secrets).length ? new SecretVault(config.secrets) : undefined,
    sessionStore: typeof config.sessionStore === 'string' ? new DirectoryStore(resolve(config.sessionStore)) : config.sessionStore,
    sessionStoreKey: config.sessionStoreKey || process.env[STORE_KEY_ENV] || undefined,
    allowPlaintext: config.allowPlaintext ?? false,
    settings: checkSettings(pickSettings(config), 'BrowserToolset config'),
    sessionSettings: config.sessionSettings,
    trace: config.trace === undefined ? undefined : resolveTrace(config.trace),
    contentBoundary: config.contentBoundary ?? true,
  };
}

function resolveTrace(trace: TraceOption): Required<TraceOption> {
  if (!trace || typeof trace.dir !== 'string' || !trace.dir) {
    throw new BrowserToolError('invalid_input', 'BrowserToolset config: trace.dir must name the folder traces are written to.');
  }
  return { dir: resolve(trace.dir), screenshots: trace.screenshots ?? true, snapshots: trace.snapshots ?? true, sources: trace.sources ?? false };
}
