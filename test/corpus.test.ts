import { describe, expect, it } from 'vitest';
import { countTokens } from '../src/index.js';
import { existsSync } from 'node:fs';
import { CORPUS_DIR } from './helpers/server.js';
import { call, createTestToolset, useServerAndBrowser } from './helpers/toolset.js';

// Real saved pages from ../shared/corpus/pages, served locally; every other host is unreachable.
const PAGES = ['wikipedia.html', 'nytimes-1.html', 'guardian-1.html'];

const env = useServerAndBrowser({ navigationTimeout: 15_000 });

/** Links and buttons a person could see in the first screen, counted from the DOM. */
async function visibleControlsInViewport(): Promise<string[]> {
  const page = await env.browser.page();
  return page.evaluate(() => {
    const names: string[] = [];
    for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea')) {
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2 || r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
      const hit = document.elementFromPoint(Math.min(innerWidth - 1, Math.max(0, r.left + r.width / 2)), Math.min(innerHeight - 1, Math.max(0, r.top + r.height / 2)));
      if (!hit || !(el === hit || el.contains(hit) || hit.contains(el))) continue;
      names.push((el.textContent ?? '').trim().slice(0, 30));
    }
    return names;
  });
}

// The corpus lives beside the repository (../shared); a bare clone skips these tests and says why.
if (!existsSync(CORPUS_DIR)) console.warn(`corpus not found at ${CORPUS_DIR}: corpus snapshot tests skipped`);

describe.skipIf(!existsSync(CORPUS_DIR)).each(PAGES)('snapshot of corpus page %s', (file) => {
  it('has refs, respects the budget and lists the controls on screen', async () => {
    const nav = await call(env.browser, 'browser_navigate', { url: env.server.url(`/corpus/${file}`), waitUntil: 'domcontentloaded' });
    expect(nav.ok, JSON.stringify(nav.error)).toBe(true);

    const viewport = await call(env.browser, 'browser_snapshot', {});
    expect(viewport.ok).toBe(true);
    expect(viewport.tokens).toBeLessThanOrEqual(2_000);
    expect(countTokens(viewport.snapshot)).toBe(viewport.tokens);
    expect(viewport.refs).toBeGreaterThan(0);
    expect(viewport.snapshot).toMatch(/^\s*(?:f\d+)?e\d+ (link|button|textbox|searchbox|combobox) /m);

    const visible = await visibleControlsInViewport();
    // Every on-screen control should have a line; allow a small slack for controls whose only label is an image.
    expect(viewport.refs).toBeGreaterThanOrEqual(Math.floor(visible.length * 0.9));

    for (const maxTokens of [300, 1_000]) {
      const budgeted = await call(env.browser, 'browser_snapshot', { scope: 'page', maxTokens });
      expect(budgeted.ok).toBe(true);
      expect(budgeted.tokens).toBeLessThanOrEqual(maxTokens);
      expect(budgeted.snapshot).toMatch(/\[cut to fit \d+ tokens: .+\]/);
    }
  });
});
