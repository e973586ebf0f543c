import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserToolset, DEFAULT_CHROMIUM_ARGS, findBrowser } from '../src/index.js';
import { startServer, type TestServer } from './helpers/server.js';
import { OFFLINE_ARGS, call, childBrowserPids, createTestToolset, refOf } from './helpers/toolset.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('browser lifecycle', () => {
  it('always finds a browser: a system one, else the npm-shipped Chromium', async () => {
    const chosen = await findBrowser({});
    expect(['system', 'bundled', 'CHROME_PATH']).toContain(chosen.source);
    expect(chosen.executablePath).toBeTruthy();
  });

  it('launches the npm-shipped Chromium when asked, even where a system browser exists, and says so', async () => {
    const browser = createTestToolset({ chromium: 'bundled' });
    try {
      expect(browser.browserInfo).toBeUndefined();
      const result = await call(browser, 'browser_navigate', { url: server.url('/fixtures/page-a.html') });
      expect(result.ok).toBe(true);
      expect(result.title).toBe('Page A');
      expect(browser.browserInfo).toMatchObject({ source: 'bundled', executablePath: expect.stringMatching(/chromium$/), version: expect.stringMatching(/^\d+\./) });
      expect(JSON.stringify(result)).not.toContain(browser.browserInfo!.executablePath!); // the model is not told
    } finally {
      await browser.close();
    }
  });

  it('launches lazily (not for a URL it refuses), once for concurrent first calls, and close() leaves no browser process', async () => {
    const before = await childBrowserPids();
    const browser = createTestToolset();
    expect(await childBrowserPids()).toEqual(before);
    // A URL that can never be opened is refused before anything is launched.
    for (const url of ['http://', 'javascript:alert(1)']) {
      expect((await call(browser, 'browser_navigate', { url })).error.code).toBe('invalid_input');
    }
    expect(await childBrowserPids()).toEqual(before);

    const results = await Promise.all([
      call(browser, 'browser_navigate', { url: server.url('/fixtures/list.html') }),
      call(browser, 'browser_snapshot', {}),
      call(browser, 'browser_snapshot', { scope: 'page' }),
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    const launched = (await childBrowserPids()).filter((pid) => !before.includes(pid));
    expect(launched).toHaveLength(1);

    await browser.close();
    await browser.close(); // idempotent
    await waitFor(async () => (await childBrowserPids()).every((pid) => before.includes(pid)), 'chromium to exit');

    // A closed toolset starts a new browser on the next call.
    const again = await call(browser, 'browser_navigate', { url: server.url('/fixtures/list.html') });
    expect(again.ok).toBe(true);
    await browser.close();
  });

  it('a browser killed between calls is relaunched, and the result says the page state was lost', async () => {
    const browser = createTestToolset();
    try {
      const before = await childBrowserPids();
      const first = await call(browser, 'browser_navigate', { url: server.url('/fixtures/form.html') });
      await call(browser, 'browser_type', { ref: refOf(first.snapshot, 'textbox', 'Full name *'), text: 'Ada' });
      const [pid] = (await childBrowserPids()).filter((p) => !before.includes(p));
      const launched = (await browser.page()).context().browser();
      process.kill(pid!, 'SIGKILL');
      await waitFor(async () => !(await childBrowserPids()).includes(pid!), 'chromium to die');
      // Between calls: Playwright has heard the connection drop (on a busy machine that comes after the process is gone).
      await waitFor(async () => !launched?.isConnected(), 'the connection to drop');

      const next = await call(browser, 'browser_snapshot', {});
      expect(next.ok).toBe(true);
      expect(next.notices.join(' ')).toMatch(/browser had closed .* restarted.*form input.*lost/i);
      expect(next.snapshot).toContain('about:blank');

      const recovered = await call(browser, 'browser_navigate', { url: server.url('/fixtures/list.html') });
      expect(recovered.ok).toBe(true);
      expect(recovered.notices).toBeUndefined();
    } finally {
      await browser.close();
    }
  });

  it('a crashed tab is replaced, and the next call says so', async () => {
    const browser = createTestToolset();
    try {
      await call(browser, 'browser_navigate', { url: server.url('/fixtures/list.html') });
      const page = await browser.page();
      const crashed = new Promise((resolve) => page.once('crash', resolve));
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.crash').catch(() => {});
      await crashed;
      const next = await call(browser, 'browser_navigate', { url: server.url('/fixtures/list.html') });
      expect(next.ok).toBe(true);
      expect(next.notices.join(' ')).toMatch(/tab crashed/i);
    } finally {
      await browser.close();
    }
  });

  it('a missing browser gives browser_not_found with a hint, without throwing', async () => {
    const browser = new BrowserToolset({ executablePath: '/nonexistent/chrome' });
    const result = await call(browser, 'browser_navigate', { url: server.url('/fixtures/list.html') });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('browser_not_found');
    expect(result.error.hint).toMatch(/executablePath|cdpUrl/);
    await browser.close();
  });

  it('attaches to a running browser with cdpUrl, and close() leaves that browser running', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const profile = mkdtempSync(join(tmpdir(), 'mbt-cdp-'));
    const chrome = spawn((await findBrowser({})).executablePath!, [
      '--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, ...DEFAULT_CHROMIUM_ARGS, ...OFFLINE_ARGS, 'about:blank',
    ], { detached: true }); // its own process group, so its helper processes can be stopped with it
    try {
      const wsUrl = await new Promise<string>((resolve, reject) => {
        let err = '';
        chrome.stderr.on('data', (chunk) => {
          err += chunk;
          const match = /DevTools listening on (ws:\/\/\S+)/.exec(err);
          if (match) resolve(match[1]!);
        });
        chrome.on('exit', () => reject(new Error(`chromium exited: ${err}`)));
      });
      const browser = new BrowserToolset({ cdpUrl: wsUrl });
      const result = await call(browser, 'browser_navigate', { url: server.url('/fixtures/page-a.html') });
      expect(result.ok).toBe(true);
      expect(result.title).toBe('Page A');
      await browser.close();
      expect(chrome.exitCode).toBeNull();
      // Only the toolset's own context was closed: the browser and its own tab live on.
      const { chromium } = await import('playwright-core');
      const observer = await chromium.connectOverCDP(wsUrl);
      const urls = observer.contexts().flatMap((context) => context.pages().map((page) => page.url()));
      expect(urls).toContain('about:blank');
      expect(urls.some((url) => url.includes('page-a'))).toBe(false);
      await observer.close();
    } finally {
      const exited = new Promise((resolve) => (chrome.exitCode === null ? chrome.once('exit', resolve) : resolve(null)));
      try {
        process.kill(-chrome.pid!, 'SIGKILL');
      } catch {
        chrome.kill('SIGKILL');
      }
      await exited;
      // Removing the temporary profile is housekeeping, not what this test checks.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch {
        // a helper process still writing; the OS temp cleaner will take it
      }
    }
  });
});

describe('remote browsers', () => {
  it('connects to a Playwright browser server (wsEndpoint), reconnects after it drops and says what was lost, and never closes it', async () => {
    const { chromium } = await import('playwright-core');
    const executablePath = (await findBrowser({})).executablePath!;
    const options = { executablePath, args: [...DEFAULT_CHROMIUM_ARGS, ...OFFLINE_ARGS], port: 0, wsPath: '/remote-browser' };
    let remote = await chromium.launchServer(options);
    const endpoint = remote.wsEndpoint();
    const browser = new BrowserToolset({ wsEndpoint: endpoint, navigationTimeout: 8_000 });
    try {
      const first = await call(browser, 'browser_navigate', { url: server.url('/fixtures/page-a.html') });
      expect(first.ok).toBe(true);
      expect(browser.browserInfo).toMatchObject({ source: 'wsEndpoint', endpoint });

      // The remote goes away and comes back at the same address (a browser service restarting).
      await remote.close();
      const whileDown = await call(browser, 'browser_snapshot', {});
      expect(whileDown.ok).toBe(false);
      expect(whileDown.error.code).toBe('browser_closed');
      expect(whileDown.error.retryable).toBe(true);
      remote = await chromium.launchServer({ ...options, port: Number(new URL(endpoint).port) });
      const after = await call(browser, 'browser_navigate', { url: server.url('/fixtures/page-b.html') });
      expect(after.ok).toBe(true);
      expect(after.notices.join(' ')).toMatch(/connection to the remote browser dropped and was opened again: the previous page .* lost/);

      await browser.close();
      // The toolset only disconnected: the remote browser still serves other clients.
      const other = await chromium.connect(endpoint);
      expect(other.isConnected()).toBe(true);
      await other.close();
    } finally {
      await browser.close();
      await remote.close();
    }
  });
});
