/**
 * The default snapshot of a long page captures only the part around the screen (src/snapshot/region.ts): what
 * a user sees there is listed with working refs, what lies above and below is counted, and the page is left as
 * it was. A whole-page snapshot still lists everything, within its own budget.
 */
import { describe, expect, it } from 'vitest';
import { call, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

function refBy(snapshot: string, pattern: string): string {
  const match = new RegExp(`^\\s*((?:f\\d+)?e\\d+) ${pattern}`, 'm').exec(snapshot);
  if (!match) throw new Error(`No line matching /${pattern}/ in:\n${snapshot}`);
  return match[1]!;
}

async function open(): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/catalogue.html') });
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result.snapshot;
}

const out = async () => (await (await env.browser.page()).textContent('#out')) ?? '';

describe('a long page, one screen at a time', () => {
  it('lists the screen with working refs and counts the rest below', async () => {
    const snap = await open();
    expect(snap).toContain('link "Item 0"');
    expect(snap).not.toContain('Buy 2998');
    // 1,000 links, 1,001 buttons (with the chat button), 1,000 checkboxes: what is not listed is counted, none twice or lost.
    const below = /^below(?: [\d,]+px)?: (.*)$/m.exec(snap)?.[1] ?? '';
    const counted = (kind: string) => Number(new RegExp(`([\\d,]+) ${kind}`).exec(below)?.[1]?.replace(/,/g, '') ?? 0);
    const listed = (role: string) => snap.match(new RegExp(`^\\s*(?:f\\d+)?e\\d+ ${role} `, 'gm'))?.length ?? 0;
    expect(counted('links') + listed('link'), snap).toBe(1000);
    expect(counted('buttons') + listed('button'), snap).toBe(1001);
    expect(counted('checkboxes') + listed('checkbox')).toBe(1000);

    const clicked = await call(env.browser, 'browser_click', { ref: refBy(snap, 'button "Buy 1"') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await out()).toBe('Bought 1');
  });

  it('shows a fixed button whose markup comes last, and it works', async () => {
    const snap = await open();
    const clicked = await call(env.browser, 'browser_click', { ref: refBy(snap, 'button "Chat with us"') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await out()).toBe('Chat opened');
  });

  it('after scrolling, lists the new screen and counts what is above', async () => {
    await open();
    const scrolled = await call(env.browser, 'browser_scroll', { direction: 'down', amount: 20_000 });
    expect(scrolled.ok, JSON.stringify(scrolled.error)).toBe(true);
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot as string;
    expect(snap).toMatch(/^above(?: [\d,]+px)?: .*links/m);
    expect(snap).not.toContain('"Item 0"');
    const buy = /button "Buy (\d+)"/.exec(snap);
    expect(buy, snap).not.toBeNull();
    const clicked = await call(env.browser, 'browser_click', { ref: refBy(snap, `button "Buy ${buy![1]}"`) });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await out()).toBe(`Bought ${buy![1]}`);
  });

  it('leaves the page as it was: no element or id is left behind', async () => {
    await open();
    await call(env.browser, 'browser_snapshot', {});
    const page = await env.browser.page();
    const ids = await page.evaluate(() => [...document.querySelectorAll('[id]')].map((el) => el.id));
    expect(ids.filter((id) => !/^(groups|out|chat|group-\d+)$/.test(id))).toEqual([]);
    expect(await page.evaluate(() => document.querySelectorAll('[aria-owns]').length)).toBe(0);
  });

  it('the whole page lists every control within a larger budget, and says what its default budget cut', async () => {
    await open();
    const cut = await call(env.browser, 'browser_snapshot', { scope: 'page' });
    expect(cut.tokens).toBeLessThanOrEqual(4_000);
    expect(cut.snapshot).toMatch(/\[cut to fit 4000 tokens: /);
    const whole = await call(env.browser, 'browser_snapshot', { scope: 'page', maxTokens: 100_000 });
    expect(whole.snapshot).toContain('button "Buy 2998"');
    expect(whole.snapshot).not.toContain('cut to fit');
    // A ref from the whole-page listing still works after a viewport snapshot, which captured only the screen.
    const far = refBy(whole.snapshot, 'button "Buy 2998"');
    await call(env.browser, 'browser_snapshot', {});
    const clicked = await call(env.browser, 'browser_click', { ref: far });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await out()).toBe('Bought 2998');
  });

  it('reads a frame on the screen, counts one far below without reading it, and reads that one once scrolled to', async () => {
    const opened = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/frames.html') });
    expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
    const snap = opened.snapshot as string;
    expect(snap).toContain('button "Pay now"');
    expect(snap).not.toContain('Subscribe');
    expect(snap).toMatch(/^below [\d,]+px: .*1 frame\b/m);

    await call(env.browser, 'browser_scroll', { direction: 'down', amount: 5_000 });
    const below = (await call(env.browser, 'browser_snapshot', {})).snapshot as string;
    const clicked = await call(env.browser, 'browser_click', { ref: refBy(below, 'button "Subscribe"') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    const frame = (await env.browser.page()).frames().find((f) => f.url() === 'about:srcdoc')!;
    expect(await frame.textContent('button')).toBe('Subscribed');

    const whole = (await call(env.browser, 'browser_snapshot', { scope: 'page' })).snapshot as string;
    expect(whole).toContain('button "Pay now"');
    expect(whole).toContain('button "Subscribe');
  });
});
