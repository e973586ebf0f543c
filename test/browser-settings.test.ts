/**
 * What a site sees of the browser (proxy, user agent, locale, time zone, position, extra headers, permissions,
 * colour scheme): set in the toolset config or per session, checked where a site would see them, on a local
 * server that echoes what it received, through a local forwarding proxy, and in the page itself.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_FLAGS, parse, toolsetConfig } from '../src/cli/options.js';
import { BrowserToolset, DEFAULT_CHROMIUM_ARGS, findBrowser } from '../src/index.js';
import { createTestToolset, OFFLINE_ARGS } from './helpers/toolset.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
}

/** The page shows what it sees of its browser once it has all of it, then "Settings read". */
const PAGE = `<!doctype html><title>What the page sees</title><h1>Echo</h1><ul id="seen"></ul>
<script>
  const show = (name, value) => { const li = document.createElement('li'); li.textContent = name + ': ' + value; document.getElementById('seen').append(li); };
  show('time zone', Intl.DateTimeFormat().resolvedOptions().timeZone);
  show('language', navigator.language);
  show('user agent', navigator.userAgent);
  show('dark scheme', matchMedia('(prefers-color-scheme: dark)').matches);
  Promise.all([
    navigator.permissions.query({ name: 'notifications' }).then((p) => show('notifications', p.state)),
    new Promise((done) => navigator.geolocation.getCurrentPosition(
      (at) => { show('position', at.coords.latitude + ',' + at.coords.longitude); done(); },
      (error) => { show('position', 'refused ' + error.message); done(); })),
  ]).then(() => show('done', 'Settings read'));
</script>`;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A site that remembers each request it received, headers included. */
async function startEchoServer() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    received.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  const port = await listen(server);
  return { received, origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A forwarding HTTP proxy: notes each address asked of it and marks what it forwards with a `via` header. Given
 * `login`, it asks for it (407) as a proxy that needs a password does.
 */
async function startProxy(name: string, login?: string) {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    if (login && req.headers['proxy-authorization'] !== `Basic ${Buffer.from(login).toString('base64')}`) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"' }).end();
      return;
    }
    asked.push(req.url ?? '');
    const target = new URL(req.url ?? '/');
    const { 'proxy-authorization': _login, ...headers } = req.headers;
    const forwarded = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: { ...headers, via: `1.1 ${name}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  // An https address is asked for as a tunnel (CONNECT): this proxy only refuses one, for a wrong login.
  server.on('connect', (req, socket) => {
    const refused = login && req.headers['proxy-authorization'] !== `Basic ${Buffer.from(login).toString('base64')}`;
    socket.end(refused ? 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n' : 'HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
  });
  const port = await listen(server);
  return { asked, server: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A tool call in the session a workflow would name through its RequestContext. */
function callIn(toolset: BrowserToolset, session: string | undefined, id: 'browser_navigate' | 'browser_wait' | 'browser_snapshot', input: Record<string, unknown>): Promise<any> {
  const requestContext = { get: (key: string) => (key === 'browserSession' ? session : undefined) };
  return (toolset.tools[id] as any).execute(input, session ? { requestContext } : {});
}

let echo: Awaited<ReturnType<typeof startEchoServer>>;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let customerProxy: Awaited<ReturnType<typeof startProxy>>;
let toolset: BrowserToolset;
/** An address where nothing listens any more. */
let closedAddress: string;

beforeAll(async () => {
  echo = await startEchoServer();
  proxy = await startProxy('toolset-proxy');
  customerProxy = await startProxy('customer-proxy', 'customer:s3cret pass');
  const gone = await startProxy('gone');
  closedAddress = gone.server;
  await gone.close();
  toolset = createTestToolset({
    proxy: { server: proxy.server },
    userAgent: 'SettingsTest/1.0 (a user agent of our own)',
    locale: 'de-DE',
    timezoneId: 'Asia/Tokyo',
    geolocation: { latitude: 41.89, longitude: 12.49 },
    extraHTTPHeaders: { 'X-Team': 'browsers', 'X-Tenant': 'all' },
    permissions: ['notifications'],
    colorScheme: 'dark',
    // One customer's sessions go out through its own proxy (its login written in the address, as proxy settings
    // often are), with its own language and tenant header.
    sessionSettings: (key) => {
      if (key === 'named:customer') return { proxy: { server: customerProxy.server.replace('//', '//customer:s3cret%20pass@') }, locale: 'fr-FR', extraHTTPHeaders: { 'X-Tenant': 'customer' } };
      if (key === 'named:wrong-login') return { proxy: { server: customerProxy.server, username: 'customer', password: 'guess' } };
      if (key === 'named:proxy-down') return { proxy: { server: closedAddress } };
      return undefined;
    },
  });
});

afterAll(async () => {
  await toolset?.close();
  await Promise.all([echo?.close(), proxy?.close(), customerProxy?.close()]);
});

describe('browser settings', () => {
  it('each setting reaches the site: through the proxy, with the user agent, language and extra headers', async () => {
    const result = await callIn(toolset, undefined, 'browser_navigate', { url: `${echo.origin}/echo?who=toolset` });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(proxy.asked).toContain(`${echo.origin}/echo?who=toolset`);
    const seen = echo.received.find((r) => r.path === '/echo?who=toolset')!;
    expect(seen.headers.via).toBe('1.1 toolset-proxy');
    expect(seen.headers['user-agent']).toBe('SettingsTest/1.0 (a user agent of our own)');
    expect(seen.headers['accept-language']).toMatch(/^de-DE\b/);
    expect(seen.headers['x-team']).toBe('browsers');
    expect(seen.headers['x-tenant']).toBe('all');
  });

  it('the page sees the time zone, language, user agent, colour scheme, permissions and position', async () => {
    const result = await callIn(toolset, undefined, 'browser_wait', { text: 'Settings read', seconds: 5 });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    const text: string = result.snapshot;
    expect(text).toContain('time zone: Asia/Tokyo');
    expect(text).toContain('language: de-DE');
    expect(text).toContain('user agent: SettingsTest/1.0 (a user agent of our own)');
    expect(text).toContain('dark scheme: true');
    expect(text).toContain('notifications: granted');
    // Setting a position grants the permission to read it: no prompt nobody could answer.
    expect(text).toContain('position: 41.89,12.49');
  });

  it('a session given its own settings goes out through its own proxy, logged in, over the toolset settings it does not change', async () => {
    const result = await callIn(toolset, 'customer', 'browser_navigate', { url: `${echo.origin}/echo?who=customer` });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(customerProxy.asked).toContain(`${echo.origin}/echo?who=customer`);
    expect(proxy.asked).not.toContain(`${echo.origin}/echo?who=customer`);
    const seen = echo.received.find((r) => r.path === '/echo?who=customer')!;
    expect(seen.headers.via).toBe('1.1 customer-proxy');
    expect(seen.headers['accept-language']).toMatch(/^fr-FR\b/);
    expect(seen.headers['x-tenant']).toBe('customer');
    expect(seen.headers['x-team']).toBe('browsers');
    expect(seen.headers['user-agent']).toBe('SettingsTest/1.0 (a user agent of our own)');
  });

  it('a proxy that refuses the login or cannot be reached is named as the cause, not the site, for http and https addresses', async () => {
    // The npm-shipped headless shell shows a proxy's empty 407 as a page (and never finishes one for https);
    // Chrome and Chromium fail the load (ERR_HTTP_RESPONSE_CODE_FAILURE).
    for (const [session, origin] of [
      ['wrong-login', echo.origin],
      ['wrong-login', echo.origin.replace('http:', 'https:')],
      ['proxy-down', echo.origin],
      ['proxy-down', echo.origin.replace('http:', 'https:')],
    ] as const) {
      const result = await callIn(toolset, session, 'browser_navigate', { url: `${origin}/echo?who=${session}` });
      const said = JSON.stringify(result);
      expect(result.ok, said).toBe(false);
      expect(result.error.message, said).toMatch(session === 'wrong-login' ? /HTTP 407 Proxy Authentication Required/ : /proxy could not be reached.*ERR_PROXY_CONNECTION_FAILED/);
      expect(result.error.hint, said).toMatch(session === 'wrong-login' ? /the proxy refused its login.*Tell the user/ : /through a proxy set by whoever runs it.*Tell the user/);
      // The tab still answers.
      const snapshot = await callIn(toolset, session, 'browser_snapshot', {});
      expect(snapshot.ok, JSON.stringify(snapshot)).toBe(true);
    }
    expect(echo.received.map((r) => r.path)).not.toContain('/echo?who=wrong-login');
  });

  it('a remote browser (wsEndpoint) opens each session with the same settings', async () => {
    const { chromium } = await import('playwright-core');
    const executablePath = (await findBrowser({})).executablePath!;
    const remote = await chromium.launchServer({ executablePath, args: [...DEFAULT_CHROMIUM_ARGS, ...OFFLINE_ARGS], port: 0 });
    const attached = new BrowserToolset({ wsEndpoint: remote.wsEndpoint(), navigationTimeout: 8_000, proxy: { server: proxy.server }, locale: 'ja-JP', userAgent: 'Remote/1.0' });
    try {
      const result = await callIn(attached, undefined, 'browser_navigate', { url: `${echo.origin}/echo?who=remote` });
      expect(result.ok, JSON.stringify(result.error)).toBe(true);
      const seen = echo.received.find((r) => r.path === '/echo?who=remote')!;
      expect(seen.headers.via).toBe('1.1 toolset-proxy');
      expect(seen.headers['accept-language']).toMatch(/^ja-JP\b/);
      expect(seen.headers['user-agent']).toBe('Remote/1.0');
    } finally {
      await attached.close();
      await remote.close();
    }
  });

  it('a setting Playwright would refuse is refused when the toolset is made, naming it', () => {
    expect(() => createTestToolset({ timezoneId: 'Mars/Olympus' })).toThrow(/timezoneId is not an IANA time zone/);
    expect(() => createTestToolset({ geolocation: { latitude: 120, longitude: 0 } })).toThrow(/geolocation\.latitude/);
    expect(() => createTestToolset({ colorScheme: 'sepia' as 'dark' })).toThrow(/colorScheme/);
  });

  it('the command line takes the settings under the names @playwright/mcp and Playwright give them', () => {
    const args = [
      '--proxy-server', 'http://proxy.internal:3128', '--proxy-bypass', '.corp.example',
      '--user-agent', 'Agent/2', '--lang', 'en-GB', '--timezone', 'Europe/Rome', '--geolocation', '41.89, 12.49',
      '--grant-permissions', 'geolocation,clipboard-read', '--color-scheme', 'dark',
      '--extra-http-header', 'X-One: 1', '--extra-http-header', 'X-Two: two: parts', '--trace-dir', '/tmp/traces',
    ];
    expect(toolsetConfig(parse(args, BROWSER_FLAGS).values)).toMatchObject({
      proxy: { server: 'http://proxy.internal:3128', bypass: '.corp.example' },
      userAgent: 'Agent/2',
      locale: 'en-GB',
      timezoneId: 'Europe/Rome',
      geolocation: { latitude: 41.89, longitude: 12.49 },
      permissions: ['geolocation', 'clipboard-read'],
      colorScheme: 'dark',
      extraHTTPHeaders: { 'X-One': '1', 'X-Two': 'two: parts' },
      trace: { dir: '/tmp/traces' },
    });
    expect(() => toolsetConfig(parse(['--geolocation', 'Rome'], BROWSER_FLAGS).values)).toThrow(/LATITUDE,LONGITUDE/);
  });
});
