/**
 * Which browser to use: the user's (an endpoint, an executable, CHROME_PATH), else one installed on the
 * machine, else the Chromium shipped inside the optional npm package `@sparticuz/chromium`. Nothing is ever
 * downloaded: the npm package carries a compressed build that is unpacked to the temp directory on first use.
 */
import { accessSync, constants, createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import type { ChromiumChoice } from '../config.js';
import { BrowserToolError } from '../errors.js';

/** Where the browser came from, for logs, the demo and the CLI (never shown to the model). */
export type BrowserSource = 'cdpUrl' | 'wsEndpoint' | 'executablePath' | 'CHROME_PATH' | 'system' | 'bundled';

export interface ChosenBrowser {
  source: BrowserSource;
  /** The binary launched; absent when connecting to a running browser. */
  executablePath?: string;
  /** The endpoint connected to; absent when launching. */
  endpoint?: string;
}

export type { ChromiumChoice };

export const BUNDLED_PACKAGE = '@sparticuz/chromium';

const BROWSER_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'microsoft-edge-stable'];

const INSTALL_LOCATIONS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/opt/microsoft/msedge/msedge',
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
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A Chrome, Chromium or Edge installed on this machine: commands on PATH, then the usual install locations. */
export function findSystemBrowser(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const command of BROWSER_COMMANDS) {
    for (const dir of dirs) {
      const candidate = join(dir, command);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return INSTALL_LOCATIONS.find(isExecutable);
}

/** `CHROME_PATH`, then a system browser: what `auto` launches when the user named none. */
export function findChromeExecutable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROME_PATH && isExecutable(env.CHROME_PATH)) return env.CHROME_PATH;
  return findSystemBrowser(env);
}

/** The npm-shipped Chromium's package folder, or undefined when the optional package was left out. */
function bundledPackageDir(): string | undefined {
  try {
    // The package exports no package.json; its entry point sits a few folders below it.
    const entry = createRequire(import.meta.url).resolve(BUNDLED_PACKAGE);
    const root = entry.slice(0, entry.lastIndexOf(join('node_modules', BUNDLED_PACKAGE)) + join('node_modules', BUNDLED_PACKAGE).length);
    return existsSync(join(root, 'package.json')) ? root : undefined;
  } catch {
    return undefined;
  }
}

export function isBundledChromiumInstalled(): boolean {
  return bundledPackageDir() !== undefined;
}

let unpacking: Promise<string> | undefined;

/**
 * The npm-shipped Chromium, unpacked once per machine (about 1.5 s) and then reused. Several processes may
 * start at once (test workers, a server's cluster): a lock directory makes one unpack while the others wait,
 * and a marker written after a complete unpack tells a finished binary from one cut off half-way.
 */
export function bundledChromiumPath(): Promise<string> {
  unpacking ??= unpackBundledChromium().catch((error) => {
    unpacking = undefined;
    throw error;
  });
  return unpacking;
}

async function unpackBundledChromium(): Promise<string> {
  const version = (JSON.parse(readFileSync(join(bundledPackageDir()!, 'package.json'), 'utf8')) as { version: string }).version;
  const binary = join(tmpdir(), 'chromium');
  const marker = join(tmpdir(), 'chromium.mastra-browser-toolset');
  const complete = () => existsSync(binary) && existsSync(marker) && readFileSync(marker, 'utf8') === version;
  useBundledFontsIfNone();
  if (complete()) return binary;

  const release = await acquireLock(join(tmpdir(), 'mastra-browser-toolset-chromium.lock'));
  try {
    if (complete()) return binary;
    // A binary without our marker may be half-written or another version: unpack afresh.
    rmSync(binary, { force: true });
    const { default: Chromium } = (await import(BUNDLED_PACKAGE)) as { default: { executablePath(): Promise<string> } };
    const path = await Chromium.executablePath();
    writeFileSync(marker, version);
    return path;
  } finally {
    release();
  }
}

/**
 * A slim container may have no fonts at all; the package carries a few, unpacked beside the binary. Pages read
 * the same either way (the snapshot is text), but screenshots would show empty boxes for every letter.
 */
function useBundledFontsIfNone(): void {
  if (!existsSync('/etc/fonts/fonts.conf')) process.env.FONTCONFIG_PATH ??= join(tmpdir(), 'fonts');
}

/**
 * The npm-shipped Chromium links to NSS, NSPR and expat, which most Linux images have but slim containers lack
 * ("error while loading shared libraries: libnss3.so"). The package carries them (built for Amazon Linux, where
 * it unpacks them itself); here they are unpacked beside the binary on demand and put on LD_LIBRARY_PATH, which
 * the browser inherits. Uses the package's own tar reader.
 */
export async function provideBundledLibraries(): Promise<void> {
  const dir = join(tmpdir(), 'mastra-browser-toolset-libs');
  const lib = join(dir, 'lib');
  if (!existsSync(join(lib, 'libnss3.so'))) {
    const release = await acquireLock(join(tmpdir(), 'mastra-browser-toolset-chromium.lock'));
    try {
      if (!existsSync(join(lib, 'libnss3.so'))) {
        const packageDir = bundledPackageDir()!;
        const { extract } = createRequire(join(packageDir, 'package.json'))('tar-fs') as { extract: (dir: string) => NodeJS.WritableStream };
        await pipeline(createReadStream(join(packageDir, 'bin', 'al2023.tar.br')), createBrotliDecompress(), extract(dir));
      }
    } finally {
      release();
    }
  }
  const paths = (process.env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean);
  if (!paths.includes(lib)) process.env.LD_LIBRARY_PATH = [lib, ...paths].join(':');
}

const LOCK_STALE_MS = 120_000;

async function acquireLock(dir: string): Promise<() => void> {
  for (;;) {
    try {
      mkdirSync(dir);
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A process killed while unpacking leaves its lock behind; after two minutes it is taken over.
      const age = Date.now() - (statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) rmSync(dir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export interface FindBrowserOptions {
  cdpUrl?: string;
  wsEndpoint?: string;
  executablePath?: string;
  chromium?: ChromiumChoice;
}

const NOT_FOUND_HINT =
  `Install the npm-shipped Chromium with \`npm install ${BUNDLED_PACKAGE}\` (it is an optional dependency of mastra-browser-toolset, left out by --omit=optional), ` +
  'or install Chrome or Chromium on the machine, or set executablePath, cdpUrl or wsEndpoint in the BrowserToolset config.';

/** Chooses the browser, in the documented order. Throws `browser_not_found` when there is none. */
export async function findBrowser(options: FindBrowserOptions, env: NodeJS.ProcessEnv = process.env): Promise<ChosenBrowser> {
  if (options.cdpUrl) return { source: 'cdpUrl', endpoint: options.cdpUrl };
  if (options.wsEndpoint) return { source: 'wsEndpoint', endpoint: options.wsEndpoint };
  if (options.executablePath) {
    if (!isExecutable(options.executablePath)) {
      throw new BrowserToolError('browser_not_found', `The browser at executablePath "${options.executablePath}" does not exist or is not executable.`, {
        hint: 'Fix executablePath in the BrowserToolset config, or leave it out to use the browser found on this machine.',
      });
    }
    return { source: 'executablePath', executablePath: options.executablePath };
  }
  const choice = options.chromium ?? 'auto';
  if (choice !== 'bundled') {
    if (env.CHROME_PATH) {
      if (isExecutable(env.CHROME_PATH)) return { source: 'CHROME_PATH', executablePath: env.CHROME_PATH };
      // A browser the user named but that is not there is a mistake to report, not a reason to pick another.
      throw new BrowserToolError('browser_not_found', `CHROME_PATH is set to "${env.CHROME_PATH}", which does not exist or is not executable.`, {
        hint: 'Fix or unset the CHROME_PATH environment variable (unset, the toolset uses a system browser or the npm-shipped Chromium).',
      });
    }
    const system = findSystemBrowser(env);
    if (system) return { source: 'system', executablePath: system };
  }
  if (choice !== 'system' && isBundledChromiumInstalled()) {
    try {
      return { source: 'bundled', executablePath: await bundledChromiumPath() };
    } catch (error) {
      throw new BrowserToolError('browser_not_found', `The npm-shipped Chromium (${BUNDLED_PACKAGE}) could not be unpacked: ${(error as Error).message}`, {
        hint: `Check that the temp directory (${tmpdir()}) is writable and has about 200 MB free, or set executablePath to another browser.`,
      });
    }
  }
  const looked =
    choice === 'bundled'
      ? `${BUNDLED_PACKAGE} is not installed`
      : `looked at CHROME_PATH, ${BROWSER_COMMANDS.join(', ')} on PATH, the usual install locations${choice === 'system' ? '' : ` and the npm package ${BUNDLED_PACKAGE}`}`;
  throw new BrowserToolError('browser_not_found', `No Chrome or Chromium was found (${looked}).`, { hint: NOT_FOUND_HINT });
}
