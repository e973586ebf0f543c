import { describe, expect, it } from 'vitest';
import { call, refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

async function open(path: string): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url(path) });
  expect(result.ok).toBe(true);
  return result.snapshot;
}

/** Every ref at the start of a snapshot line (iframe contents are indented under their frame). */
function refsIn(snapshot: string): string[] {
  return [...snapshot.matchAll(/^\s*((?:f\d+)?e\d+) /gm)].map((m) => m[1]!);
}

describe('the refs the model reads', () => {
  it('stay as short after many navigations as on the first page, and five pages in a row never share one', async () => {
    const paths = ['/fixtures/page-a.html', '/fixtures/page-b.html', '/fixtures/page-a.html', '/fixtures/form.html', '/fixtures/page-b.html'];
    const pages: string[][] = [];
    for (let i = 0; i < 3 * paths.length; i++) {
      const refs = refsIn(await open(paths[i % paths.length]!));
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) {
        // Playwright's own refs carry a frame prefix from the second page on (`f4e3`): two tokens more a ref.
        expect(ref).toMatch(/^e\d+$/);
        // Numbers are reused once a page is five pages back: fifteen pages of a few controls stay under 100.
        expect(Number(ref.slice(1))).toBeLessThan(100);
        for (const earlier of pages.slice(-4)) expect(earlier, `${ref} on page ${i + 1}`).not.toContain(ref);
      }
      pages.push(refs);
    }
    // The last page's Continue is the element its ref names, and the public locator finds it.
    const b = await call(env.browser, 'browser_snapshot', {});
    const locator = await env.browser.locator(refOf(b.snapshot, 'button', 'Continue'));
    expect(await locator!.evaluate((el) => el.outerHTML)).toContain('b-continue');
  });

  it('a ref sent beside a click that leaves the page is refused, never acted on the new page', async () => {
    const leaving = await open('/fixtures/leave-page.html');
    const go = refOf(leaving, 'link', 'Go to page B');
    const continueHere = refOf(leaving, 'button', 'Continue');
    // Two calls of one model step, as Mastra runs them: both refs were read on the page being left.
    const [went, clicked] = await Promise.all([call(env.browser, 'browser_click', { ref: go }), call(env.browser, 'browser_click', { ref: continueHere })]);
    expect(went.ok).toBe(true);
    expect(went.snapshot).toContain('# Page B');
    // Page B has a Continue button in the same place: a ref numbered afresh per page would have clicked it.
    expect(refOf(went.snapshot, 'button', 'Continue')).not.toBe(continueHere);
    expect(clicked.ok).toBe(false);
    expect(clicked.error.code).toBe('stale_ref');
    expect(clicked.error.message).toContain('leave-page.html');
    await new Promise((r) => setTimeout(r, 200));
    expect(env.server.events).not.toContain('clicked=b-continue');
  });

  it('a ref from two pages back is refused with the page it belonged to', async () => {
    const a = await open('/fixtures/page-a.html');
    const continueOnA = refOf(a, 'button', 'Continue');
    await open('/fixtures/form.html');
    await open('/fixtures/page-b.html');
    const result = await call(env.browser, 'browser_click', { ref: continueOnA });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('stale_ref');
    expect(result.error.message).toContain('page-a.html');
    await new Promise((r) => setTimeout(r, 200));
    expect(env.server.events).not.toContain('clicked=b-continue');
  });

  it('a bare number names the element of the page shown', async () => {
    const b = await open('/fixtures/page-b.html');
    const number = refOf(b, 'button', 'Continue').slice(1);
    const result = await call(env.browser, 'browser_click', { ref: number });
    expect(result.ok).toBe(true);
    expect(result.clicked).toContain('button "Continue"');
  });

  it('controls inside a frame keep the frame’s refs after navigating, and act in the frame', async () => {
    await open('/fixtures/page-a.html');
    const page = await open('/fixtures/iframe.html');
    const card = refOf(page, 'textbox', 'Card number');
    expect(card).toMatch(/^f\d+e\d+$/);
    expect((await call(env.browser, 'browser_type', { ref: card, text: '4242' })).ok).toBe(true);
    const paid = await call(env.browser, 'browser_click', { ref: refOf(page, 'button', 'Pay now') });
    expect(paid.ok).toBe(true);
    expect((await call(env.browser, 'browser_snapshot', {})).snapshot).toContain('Paid with 4242');
  });
});
