/**
 * The one browser a toolset uses, shared by all its sessions: launched lazily (agent-browser's
 * BrowserManager), or connected to (a CDP endpoint through BrowserManager, a Playwright browser server through
 * playwright-core's `connect`). Each session opens its own isolated context in it, so a session costs a
 * context and its renderers, not a browser.
 *
 * A browser that dies or a remote that drops is noticed here; sessions hear of it through `onDisconnect` and
 * the next call launches or connects again. A browser the toolset did not launch is never closed: closing the
 * toolset closes its own contexts and disconnects.
 */
import { BrowserManager } from 'agent-browser';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import type { ResolvedConfig } from '../config.js';
import { BrowserToolError, toBrowserToolError } from '../errors.js';
import { registerHiddenRefEngine } from './hiddenRefs.js';
import { findBrowser, provideBundledLibraries, type ChosenBrowser } from './find.js';

const MISSING_LIBRARY = /error while loading shared libraries: (\S+?):/;

export interface BrowserInfo extends ChosenBrowser {
  version?: string;
}

interface Connection {
  browser: Browser;
  chosen: ChosenBrowser;
  /** Set when launched or CDP-connected through agent-browser (whose close() ends only what it launched). */
  manager?: BrowserManager;
}

export class SharedBrowser {
  private connection: Connection | undefined;
  private connecting: Promise<Connection> | undefined;
  private readonly disconnectListeners = new Set<(lost: ChosenBrowser) => void>();

  constructor(private readonly config: ResolvedConfig) {}

  /** Called with the browser that was lost when it dies or the remote connection drops; every context in it is gone. */
  onDisconnect(listener: (lost: ChosenBrowser) => void): () => void {
    this.disconnectListeners.add(listener);
    return () => this.disconnectListeners.delete(listener);
  }

  info(): BrowserInfo | undefined {
    const connection = this.connection;
    if (!connection) return undefined;
    const version = connection.browser.isConnected() ? connection.browser.version() : undefined;
    return { ...connection.chosen, ...(version ? { version } : {}) };
  }

  isConnected(): boolean {
    return this.connection?.browser.isConnected() ?? false;
  }

  /** Launches or connects now instead of at the first context (a provider's `launch()`). */
  async launch(): Promise<BrowserInfo> {
    await this.ensure();
    return this.info()!;
  }

  /** A new isolated context (own cookies, storage, cache) in the browser, launching or connecting first if needed. */
  async newContext(options: BrowserContextOptions): Promise<BrowserContext> {
    const { browser } = await this.ensure();
    try {
      return await browser.newContext(options);
    } catch (error) {
      throw toBrowserToolError(error, 'open a browser context');
    }
  }

  /** Closes the browser if this toolset launched it; otherwise only disconnects. Idempotent. */
  async close(): Promise<void> {
    const connection = this.connection ?? (await this.connecting?.catch(() => undefined));
    this.connection = undefined;
    if (!connection) return;
    if (connection.manager) await connection.manager.close().catch(() => {});
    else await connection.browser.close().catch(() => {});
  }

  private ensure(): Promise<Connection> {
    if (this.connection?.browser.isConnected()) return Promise.resolve(this.connection);
    this.connection = undefined;
    // Concurrent first calls share one launch.
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<Connection> {
    const { config } = this;
    await registerHiddenRefEngine();
    const chosen = await findBrowser(config);
    let connection: Connection;
    try {
      try {
        connection = chosen.source === 'wsEndpoint' ? await this.connectToServer(chosen) : await this.launchWithManager(chosen);
      } catch (error) {
        // A slim container without the libraries the npm-shipped Chromium links to: give it the ones it carries.
        if (chosen.source !== 'bundled' || !MISSING_LIBRARY.test(String(error))) throw error;
        await provideBundledLibraries();
        connection = await this.launchWithManager(chosen);
      }
    } catch (error) {
      if (error instanceof BrowserToolError) throw error;
      const library = MISSING_LIBRARY.exec(String(error))?.[1];
      if (library) {
        throw new BrowserToolError('browser_error', `The browser at ${chosen.executablePath} cannot start: the system library ${library} is missing.`, {
          hint: `Install the browser's system libraries (Debian/Ubuntu: \`apt-get install chromium\` brings them all), or set cdpUrl or wsEndpoint to a remote browser.`,
          retryable: false,
        });
      }
      const remote = chosen.endpoint !== undefined;
      const failure = toBrowserToolError(error, remote ? `connect to ${chosen.endpoint}` : `launch ${chosen.executablePath}`);
      throw new BrowserToolError(remote ? 'browser_closed' : 'browser_error', failure.message, {
        hint: remote
          ? `Check that the browser at ${chosen.source} is running and reachable from this machine; the next call tries again.`
          : 'Check that executablePath points to a working Chrome or Chromium, or set cdpUrl or wsEndpoint to a running browser.',
        retryable: remote,
      });
    }
    connection.browser.on('disconnected', () => {
      if (this.connection !== connection) return;
      this.connection = undefined;
      for (const listener of this.disconnectListeners) listener(connection.chosen);
    });
    this.connection = connection;
    return connection;
  }

  private async launchWithManager(chosen: ChosenBrowser): Promise<Connection> {
    const { config } = this;
    const manager = new BrowserManager();
    try {
      if (chosen.endpoint) {
        await manager.launch({ cdpUrl: chosen.endpoint, viewport: config.viewport });
      } else {
        await manager.launch({ headless: config.headless, executablePath: chosen.executablePath, args: config.args, viewport: config.viewport });
        // The manager opens a context and tab of its own; sessions open theirs, so this one would idle.
        await manager.getContext()?.close().catch(() => {});
      }
    } catch (error) {
      await manager.close().catch(() => {});
      // agent-browser insists on an open page in the remote browser; a fresh one from a browser service may
      // have none, and sessions open their own contexts anyway.
      if (chosen.endpoint && /No (page|browser context) found/.test(String(error))) {
        return { browser: await chromium.connectOverCDP(chosen.endpoint, { timeout: config.navigationTimeout }), chosen };
      }
      throw error;
    }
    const browser = manager.getBrowser();
    if (!browser) {
      await manager.close().catch(() => {});
      throw new BrowserToolError('browser_error', 'The browser started without a browser handle (a persistent profile is not supported here).');
    }
    return { browser, chosen, manager };
  }

  /** A Playwright browser server (`launchServer`, `npx playwright run-server`, browser services that speak it). */
  private async connectToServer(chosen: ChosenBrowser): Promise<Connection> {
    const browser = await chromium.connect(chosen.endpoint!, { timeout: this.config.navigationTimeout });
    return { browser, chosen };
  }
}
