/**
 * A page-scope snapshot of a very large page (50,000 controls) is cut to its budget by capturing only as much
 * of the page as the budget can show (src/snapshot/portion.ts) and counting the rest in the page: the model
 * reads a text within its budget, with a tally of what was left out that adds up, and reaches anything far
 * down with `find`, then acts on it.
 */
import { describe, expect, it } from 'vitest';
import { call, useServerAndBrowser } from './helpers/toolset.js';

// A page this large takes seconds to load on a busy machine: room enough that only a hang fails.
const env = useServerAndBrowser({ navigationTimeout: 60_000, timeout: 20_000 });

const N = 50_000;

function refBy(snapshot: string, pattern: string): string {
  const match = new RegExp(`^\\s*((?:f\\d+)?e\\d+) ${pattern}`, 'm').exec(snapshot);
  if (!match) throw new Error(`No line matching /${pattern}/ in:\n${snapshot.slice(0, 3_000)}`);
  return match[1]!;
}

describe('a page of 50,000 controls', () => {
  it('lists the page from the top within its budget, counts the rest, and finds and acts on the last items', { timeout: 240_000 }, async () => {
    const opened = await call(env.browser, 'browser_navigate', { url: env.server.url(`/fixtures/generated.html?n=${N}`) });
    expect(opened.ok, JSON.stringify(opened.error)).toBe(true);

    const page = await call(env.browser, 'browser_snapshot', { scope: 'page' });
    expect(page.ok, JSON.stringify(page.error)).toBe(true);
    const text = page.snapshot as string;
    expect(page.tokens).toBeLessThanOrEqual(4_000);
    expect(text).toContain('link "Item 0"');
    // The note says what was left out and how to reach it.
    const note = /^\[cut to fit 4000 tokens: (.*)\]$/m.exec(text)?.[1] ?? '';
    expect(note, text.slice(-1_000)).toMatch(/read from the top to [\d,]+px, the rest counted/);
    expect(note).toMatch(/find/);
    // Every control is listed or counted, none twice: 12,500 of each kind.
    const counted = (kind: string) => Number(new RegExp(`([\\d,]+) ${kind}`).exec(note)?.[1]?.replace(/,/g, '') ?? 0);
    const listed = (role: string) => text.match(new RegExp(`^\\s*(?:(?:f\\d+)?e\\d+(?:, )?)+ ${role} `, 'gm'))?.length ?? 0;
    expect(listed('link')).toBeGreaterThan(50);
    expect(counted('links') + listed('link'), note).toBe(N / 4);
    expect(counted('buttons') + listed('button'), note).toBe(N / 4);
    expect(counted('textboxes') + listed('textbox'), note).toBe(N / 4);
    expect(counted('checkboxes') + listed('checkbox'), note).toBe(N / 4);

    // The last items are far past what the budget shows; find reaches them, with refs that act.
    const found = await call(env.browser, 'browser_snapshot', { find: `Buy ${N - 3}` });
    expect(found.ok, JSON.stringify(found.error)).toBe(true);
    expect(found.snapshot).toMatch(/find "Buy 49997": 1 match/);
    const clicked = await call(env.browser, 'browser_click', { ref: refBy(found.snapshot, `button "Buy ${N - 3}"`) });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await (await env.browser.page()).textContent('#out')).toBe(`Bought ${N - 3}`);

    // A text found in many places lists the first matches and counts the others.
    const many = await call(env.browser, 'browser_snapshot', { find: 'Gift' });
    expect(many.ok, JSON.stringify(many.error)).toBe(true);
    expect(many.tokens).toBeLessThanOrEqual(2_000);
    expect(many.snapshot).toMatch(/checkbox "Gift 3"/);
    expect(many.snapshot).toMatch(/more on the page not listed/);

    // A ref snapshot of an element far down shows that element.
    const link = refBy((await call(env.browser, 'browser_snapshot', { find: `Item ${N - 4}` })).snapshot, `link "Item ${N - 4}"`);
    const part = await call(env.browser, 'browser_snapshot', { ref: link });
    expect(part.ok, JSON.stringify(part.error)).toBe(true);
    expect(part.snapshot).toContain(`${link} link "Item ${N - 4}"`);
  });

  it('reads past a closed menu of thousands of links to what the page shows', { timeout: 120_000 }, async () => {
    const opened = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/generated.html?n=4000&hidden=10000') });
    expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
    const page = await call(env.browser, 'browser_snapshot', { scope: 'page' });
    expect(page.ok, JSON.stringify(page.error)).toBe(true);
    expect(page.tokens).toBeLessThanOrEqual(4_000);
    expect(page.snapshot).toContain('link "Item 0"');
    expect(page.snapshot).not.toContain('Department');
    const listed = (page.snapshot as string).match(/^\s*(?:f\d+)?e\d+ button "Buy \d+"/gm)?.length ?? 0;
    expect(listed).toBeGreaterThan(50);
  });

  it('finds and acts on a control drawn in a shadow root at the end of a large page', { timeout: 120_000 }, async () => {
    const opened = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/generated.html?n=10000&shadow=1') });
    expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
    const found = await call(env.browser, 'browser_snapshot', { find: 'pay in shadow' });
    expect(found.ok, JSON.stringify(found.error)).toBe(true);
    expect(found.snapshot).toMatch(/find "pay in shadow": 1 match/);
    const clicked = await call(env.browser, 'browser_click', { ref: refBy(found.snapshot, 'button "Pay in shadow"') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    const page = await env.browser.page();
    expect(await page.locator('#pay').textContent()).toBe('Paid');
  });
});
