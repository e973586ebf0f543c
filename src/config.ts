import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { BrowserToolError } from './errors.js';

export interface BrowserToolsetConfig {
  /** Run without a visible window. Default: true. */
  headless?: boolean;
  /** Path to a Chrome or Chromium binary. Default: found on this machine (see `findChromeExecutable`). */
  executablePath?: string;
  /** Attach to a running browser over CDP (`http://127.0.0.1:9222` or a `ws://` URL) instead of launching one. */
  cdpUrl?: string;
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
   * CSS selectors of fields whose values are never shown to the model, in snapshots, diffs or results
   * (password inputs always are). Added to the defaults: card numbers, card security codes, one-time codes.
   */
  secretFields?: string[];
  /** Choose the tools offered to the model, by id, e.g. `{ exclude: ['browser_screenshot'] }` for a text-only model. */
  tools?: { include?: string[]; exclude?: string[] };
}

export interface ResolvedConfig {
  headless: boolean;
  executablePath?: string;
  cdpUrl?: string;
  viewport: { width: number; height: number };
  timeout: number;
  navigationTimeout: number;
  args: string[];
  allowedSchemes: string[];
  allowedDomains?: string[];
  snapshotMaxTokens: number;
  dialogPolicy: 'ask' | 'accept' | 'dismiss';
  downloadDir: string;
  uploadDir?: string;
  allowEvaluate: boolean;
  tools: { include?: string[]; exclude?: string[] };
  /** One selector list built from the defaults and `secretFields`. */
  secretSelector: string;
}

export const DEFAULT_SECRET_FIELDS = ['input[autocomplete="cc-number"]', 'input[autocomplete="cc-csc"]', 'input[autocomplete="one-time-code"]'];

/**
 * Quiet flags: without them Chromium keeps trying to reach Google services, which is slow and noisy
 * on closed networks and pointless for automation. `--no-sandbox` because automation often runs as root
 * in containers, where the sandbox cannot start.
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
    cdpUrl: config.cdpUrl,
    viewport: config.viewport ?? { width: 1280, height: 720 },
    timeout: positive(config.timeout, 10_000, 'timeout'),
    navigationTimeout: positive(config.navigationTimeout, 30_000, 'navigationTimeout'),
    args: [...DEFAULT_CHROMIUM_ARGS, ...(config.args ?? [])],
    allowedSchemes: (config.allowedSchemes ?? []).map((s) => s.replace(/:$/, '').toLowerCase()),
    allowedDomains: config.allowedDomains?.map((d) => d.toLowerCase()),
    snapshotMaxTokens: positive(config.snapshotMaxTokens, 2_000, 'snapshotMaxTokens'),
    dialogPolicy: config.dialogPolicy ?? 'ask',
    downloadDir: resolve(config.downloadDir ?? join(tmpdir(), 'mastra-browser-downloads')),
    uploadDir: config.uploadDir === undefined ? undefined : resolve(config.uploadDir),
    allowEvaluate: config.allowEvaluate ?? false,
    tools: config.tools ?? {},
    secretSelector: [...DEFAULT_SECRET_FIELDS, ...(config.secretFields ?? [])].join(', '),
  };
}

const BROWSER_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge'];

const INSTALL_LOCATIONS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `CHROME_PATH`, then the usual commands on PATH, then the usual install locations. */
export function findChromeExecutable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROME_PATH && isExecutable(env.CHROME_PATH)) return env.CHROME_PATH;
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const command of BROWSER_COMMANDS) {
    for (const dir of dirs) {
      const candidate = join(dir, command);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return INSTALL_LOCATIONS.find(isExecutable);
}

export function requireChromeExecutable(config: ResolvedConfig): string {
  const found = config.executablePath ?? findChromeExecutable();
  if (!found) {
    throw new BrowserToolError(
      'browser_not_found',
      'No Chrome or Chromium was found (looked at CHROME_PATH, chromium, chromium-browser, google-chrome, google-chrome-stable and microsoft-edge on PATH, and the usual install locations).',
    );
  }
  if (!isExecutable(found)) {
    throw new BrowserToolError('browser_not_found', `The browser at executablePath "${found}" does not exist or is not executable.`);
  }
  return found;
}
