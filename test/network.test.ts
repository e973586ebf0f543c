/**
 * The stand-in internet of `npm run bench:network` (bench/network/standIn.ts): a real Chromium, routed to
 * it by resolver rule, gets third-party files after the seeded delay, never gets an answer for a stuck
 * URL, and sends nothing anywhere else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_CHROMIUM_ARGS, findBrowser } from '../src/index.js';
import { startStandIn, type StandIn } from '../bench/network/standIn.js';

const STUCK_WAIT_MS = 3_000;

let standIn: StandIn;
let browser: Browser;

/** The first of a few made-up URLs whose seeded fate matches. */
function urlWhere(pattern: (i: number) => string, wanted: (fate: { stuck: boolean; delayMs: number }) => boolean): string {
  for (let i = 0; i < 1_000; i++) {
    const url = pattern(i);
    if (wanted(standIn.fateOf(url))) return url;
  }
  throw new Error('no URL with that fate in 1,000 tries');
}

beforeAll(async () => {
  standIn = await startStandIn({
    seed: 'network-test',
    stuckShare: 0.05,
    local: (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Local</title><h1>Local page</h1>${decodeURIComponent(new URL(req.url!, 'http://x').searchParams.get('body') ?? '')}`);
    },
  });
  const executablePath = (await findBrowser({})).executablePath!;
  browser = await chromium.launch({ executablePath, args: [...DEFAULT_CHROMIUM_ARGS, ...standIn.resolverArgs], headless: true });
});

afterAll(async () => {
  await browser?.close();
  await standIn?.close();
});

describe('stand-in internet', () => {
  it('answers third-party files over http and https after their delay, never answers a stuck URL, and sees every request', async () => {
    // Slow enough that an answer before its delay could not be a rounding accident.
    const image = urlWhere((i) => `http://cdn-${i}.example.com/pixel.gif`, (f) => !f.stuck && f.delayMs >= 100);
    const secureImage = urlWhere((i) => `https://img-${i}.example.org/logo.png?v=${i}`, (f) => !f.stuck);
    const script = urlWhere((i) => `https://tags-${i}.example.net/tag.js`, (f) => !f.stuck);
    const stuck = urlWhere((i) => `https://ads-${i}.example.com/slot.json`, (f) => f.stuck);

    const body = `<img id="plain" src="${image}"><img id="secure" src="${secureImage}"><script src="${script}"></script>`;
    const page = await browser.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(standIn.origin)) asked.push(request.url());
    });
    await page.goto(standIn.url(`/page?body=${encodeURIComponent(body)}`), { waitUntil: 'load', timeout: 15_000 });

    // Both images decoded: the stand-in sent a real 1x1 image, over plain HTTP and over TLS.
    const sizes = await page.$$eval('img', (imgs) => imgs.map((img) => `${img.id} ${(img as HTMLImageElement).naturalWidth}x${(img as HTMLImageElement).naturalHeight}`));
    expect(sizes).toEqual(['plain 1x1', 'secure 1x1']);

    const seen = (url: string) => standIn.thirdParty.find((r) => r.url === url);
    const plain = seen(image)!;
    expect(plain).toMatchObject({ host: new URL(image).hostname, kind: 'image', stuck: false });
    // Held for the seeded delay before answering (timers never fire early; 1 ms for clock rounding).
    expect(plain.answeredAt! - plain.at).toBeGreaterThanOrEqual(plain.delayMs - 1);
    expect(seen(secureImage)).toMatchObject({ dest: 'image', kind: 'image', answeredAt: expect.any(Number) });
    expect(seen(script)).toMatchObject({ dest: 'script', kind: 'script', answeredAt: expect.any(Number) });

    // The stuck URL: a cross-origin fetch from the page gets no answer at all within the wait.
    const outcome = await page.evaluate(
      ([url, ms]) => fetch(url, { signal: AbortSignal.timeout(ms) }).then((r) => `answered ${r.status}`, (e: Error) => e.name),
      [stuck, STUCK_WAIT_MS] as const,
    );
    expect(outcome).toBe('TimeoutError');
    expect(seen(stuck)).toMatchObject({ stuck: true });
    expect(seen(stuck)!.answeredAt).toBeUndefined();

    // Everything the browser asked of hosts other than 127.0.0.1 reached the stand-in: nothing went elsewhere.
    expect(asked.length).toBeGreaterThanOrEqual(4);
    for (const url of asked) expect(seen(url), url).toBeDefined();
    await page.close();
  });

  it('gives the same URL the same fate every time, and ignores its query string', () => {
    const url = 'https://stats.example.com/collect?t=1';
    expect(standIn.fateOf(url)).toEqual(standIn.fateOf('https://stats.example.com/collect?t=2'));
    expect(standIn.fateOf(url)).toEqual(standIn.fateOf(url));
  });
});
