/**
 * Mastra Studio's live view of the agent's browser, seen as a person sees it: the playground (integrations/playground)
 * runs under `mastra dev`, Studio is opened in headless Chromium, the demo message is sent in the agent's chat, and
 * the browser panel must show the pages the agent is on, follow it when it moves to another page, and pass a click
 * made on it to the page. The demo model drives the agent (no API key), on the playground's own demo site.
 *
 * `mastra dev` needs Node 22.13 or newer and the playground's own install (`cd integrations/playground && npm ci`);
 * without either the test is skipped with the reason (CI's Node 22 run has both). Writes
 * test-results/studio-live-view.png: Studio with the live view open.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser, provideBundledLibraries, type ChromiumChoice } from '../src/browser/find.js';
import { browserPidsUnder, waitForExit } from './helpers/processes.js';
import { OFFLINE_ARGS } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PLAYGROUND = join(ROOT, 'integrations/playground');
const MASTRA_CLI = join(PLAYGROUND, 'node_modules/mastra/dist/index.js');
const SCREENSHOT = join(ROOT, 'test-results/studio-live-view.png');

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const skipReason =
  major < 22 || (major === 22 && minor < 13)
    ? `mastra dev needs Node 22.13 or newer; this is Node ${process.versions.node} (CI's Node 22 run covers it)`
    : !existsSync(MASTRA_CLI)
      ? 'the playground is not installed: run `cd integrations/playground && npm ci`'
      : undefined;
if (skipReason) console.warn(`studio-live-view.test.ts skipped: ${skipReason}`);

/** The background of each demo site page (integrations/playground/src/mastra/demo/site.ts), as a frame shows it. */
const PAGE_COLOURS: Record<string, [number, number, number]> = {
  home: [0xff, 0xe8, 0xb0],
  contact: [0xc8, 0xf0, 0xd0],
  thanks: [0xc8, 0xdc, 0xff],
};

/** Which demo page a frame shows, from its background colour (frames are JPEG: near, not equal). */
function pageOf([r, g, b]: number[]): string {
  for (const [name, [pr, pg, pb]] of Object.entries(PAGE_COLOURS)) {
    if (Math.abs(r! - pr) + Math.abs(g! - pg) + Math.abs(b! - pb) < 45) return name;
  }
  return `other rgb(${r},${g},${b})`;
}

/**
 * Runs in Studio: every frame the live view's images receive (the panel's preview and the full view) is drawn on a
 * canvas and its background colour read at the right of the page, below its header, into `window.liveFrames`.
 */
function watchLiveFrames(): void {
  // Indexed by arrival: decoding is asynchronous and must not reorder them.
  const frames: number[][] = [];
  (window as any).liveFrames = frames;
  let arrived = 0;
  const read = async (img: HTMLImageElement) => {
    const index = arrived++;
    const src = img.getAttribute('src');
    if (!src?.startsWith('data:image')) return;
    const frame = new Image();
    frame.src = src;
    await frame.decode();
    const canvas = document.createElement('canvas');
    canvas.width = frame.naturalWidth;
    canvas.height = frame.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(frame, 0, 0);
    frames[index] = [...context.getImageData(Math.floor(canvas.width * 0.97), Math.floor(canvas.height * 0.6), 1, 1).data].slice(0, 3);
  };
  new MutationObserver((records) => {
    for (const { target } of records) {
      if (target instanceof HTMLImageElement && /^Browser (preview|screencast)$/.test(target.alt)) void read(target).catch(() => {});
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['src'] });
}

/** The pages the live view showed since frame `from`, each once per visit, in order. */
async function pagesShown(studio: Page, from = 0): Promise<string[]> {
  const frames: Array<number[] | null> = await studio.evaluate(() => [...(window as any).liveFrames]);
  const pages = frames.slice(from).flatMap((frame) => (frame ? [pageOf(frame)] : []));
  return pages.filter((page, i) => page !== pages[i - 1]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function launchChromium(): Promise<Browser> {
  const chosen = await findBrowser({ chromium: (process.env.MASTRA_BROWSER_CHROMIUM as ChromiumChoice | undefined) ?? 'auto' });
  // Offline but for this machine: Studio's page calls its server as localhost whatever host it listens on.
  const args = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'];
  const launch = () => chromium.launch({ executablePath: chosen.executablePath, headless: true, args });
  try {
    return await launch();
  } catch (error) {
    // A slim machine without the npm-shipped Chromium's libraries: give it the ones it carries, as the toolset does.
    if (chosen.source !== 'bundled') throw error;
    await provideBundledLibraries();
    return launch();
  }
}

describe.skipIf(skipReason !== undefined)('Mastra Studio live view of the playground agent', () => {
  let server: ChildProcess;
  let output = '';
  let studioUrl: string;
  let siteUrl: string;
  let browser: Browser;
  let studio: Page;

  beforeAll(async () => {
    const [port, sitePort] = [await freePort(), await freePort()];
    studioUrl = `http://localhost:${port}`;
    siteUrl = `http://127.0.0.1:${sitePort}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      PLAYGROUND_SITE_PORT: String(sitePort),
      PLAYGROUND_BROWSER_ARGS: JSON.stringify(OFFLINE_ARGS),
      MASTRA_TELEMETRY_DISABLED: '1',
    };
    // No key, no configured model: the playground's demo model answers.
    delete env.OPENAI_API_KEY;
    delete env.PLAYGROUND_MODEL;
    // Its own process group, so that mastra dev, the server it starts and that server's Chromium end together.
    server = spawn(process.execPath, [MASTRA_CLI, 'dev'], { cwd: PLAYGROUND, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (chunk) => (output += chunk));
    server.stderr!.on('data', (chunk) => (output += chunk));
    for (;;) {
      if (server.exitCode !== null) throw new Error(`mastra dev exited (${server.exitCode}):\n${output}`);
      if (await fetch(`http://127.0.0.1:${port}/api/agents`).then((r) => r.ok, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    browser = await launchChromium();
    studio = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await studio.addInitScript(watchLiveFrames);
    await studio.goto(`${studioUrl}/agents/web-agent`);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (server?.pid && server.exitCode === null) {
      const pids = [server.pid, ...browserPidsUnder(server.pid)];
      process.kill(-server.pid, 'SIGTERM');
      const left = await waitForExit(pids);
      if (left.length) process.kill(-server.pid, 'SIGKILL');
      expect(left, `processes left after SIGTERM:\n${output}`).toEqual([]);
    }
  }, 60_000);

  // What Studio showed when a step failed, for whoever reads the CI output.
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail' || !studio) return;
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await studio.screenshot({ path: SCREENSHOT.replace('.png', `-failed-${task.name.split(' ')[0]}.png`) }).catch(() => {});
  });

  const answers = () => studio.getByText('Done. I opened the demo site');

  async function send(message: string): Promise<void> {
    await studio.getByPlaceholder('Enter your message...').fill(message);
    await studio.getByRole('button', { name: 'Send', exact: true }).click();
  }

  it('shows the page the agent ends on in the browser panel, with real pixels', async () => {
    await send('Show me what you can do');
    await answers().first().waitFor({ timeout: 120_000 });
    // The panel opens to the full live view; its image shows the demo site's thank-you page.
    await studio.getByRole('button', { name: /Web agent's browser/ }).click();
    const view = studio.locator('img[alt="Browser screencast"]');
    await expect.poll(() => view.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 60_000 }).toBeGreaterThan(0);
    const { background, colours } = await view.evaluate((img: HTMLImageElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const distinct = new Set<number>();
      for (let i = 0; i < pixels.length; i += 4) distinct.add(((pixels[i]! >> 4) << 8) | ((pixels[i + 1]! >> 4) << 4) | (pixels[i + 2]! >> 4));
      const at = (4 * (Math.floor(canvas.height * 0.6) * canvas.width + Math.floor(canvas.width * 0.97))) as number;
      return { background: [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!], colours: distinct.size };
    });
    expect(pageOf(background)).toBe('thanks');
    expect(colours, 'a page with a header, text and a link, not a blank frame').toBeGreaterThan(8);
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await studio.screenshot({ path: SCREENSHOT });
  }, 240_000);

  it('follows the agent from page to page on its next run', async () => {
    const before = ((await studio.evaluate(() => (window as any).liveFrames.length)) as number) - 1;
    await send('Once more, please');
    await expect.poll(() => answers().count(), { timeout: 120_000 }).toBe(2);
    // The view showed the thank-you page, then the form the agent filled in, and ends on the thank-you page again.
    // The frames of the end may come in a moment after the answer.
    const followed = async () => {
      const pages = await pagesShown(studio, before);
      return pages[0] === 'thanks' && pages.includes('contact') && pages.at(-1) === 'thanks' ? 'followed' : pages.join(' → ');
    };
    await expect.poll(followed, { timeout: 30_000 }).toBe('followed');
  }, 240_000);

  it('passes a click on the live view to the page', async () => {
    const thanksClicks = async () => {
      const { clicks } = await (await fetch(`${siteUrl}/clicks`)).json();
      return clicks.filter((click: { title: string }) => click.title.startsWith('Thank you')).length;
    };
    // The agent's own clicks were on the home page's link and the form's button; none on the thank-you page.
    expect(await thanksClicks()).toBe(0);
    await studio.locator('img[alt="Browser screencast"]').click();
    await expect.poll(thanksClicks, { timeout: 30_000 }).toBeGreaterThan(0);
  }, 120_000);
});
