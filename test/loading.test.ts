/**
 * Pages that behave like the real web: stuck third-party requests, slow servers, pollers, streamed and
 * never-answering documents, endless scripts. Navigate returns when the page is usable, says what is still
 * loading, and nothing leaves the session stuck.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMarkup } from '../src/loading/markup.js';
import { awaitedInFlight } from '../src/loading/quiet.js';
import { Traffic } from '../src/loading/traffic.js';
import { siteOf } from '../src/loading/sites.js';
import { recordStages, stopRecordingStages } from '../src/stages.js';
import type { BrowserToolset, BrowserToolsetConfig } from '../src/index.js';
import { call, createTestToolset, refOf, useServerAndBrowser } from './helpers/toolset.js';

// A generous navigation timeout: a toolset that waited for `load` would hit the test timeout, not pass.
const env = useServerAndBrowser({ navigationTimeout: 50_000 });

describe('navigate returns when the page is usable', () => {
  it('a page with an image that never loads is shown at once, with the stuck request named', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/stuck-image') });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('button "Buy"');
    expect(result.loading).toMatch(/^1 request \(127\.0\.0\.1:\d+\)$/);
    const click = await call(env.browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Buy') });
    expect(click.ok).toBe(true);
  });

  it('a script that never arrives blocks the parser: the page is built without it, and the result says so', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/stuck-script') });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('button "After the script"');
    expect(result.loading).toMatch(/^refused 1 request \(127\.0\.0\.1:\d+\) that did not answer in 3 s(; .+)?$/);
  });

  it.each(['opened', 'sent a form (it cannot be loaded again)'])(
    'a style sheet in the head that never answers holds back rendering: the page %s is made to render without it, and its button clicks',
    async (how) => {
      const url = env.server.url('/stuck-head-style');
      let result;
      if (how === 'opened') result = await call(env.browser, 'browser_navigate', { url });
      else {
        const form = await call(env.browser, 'browser_navigate', { url: env.server.url(`/form-post?to=${encodeURIComponent(url)}`) });
        result = await call(env.browser, 'browser_click', { ref: refOf(form.snapshot, 'button', 'Send') });
      }
      expect(result.ok, JSON.stringify(result.error)).toBe(true);
      expect(result.loading).toMatch(/^refused 1 request \(127\.0\.0\.1:\d+\) that did not answer in 3 s/);
      const click = await call(env.browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Buy') });
      expect(click.ok, JSON.stringify(click.error)).toBe(true);
      expect(click.changes).toContain('button "Bought"');
    },
  );

  it.each([
    ['before a script the parser must run', '/stuck-style-before-script', 'Ran', 'After the script'],
    ['linked again further down before another script', '/stuck-style-linked-twice', 'Second', 'After the copies'],
  ])('a style sheet that never answers, %s: the page goes on without it, loaded once, and its button clicks', async (_where, path, title, heading) => {
    const key = `once-${title}-${Date.now()}`;
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`${path}?key=${encodeURIComponent(key)}`) });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.title).toBe(title);
    expect(result.snapshot).toMatch(new RegExp(`^# ${heading}$`, 'm'));
    expect(result.loading).toMatch(/^refused 1 request \(127\.0\.0\.1:\d+\) that did not answer in 3 s(; .+)?$/);
    const click = await call(env.browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Buy') });
    expect(click.ok, JSON.stringify(click.error)).toBe(true);
    expect(click.changes).toContain('button "Bought"');
    // Taken out of the page rather than refused by a second load: the server sent the page once.
    expect(env.server.events.filter((event) => event === `loaded=${key}`)).toHaveLength(1);
  });

  it.each([2, 3])('%i scripts that never answer, each reached only once the one before is refused: the page is built without them', async (n) => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/stuck-scripts-in-turn?n=${n}`) });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.snapshot).toMatch(/^# After the scripts$/m);
    expect(result.loading).toMatch(new RegExp(`^refused ${n} requests \\(127\\.0\\.0\\.1:\\d+\\) that did not answer in 3 s$`));
  });

  it('a script that never answers, asked for with a new query on every load (a cache-busting tag): the page is built without it after one more load, not one per form', async () => {
    const key = `busted-${Date.now()}`;
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/stuck-cache-busted-script?key=${key}`) });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.snapshot).toMatch(/^# After the script$/m);
    // What else is still arriving when navigate answers (`; 1 request (…)`) depends on the machine's pace.
    expect(result.loading).toMatch(/^refused 1 request \(127\.0\.0\.1:\d+\) that did not answer in 3 s(; .+)?$/);
    // The first load waits out the cap; the second asks for a new form, refused at once with every form of it; the third is built.
    expect(env.server.events.filter((event) => event === `loaded=${key}`)).toHaveLength(3);
  });

  it('a script in the body that never answers, while the parser is still busy with a slow head: the page is loaded without it once it is overdue, not once the parser reaches it', async () => {
    // Four head scripts of 2 s in turn, each asked for once the one before has run: a load spends 8 s on them.
    // The stuck script is asked for early (the browser looks ahead in the markup) and is overdue 3 s later, when
    // the first load has asked for two or three of the four; had it been refused only when the parser reached it,
    // the first load would have asked for all four.
    const key = `head-${Date.now()}`;
    const browser = createTestToolset({ navigationTimeout: 30_000 });
    try {
      const result = await call(browser, 'browser_navigate', { url: env.server.url(`/slow-head-stuck-body?n=4&ms=2000&key=${key}`) });
      expect(result.ok, JSON.stringify(result.error)).toBe(true);
      expect(result.snapshot).toMatch(/^# The body$/m);
      expect(result.loading).toMatch(/^refused 1 request \(127\.0\.0\.1:\d+\) that did not answer in 3 s(; .+)?$/);
      const mine = env.server.events.filter((event) => event.endsWith(`=${key}`));
      const firstLoad = mine.slice(1, mine.indexOf(`page=${key}`, 1));
      expect(mine.filter((event) => event === `page=${key}`)).toHaveLength(2);
      expect(firstLoad.length).toBeLessThan(4);
      const click = await call(browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Buy') });
      expect(click.ok, JSON.stringify(click.error)).toBe(true);
    } finally {
      await browser.close();
    }
  });

  it('a script inserted by script that never answers, while the parser is busy with a slow head: the parser does not wait on it, so the page is not loaded again; it is named as loading', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/slow-head-inserted-script?n=14') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.snapshot).toMatch(/^# The body$/m);
    expect(result.loading).toMatch(/^1 request \(127\.0\.0\.1:\d+\)$/);
  });

  it('a script the parser waits on, held back by the browser behind six slow images to its server: its 3 s count from when it went out, so it is waited for and runs', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/behind-slow-images') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.snapshot).toContain('button "Added late"');
    expect(result.loading ?? '').not.toMatch(/refused/);
  });

  it('a script the parser waits on, held back behind six images to its server that never answer: the images are refused, not the script, which runs', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/behind-stuck-images') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.snapshot).toContain('button "Added late"');
    // Refused: the images that had gone out. The browser may have held some back too; those are asked for again
    // by the next load, which can return before the browser has sent them (it sends images late while it parses):
    // then they are still loading, or not yet asked for. Six at most, and the script ran (a refused script could not).
    const [, refused, , loading] = /^refused ([1-6]) requests? \(127\.0\.0\.1:\d+\) that did not answer in 3 s(; ([1-5]) requests? \(127\.0\.0\.1:\d+\))?$/.exec(result.loading) ?? [];
    expect(Number(refused), result.loading).toBeGreaterThanOrEqual(1);
    expect(Number(refused) + Number(loading ?? 0), result.loading).toBeLessThanOrEqual(6);
  });

  it("style sheets that never answer and hold all of their server's connections: only they are refused, and the script waiting behind them runs", async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/stuck-sheets-full-server') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.title).toBe('Ran');
    expect(result.loading, result.loading).toMatch(/^refused 6 requests \(127\.0\.0\.1:\d+\) that did not answer in 3 s(; .+)?$/);
    const click = await call(env.browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Buy') });
    expect(click.ok, JSON.stringify(click.error)).toBe(true);
    expect(click.changes).toContain('button "Bought"');
  });

  it('style sheets that never answer, the last four sent a moment after the first two: all six are refused by the one load after the cap, none asked for again', async () => {
    // Had the last four been left to the next load, it would have asked for them anew and waited a whole cap more
    // for them: the server would see them twice.
    const key = `two-parts-${Date.now()}`;
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/stuck-sheets-in-two-parts?key=${key}`) });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.title).toBe('Ran');
    expect(result.loading, result.loading).toMatch(/^refused 6 requests \(127\.0\.0\.1:\d+\) that did not answer in [\d.]+ s$/);
    const mine = env.server.events.filter((event) => event.endsWith(`=${key}`));
    expect(mine.filter((event) => event === `page=${key}`)).toHaveLength(2);
    for (const n of [1, 2, 3, 4, 5, 6]) expect(mine.filter((event) => event === `asked=sheet=${n}&key=${key}`), `sheet ${n}`).toHaveLength(1);
  });

  it('two scripts that never answer, served by a combo loader from the path of the page\'s own script: only they are refused, and the page\'s script runs', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/stuck-combo-scripts') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.snapshot).toContain('button "Added by the app"');
    expect(result.loading, result.loading).toMatch(/^refused 2 requests \(127\.0\.0\.1:\d+\) that did not answer in 3 s(; .+)?$/);
  });

  it.each([
    ['whose head style sheet never answers is made to render without it', '/stuck-head-style', undefined],
    ['that a sheet pulled in by @import keeps from showing waits for the frame to be loaded again without it', '/stuck-import-style', /loaded again without the sheet/],
  ])('a click asked at once in a frame of another site %s, and clicks its button there', async (_what, path, notice) => {
    // The default action time (10 s), which outlasts the settle cap (3 s) and a second load of the frame.
    const browser = createTestToolset({ timeout: 10_000 });
    try {
      const inner = env.server.otherSite(path);
      const result = await call(browser, 'browser_navigate', { url: env.server.url(`/frame?to=${encodeURIComponent(inner)}`) });
      expect(result.ok, JSON.stringify(result.error)).toBe(true);
      // Asked for at once, while the frame still paints nothing.
      const click = await call(browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Buy') });
      expect(click.ok, JSON.stringify(click.error)).toBe(true);
      expect(click.changes).toContain('button "Bought"');
      if (notice) expect(click.notices?.join(' ')).toMatch(notice);
    } finally {
      await browser.close();
    }
  });

  it.each(['of another site', 'of the same site'])(
    'a frame %s whose script never answers is named as shown in part, then loaded again without it: what its markup has after the script shows, and clicks',
    async (which) => {
      const inner = which === 'of another site' ? env.server.otherSite('/stuck-script') : '/stuck-script';
      const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?to=${encodeURIComponent(inner)}`) });
      expect(result.ok, JSON.stringify(result.error)).toBe(true);
      expect(result.snapshot).toMatch(/iframe:\n\s+# Before the script/);
      // The model is told that the frame shows only its top, and that more is to come.
      expect(result.snapshot).toMatch(/^still loading, shown in part so far: frame "inner" \((tags\.other-site\.test|127\.0\.0\.1):\d+\)$/m);
      // Once the script has gone the settle cap (3 s) without an answer, the frame is loaded again without it.
      let shown = '';
      await expect.poll(async () => (shown = (await call(env.browser, 'browser_snapshot', {})).snapshot), { timeout: 15_000 }).toContain('button "After the script"');
      // Its DOMContentLoaded is heard a moment after its last element is there: the line goes once it is.
      await expect.poll(async () => (shown = (await call(env.browser, 'browser_snapshot', {})).snapshot), { timeout: 5_000 }).not.toMatch(/still loading/);
      const click = await call(env.browser, 'browser_click', { ref: refOf(shown, 'button', 'After the script') });
      expect(click.ok, JSON.stringify(click.error)).toBe(true);
    },
  );

  it('a frame whose markup is on its element (srcdoc), with a script that never answers, is loaded again from that markup without it: what follows the script shows, and clicks', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/srcdoc-stuck-script') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.snapshot).toMatch(/iframe:\n\s+# Before the script/);
    let shown = '';
    await expect.poll(async () => (shown = (await call(env.browser, 'browser_snapshot', {})).snapshot), { timeout: 15_000 }).toContain('button "After the script"');
    const click = await call(env.browser, 'browser_click', { ref: refOf(shown, 'button', 'After the script') });
    expect(click.ok, JSON.stringify(click.error)).toBe(true);
  });

  it('a frame whose script never answers and is asked for with a new query on every load is loaded again without any form of it: what follows it shows', async () => {
    const inner = env.server.otherSite('/stuck-cache-busted-script');
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?to=${encodeURIComponent(inner)}`) });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.snapshot).toMatch(/iframe:\n\s+# Before the script/);
    let shown = '';
    await expect.poll(async () => (shown = (await call(env.browser, 'browser_snapshot', {})).snapshot), { timeout: 15_000 }).toContain('button "Buy"');
    expect(shown).toMatch(/# After the script/);
  });

  it('a frame of another site whose style pulls in a sheet by @import that never answers is loaded again without it, and its button clicks', async () => {
    const inner = env.server.otherSite('/stuck-import-style');
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?to=${encodeURIComponent(inner)}`) });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    const page = await env.browser.page();
    const frame = page.frames().find((f) => f.url() === inner)!;
    const paints = () => Promise.race([frame.evaluate(() => new Promise<string>((done) => requestAnimationFrame(() => done('paints')))), new Promise<string>((done) => setTimeout(() => done('held'), 500))]).catch(() => 'reloading');
    expect(await paints()).toBe('held');
    // Once the sheet has gone the settle cap (3 s) without an answer, the frame is loaded again without it, and paints.
    await expect.poll(paints, { timeout: 15_000 }).toBe('paints');
    const shown = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const click = await call(env.browser, 'browser_click', { ref: refOf(shown, 'button', 'Buy') });
    expect(click.ok, JSON.stringify(click.error)).toBe(true);
    expect(click.changes).toContain('button "Bought"');
  });

  it('a frame a style sheet keeps from showing, left so because its field holds a value loading it again would lose: a click there says so instead of waiting out its time', async () => {
    const browser = createTestToolset({ timeout: 10_000 });
    try {
      const inner = env.server.otherSite('/prefilled-stuck-import');
      const result = await call(browser, 'browser_navigate', { url: env.server.url(`/frame?to=${encodeURIComponent(inner)}`) });
      expect(result.ok, JSON.stringify(result.error)).toBe(true);
      const click = await call(browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Buy') });
      expect(click.ok).toBe(false);
      expect(click.error.code).toBe('element_not_visible');
      expect(click.error.message).toMatch(/shows nothing: a style sheet it needs never answered, and the frame is left so because what was typed or chosen in it would be lost/);
      expect(click.error.hint).toContain(inner);
      // The value is still there.
      expect((await call(browser, 'browser_snapshot', {})).snapshot).toMatch(/textbox "Name" value="Ada"/);
    } finally {
      await browser.close();
    }
  });

  it('a button in a frame far down whose own late style sheet is still on its way (it holds back nothing) clicks at once', async () => {
    const browser = createTestToolset({ timeout: 10_000 });
    try {
      const inner = env.server.otherSite('/late-sheet-widget');
      await call(browser, 'browser_navigate', { url: env.server.url(`/frame?below&to=${encodeURIComponent(inner)}`) });
      let shown = '';
      await expect.poll(async () => (shown = (await call(browser, 'browser_snapshot', { scope: 'page' })).snapshot), { timeout: 10_000 }).toContain('button "Buy"');
      // Out of view, Chromium runs no animation frame in it: that is not a frame held by its sheet.
      const click = await call(browser, 'browser_click', { ref: refOf(shown, 'button', 'Buy') });
      expect(click.ok, JSON.stringify(click.error)).toBe(true);
      expect(click.changes).toContain('button "Bought"');
      expect(click.notices).toBeUndefined();
    } finally {
      await browser.close();
    }
  });

  it('a frame that moved on to its next page by itself: a ref from its first page is not acted on, though the new page has an element of that ref', async () => {
    // The frame moves on well after the navigate has returned (a navigate slowed by a busy machine included).
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?to=${encodeURIComponent('/moves-on?ms=6000')}`) });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    const confirm = refOf(result.snapshot, 'button', 'Confirm');
    const page = await env.browser.page();
    await expect.poll(() => page.frames().some((frame) => frame.url().endsWith('/step-two')), { timeout: 20_000 }).toBe(true);
    const click = await call(env.browser, 'browser_click', { ref: confirm });
    expect(click.ok).toBe(false);
    expect(click.error.code).toBe('stale_ref');
    expect(click.error.message).toMatch(new RegExp(`${confirm} \\(button "Confirm"\\) is no longer on the page: the frame it was in has loaded a new page, where ${confirm} is link "Cancel the order"`));
    expect(click.error.snapshot).toContain('link "Cancel the order"');
    // Nothing was clicked: the frame still shows its second step.
    expect(page.frames().some((frame) => frame.url().endsWith('/step-two'))).toBe(true);
  });

  it('a frame held by a script that never answers is not loaded again once something was typed in it: the text stays', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?to=${encodeURIComponent(env.server.otherSite('/field-then-stuck-script'))}`) });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    // On a busy machine navigate can answer before the frame's field is parsed ("still loading"): read again, as a model would.
    let shown: string = result.snapshot;
    for (let i = 0; i < 20 && !/textbox "Name"/.test(shown); i++) {
      await call(env.browser, 'browser_wait', { seconds: 0.25 });
      shown = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    }
    const typed = await call(env.browser, 'browser_type', { ref: refOf(shown, 'textbox', 'Name'), text: 'Ada Lovelace' });
    expect(typed.ok, JSON.stringify(typed.error)).toBe(true);
    await new Promise((done) => setTimeout(done, 4_500)); // past the settle cap
    const later = await call(env.browser, 'browser_snapshot', {});
    expect(later.snapshot).toMatch(/textbox "Name" value="Ada Lovelace"/);
    expect(later.snapshot).not.toContain('After the script');
  });

  it('a parsed frame whose async script never answers is not loaded again', async () => {
    const page = await env.browser.page();
    const loads: string[] = [];
    const count = (frame: import('playwright-core').Frame) => frame !== page.mainFrame() && loads.push(frame.url());
    page.on('framenavigated', count);
    try {
      const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?to=${encodeURIComponent(env.server.otherSite('/stuck-tracker'))}`) });
      expect(result.ok, JSON.stringify(result.error)).toBe(true);
      expect(result.snapshot).toContain('button "Subscribe"');
      await new Promise((done) => setTimeout(done, 4_000)); // past the settle cap
      expect(loads).toEqual([env.server.otherSite('/stuck-tracker')]);
    } finally {
      page.off('framenavigated', count);
    }
  });

  it('a script the parser waits on from a slow server (its answer after 1.2 s) is waited for, not refused: what it adds is shown', async () => {
    const script = env.server.url('/slow-asset.js?ms=1200&what=adds');
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/loads-script?how=blocking&src=${encodeURIComponent(script)}`) });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('button "Added late"');
    expect(result.loading).toBeUndefined();
  });

  it('a frame whose document never arrives does not hold up the page or its snapshot, which names it as still loading', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/stuck-frame') });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('button "Read on"');
    expect(result.snapshot).toMatch(/^still loading, not shown yet: frame "ad" \(127\.0\.0\.1:\d+\)$/m);
    expect(result.loading).toMatch(/^1 request \(127\.0\.0\.1:\d+\)$/);
    const again = await call(env.browser, 'browser_snapshot', {});
    expect(again.ok).toBe(true);
    expect(again.snapshot).toBe(result.snapshot);
    // Left out of the capture, not changed: the frame has its own style back.
    const page = await env.browser.page();
    expect(await page.locator('iframe').getAttribute('style')).toBe('border: 1px solid gray');
  });

  it('a frame of no width whose document never arrives is not named: it shows nothing', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/stuck-frame?tracker') });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toMatch(/^still loading, not shown yet: frame "ad" \(127\.0\.0\.1:\d+\)$/m);
    expect(result.snapshot).not.toContain('frame "tracker"');
    expect(result.loading).toMatch(/^2 requests \(127\.0\.0\.1:\d+\)$/);
  });

  it('a frame in view whose server answers after seconds is not emptied: a later snapshot shows it', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?to=${encodeURIComponent('/slow-first-byte?ms=2500')}`) });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('button "Read on"');
    await expect.poll(async () => (await call(env.browser, 'browser_snapshot', {})).snapshot, { timeout: 15_000 }).toMatch(/iframe:\n\s+# Finally/);
  });

  it('a server that answers late is waited for', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/slow-first-byte?ms=2500') });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('# Finally');
    expect(result.loading).toBeUndefined();
  });

  it('a page that polls a URL that never answers is shown, and says it is still loading', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/polls-forever') });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('button "Refresh"');
    expect(result.loading).toMatch(/requests? \(127\.0\.0\.1/);
  });

  it('a page whose polls hang holds every connection to its server; a link or a navigate to that server still works', async () => {
    const browser = createTestToolset({ navigationTimeout: 5_000 });
    // While the model reads, the page keeps polling: more hanging requests than Chromium opens connections.
    const whileTheModelReads = () => new Promise((resolve) => setTimeout(resolve, 2_000));
    try {
      const poller = await call(browser, 'browser_navigate', { url: env.server.url('/polls-forever') });
      await whileTheModelReads();
      const click = await call(browser, 'browser_click', { ref: refOf(poller.snapshot, 'link', 'Archive') });
      expect(click.ok, JSON.stringify(click).slice(0, 600)).toBe(true);
      expect(click.url).toBe(env.server.url('/fixtures/page-a.html'));

      await call(browser, 'browser_navigate', { url: env.server.url('/polls-forever') });
      await whileTheModelReads();
      const next = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-b.html') });
      expect(next.ok, JSON.stringify(next).slice(0, 600)).toBe(true);
      expect(next.title).toBe('Page B');
    } finally {
      await browser.close();
    }
  });

  it('a document streamed over seconds is shown whole', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/streamed?ms=2000') });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('Part 4');
    expect(result.snapshot).toContain('button "Done reading"');
  });

  for (const asks of ['once', 'twice, the second request when the first is answered'] as const) {
    it(`an app whose data comes after the page has loaded (asked ${asks}) is shown with the data, not its "Loading…"`, async () => {
      const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/app-shell${asks === 'once' ? '' : '?then'}`) });
      expect(result.ok).toBe(true);
      expect(result.snapshot).toContain('Order 1042: 3 lamps, shipped');
      expect(result.snapshot).not.toContain('Loading');
    });
  }

  it('a page that asks the same URL again and again is polling: it is not waited for until the cap', async () => {
    const stages = recordStages();
    try {
      const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fast-poll') });
      expect(result.ok).toBe(true);
      expect(result.snapshot).toContain('# Ticker');
    } finally {
      stopRecordingStages();
    }
    expect([...stages.keys()]).toContain('load: load or quiet');
    expect([...stages.keys()]).not.toContain('load: cap reached');
  });

  it('a click that makes the page ask for data without leaving it shows what the answer brought', async () => {
    const page = await call(env.browser, 'browser_navigate', { url: env.server.url('/search-app') });
    const click = await call(env.browser, 'browser_click', { ref: refOf(page.snapshot, 'button', 'Search') });
    expect(click.ok).toBe(true);
    expect(click.changes).toContain('Order 1042: 3 lamps, shipped');
  });

  it('a click that leads to a page with a stuck image returns that page', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
    const page = await env.browser.page();
    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '/stuck-image';
      link.textContent = 'To the shop';
      document.body.append(link);
    });
    const snap = await call(env.browser, 'browser_snapshot', {});
    const click = await call(env.browser, 'browser_click', { ref: refOf(snap.snapshot, 'link', 'To the shop') });
    expect(click.ok).toBe(true);
    expect(click.navigated).toBe(true);
    expect(click.snapshot).toContain('button "Buy"');
    expect(click.loading).toMatch(/1 request/);
  });
});

describe('the snapshot is taken while the page settles', () => {
  // A long quiet window (a tenth of 5 s once every request is answered) so that the snapshot is always begun
  // inside it, however slowly a loaded machine parses the page; no cap before the window of 5 s can close.
  let browser: ReturnType<typeof createTestToolset>;
  beforeAll(() => {
    browser = createTestToolset({ settle: { quietMs: 5_000, maxMs: 10_000 } });
  });
  afterAll(async () => {
    await browser.close();
  });

  /** Navigates with the stages recorded: whether the snapshot taken during the quiet window was kept. */
  async function navigateRecorded(url: string) {
    const stages = recordStages();
    try {
      const result = await call(browser, 'browser_navigate', { url });
      return { result, kept: stages.has('load: early snapshot kept'), tried: [...stages.keys()].some((name) => name.startsWith('load: early snapshot')), stages: [...stages.keys()].join(', ') };
    } finally {
      stopRecordingStages();
    }
  }

  it('a still page: the snapshot taken while it settled is returned, and reads the same as a new one', async () => {
    // Not on the tab's first document: in CI that first navigation of a new tab dropped its early snapshot (the
    // retry, a second navigation, kept it). Only a saving is lost there; what is returned is still right.
    await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
    const { result, tried, kept, stages } = await navigateRecorded(env.server.url('/fixtures/catalogue.html'));
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    // A machine slow enough to build the page after its requests were quiet for the window's tenth finds it settled
    // already: no snapshot is begun early then. One begun on this still page is never dropped.
    expect(stages).not.toContain('load: early snapshot dropped');
    expect(kept, stages).toBe(tried);
    const again = await call(browser, 'browser_snapshot', {});
    expect(result.snapshot).toBe(again.snapshot);
  });

  it('a page with a tracker script that never answers: the snapshot taken while it waited is returned', async () => {
    const { result, kept, stages } = await navigateRecorded(env.server.url('/stuck-tracker'));
    expect(result.ok).toBe(true);
    expect(result.loading).toMatch(/^1 request/);
    expect(kept, stages).toBe(true);
    const again = await call(browser, 'browser_snapshot', {});
    expect(result.snapshot).toBe(again.snapshot);
  });

  it('a field a script fills in and focuses while the page waits is shown filled in and focused', async () => {
    // The early snapshot begins once the script that never arrives has been out for half the window (2.5 s);
    // the timer fires at 3.75 s, before the window closes at 5 s. Neither a value nor focus is a DOM mutation.
    const { result, tried, kept, stages } = await navigateRecorded(env.server.url('/late-state?ms=3750'));
    expect(result.ok).toBe(true);
    expect(tried, stages).toBe(true);
    expect(kept, `${stages}\n${result.snapshot}`).toBe(false);
    expect(result.snapshot, result.snapshot).toMatch(/textbox "City".*Lisbon/);
    expect(result.snapshot).toMatch(/textbox "City".*\[active\]|textbox "City".*focused/);
  });

  it('a text a script makes clickable while the page waits gets a ref, and clicking it works', async () => {
    const { result, kept, stages } = await navigateRecorded(env.server.url('/late-state?ms=3750&what=handler'));
    expect(result.ok).toBe(true);
    expect(kept, `${stages}\n${result.snapshot}`).toBe(false);
    const click = await call(browser, 'browser_click', { ref: refOf(result.snapshot, 'clickable', 'Show more') });
    expect(click.ok, JSON.stringify(click.error)).toBe(true);
    expect(click.changes).toContain('Shown');
  });

  it.each([
    ['changes nothing', ''],
    ['only adds more scripts and a preload hint (as a tag manager does)', '&what=tags'],
  ])('a script of the page that arrives late and %s: the snapshot begun while it loaded is returned', async (_, what) => {
    const { result, kept, stages } = await navigateRecorded(env.server.url(`/late-script?ms=1500${what}`));
    expect(result.ok).toBe(true);
    expect(stages).toContain('load: early snapshot begun (scripts out)');
    expect(kept, stages).toBe(true);
    const again = await call(browser, 'browser_snapshot', {});
    expect(result.snapshot).toBe(again.snapshot);
  });

  it('a script of the page that arrives late and adds a style sheet hiding the buttons: the snapshot shows them hidden', async () => {
    const { result, kept, stages } = await navigateRecorded(env.server.url('/late-script?ms=1500&what=restyle'));
    expect(result.ok).toBe(true);
    expect(stages).toContain('load: early snapshot begun (scripts out)');
    expect(kept, stages).toBe(false);
    expect(result.snapshot).toContain('Late script');
    expect(result.snapshot).not.toContain('Subscribe');
  });

  it('a script of the page that arrives late and adds a button: the snapshot shows the button', async () => {
    const { result, stages } = await navigateRecorded(env.server.url('/late-script?ms=1500&what=adds'));
    expect(result.ok).toBe(true);
    expect(stages).toContain('load: early snapshot begun (scripts out)');
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toContain('Added late');
    const click = await call(browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Added late') });
    expect(click.ok, JSON.stringify(click.error)).toBe(true);
  });

  it('a web component a late script defines, or fills in, is shown with what it renders in its shadow root', async () => {
    for (const [what, text] of [
      ['component', 'Inside the card'],
      ['fill', 'Filled in late'],
    ]) {
      const { result, stages } = await navigateRecorded(env.server.url(`/late-script?ms=1500&what=${what}`));
      expect(result.ok).toBe(true);
      expect(stages).toContain('load: early snapshot begun (scripts out)');
      expect(result.snapshot, `${stages}\n${result.snapshot}`).toContain(text);
    }
  });

  it.each(['async', 'inline'])("another site's script (%s in the markup) that arrives late is not waited for: the page is shown, the script named as loading, and what it adds shows next", async (how) => {
    const script = env.server.otherSite('/slow-asset.js?ms=6000&what=adds');
    const { result, stages } = await navigateRecorded(env.server.url(`/loads-script?how=${how}&src=${encodeURIComponent(script)}`));
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('Subscribe');
    expect(result.snapshot, stages).not.toContain('Added late');
    expect(result.loading).toContain('tags.other-site.test');
    const later = await call(browser, 'browser_wait', { text: 'Added late', seconds: 15 });
    expect(later.ok, JSON.stringify(later.error)).toBe(true);
  });

  it("a chain of the page's own scripts, each loading the next: what the last one adds is shown", async () => {
    const last = env.server.url('/slow-asset.js?ms=300&what=adds');
    const second = env.server.url(`/inserts-script.js?src=${encodeURIComponent(last)}`);
    const first = env.server.url(`/inserts-script.js?src=${encodeURIComponent(second)}`);
    const { result, stages } = await navigateRecorded(env.server.url(`/loads-script?src=${encodeURIComponent(first)}`));
    expect(result.ok).toBe(true);
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toContain('Added late');
  });

  it("the page's own code from another site's CDN (a script its markup waits for): the chunk that code loads late is waited for", async () => {
    const chunk = env.server.otherSite('/slow-asset.js?ms=1500&what=adds');
    const bundle = env.server.otherSite(`/inserts-script.js?src=${encodeURIComponent(chunk)}`);
    const { result, stages } = await navigateRecorded(env.server.url(`/loads-script?how=blocking&src=${encodeURIComponent(bundle)}`));
    expect(result.ok).toBe(true);
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toContain('Added late');
  });

  it("the page's own data request to another site (an API) is waited for: what it brings is shown", async () => {
    const data = env.server.otherSite('/slow-text?ms=1500&text=Loaded+from+the+API');
    const { result, stages } = await navigateRecorded(env.server.url(`/loads-data?data=${encodeURIComponent(data)}`));
    expect(result.ok).toBe(true);
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toContain('Loaded from the API');
  });

  it("a frame of another site is waited for until it is parsed: what its blocking script adds is shown", async () => {
    const inner = env.server.otherSite(`/loads-script?how=blocking&src=${encodeURIComponent('/slow-asset.js?ms=1500&what=adds')}`);
    const { result, stages } = await navigateRecorded(env.server.url(`/frame?to=${encodeURIComponent(inner)}`));
    expect(result.ok).toBe(true);
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toMatch(/button "Added late"/);
  });

  it("a frame of another site: its document is waited for and shown, the slow script it then loads is not", async () => {
    const inner = env.server.otherSite(`/loads-script?src=${encodeURIComponent('/slow-asset.js?ms=6000&what=adds')}`);
    const { result, stages } = await navigateRecorded(env.server.url(`/frame?to=${encodeURIComponent(inner)}`));
    expect(result.ok).toBe(true);
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toMatch(/button "Subscribe"/);
    expect(result.snapshot).not.toContain('Added late');
    expect(result.loading).toContain('tags.other-site.test');
  });

  it('a frame two screens down is not waited for: the page is shown while its document is on its way, and the frame shows once it has come', async () => {
    const { result, stages } = await navigateRecorded(env.server.url(`/frame?below&to=${encodeURIComponent('/slow-first-byte?ms=4000')}`));
    expect(result.ok).toBe(true);
    // Not waited for: the page is shown while its document (4 s away) is still loading.
    expect(result.loading, stages).toMatch(/^1 request \(127\.0\.0\.1:\d+\)$/);
    await expect.poll(async () => (await call(browser, 'browser_snapshot', { scope: 'page' })).snapshot, { timeout: 15_000 }).toMatch(/iframe:\n\s+# Finally/);
  });

  it.each(['page', 'frame'])('a script the page builds itself (a blob: URL, in the %s) is run and not reported as loading', async (where) => {
    const { result, stages } = await navigateRecorded(env.server.url(`/blob-script?in=${where}`));
    expect(result.ok).toBe(true);
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toContain('Built here');
    expect(result.loading ?? '').not.toContain('blob:');
  });

  it('a widget the page writes into a frame of its own while it settles is in the snapshot', async () => {
    const { result, stages } = await navigateRecorded(env.server.url('/frame-written'));
    expect(result.ok).toBe(true);
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toContain('button "Written late"');
  });

  it('a style sheet that arrives late and shows a button: the snapshot shows the button', async () => {
    const { result, stages } = await navigateRecorded(env.server.url('/late-style?ms=1500'));
    expect(result.ok).toBe(true);
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toContain('Revealed late');
  });

  it('a style sheet linked for print only is not waited for, even when it never answers', async () => {
    const { result, stages } = await navigateRecorded(env.server.url('/print-style'));
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('Read on');
    // Waited for, a sheet that never answers would hold the page until it had been silent for half the window,
    // when the snapshot is begun ("silent"); not waited for, the page is read once its document is in.
    expect(stages, stages).not.toContain('load: early snapshot begun (silent)');
    expect(stages, stages).not.toContain('load: cap reached');
    expect(result.loading).toMatch(/1 request/);
  });

  it('a style sheet loaded for print and switched on when it arrives is waited for: the snapshot shows what it reveals', async () => {
    const { result, stages } = await navigateRecorded(env.server.url('/late-style?ms=1500&print'));
    expect(result.ok).toBe(true);
    expect(result.snapshot, `${stages}\n${result.snapshot}`).toContain('Revealed late');
    expect(stages).toContain('load: last waited for (stylesheet)');
  });

  it('a page that changes while it settles is captured again, and its refs act', async () => {
    const { result, kept, tried } = await navigateRecorded(env.server.url('/fixtures/ticking.html'));
    expect(result.ok).toBe(true);
    expect(tried).toBe(true);
    expect(kept).toBe(false);
    const click = await call(browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Stop updates') });
    expect(click.ok).toBe(true);
  });
});

describe('what the markup says about its requests', () => {
  it('hosts under one registrable domain are one site; an address or a one-label host is its own', () => {
    expect(siteOf('www.example.com')).toBe('example.com');
    expect(siteOf('static.cdn.example.com')).toBe('example.com');
    expect(siteOf('news.example.co.uk')).toBe('example.co.uk');
    expect(siteOf('shop.example.com.au')).toBe('example.com.au');
    expect(siteOf('www.googletagmanager.com')).not.toBe(siteOf('www.example.com'));
    expect(siteOf('127.0.0.1')).toBe('127.0.0.1');
    expect(siteOf('localhost')).toBe('localhost');
  });

  it("a site the markup waits for (a script without async, a style sheet) is the page's own; an async script's is not", () => {
    const html = `<link rel="stylesheet" href="https://static.shop-cdn.net/app.css"><link rel="icon" href="https://icons.example.org/i.png">
      <script src="//assets.bundles.io/app.js" defer></script><script async src="https://www.googletagmanager.com/gtag/js?id=1"></script>
      <script data-src="https://lazy.example.dev/x.js" async></script><script src="/own.js"></script><script type=module src=https://esm.modules.com/m.js></script>`;
    expect([...readMarkup(html, 'https://shop.example/').sites].sort()).toEqual(['bundles.io', 'modules.com', 'shop-cdn.net']);
  });

  it('style sheets the markup links for print or speech only, with nothing to switch them on, are known by their URL', () => {
    const html = `<base href="https://shop.example/app/"><link rel=stylesheet media=print href="print.css?a=1&amp;b=2#x">
      <link rel="stylesheet" media="only print and (color)" href="/p2.css"><link rel="stylesheet" media="screen, print" href="both.css">
      <link rel="stylesheet" media="print" onload="this.media='all'" href="late.css"><link rel="preload" as="style" media="print" href="pre.css">
      <link rel="stylesheet" media="print,handheld" href="/old-print.css"><link rel="stylesheet" media="speech" href="/aural.css">
      <link rel="stylesheet" media="screen,projection" href="/screen.css"><link rel="stylesheet" media="not print" href="/not-print.css">
      <link rel="stylesheet" media="only x" href="/switched-on-by-script.css"><link rel="stylesheet" media="printer" href="/unknown.css">`;
    expect([...readMarkup(html, 'https://shop.example/page').offScreenSheets].sort()).toEqual([
      'https://shop.example/app/print.css?a=1&b=2',
      'https://shop.example/aural.css',
      'https://shop.example/old-print.css',
      'https://shop.example/p2.css',
    ]);
  });
});

describe("whose request it is: the page's, or another site's code", () => {
  it("a data request only another site's script made (an analytics hit) is not waited for; one the page's own code makes through it is", async () => {
    const page = await (await env.browser.page()).context().newPage();
    try {
      const traffic = new Traffic(page);
      // A tab's Traffic watches who makes each request through a CDP session of its own, attached long before the
      // tab's first navigation in the toolset; here the page is loaded at once, so give the session time to attach.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const tracker = env.server.otherSite(`/tracker.js?to=${encodeURIComponent(env.server.otherSite('/never?hit'))}`);
      await page.goto(env.server.url(`/tagged?src=${encodeURIComponent(tracker)}`), { waitUntil: 'domcontentloaded' });
      const hits = () => traffic.pendingRequests().filter((request) => request.resourceType() === 'fetch').length;
      await expect.poll(hits).toBe(1);
      await expect.poll(() => awaitedInFlight(traffic), { timeout: 5_000 }).toBe(0);
      // The page's own button calls the tag's function: that hit is the page's request, and waited for (an
      // action's tools say it begins, so an endpoint asked before is not taken for a poll).
      traffic.actionBegins();
      await page.getByRole('button', { name: 'Send' }).click();
      await expect.poll(hits).toBe(2);
      await expect.poll(() => awaitedInFlight(traffic), { timeout: 5_000 }).toBe(1);
    } finally {
      await page.close();
    }
  });
});

describe('streams that stay open', () => {
  for (const how of ['EventSource', 'fetch'] as const) {
    it(`a live page's event stream (${how}) is not waited for once it has answered: the page shows its first message`, async () => {
      const path = how === 'fetch' ? '/live?fetch' : '/live';
      const page = await (await env.browser.page()).context().newPage();
      try {
        const traffic = new Traffic(page);
        await page.goto(env.server.url(path), { waitUntil: 'domcontentloaded' });
        await expect.poll(() => traffic.pendingRequests().some((request) => request.url().endsWith('/live-events'))).toBe(true);
        await expect.poll(() => page.locator('#news').textContent()).toBe('Markets open');
        // Both stay in flight: an image is never waited for, the stream no longer once it has answered.
        expect(traffic.pendingRequests()).toHaveLength(2);
        expect(awaitedInFlight(traffic)).toBe(0);
      } finally {
        await page.close();
      }
      const result = await call(env.browser, 'browser_navigate', { url: env.server.url(path) });
      expect(result.ok).toBe(true);
      expect(result.snapshot).toContain('Markets open');
      expect(result.loading).toMatch(/^2 requests \(127\.0\.0\.1:\d+\)$/);
    });
  }
});

/**
 * Runs `steps` on a toolset of its own (a 3 s navigation timeout unless `config` says otherwise) once it shows the
 * page of dead links, after the pages `before`; closes it after. The pages are opened by Playwright itself, with
 * its own time: only the steps are held to the short timeout, not a busy machine's start of the browser and pages.
 */
async function onDeadLinks(
  steps: (browser: BrowserToolset, snapshot: string) => Promise<void>,
  { config = { navigationTimeout: 3_000 }, before = [] }: { config?: BrowserToolsetConfig; before?: string[] } = {},
): Promise<void> {
  const browser = createTestToolset(config);
  try {
    const tab = await browser.page();
    for (const path of [...before, '/dead-links']) await tab.goto(env.server.url(path), { timeout: 60_000 });
    const page = await call(browser, 'browser_snapshot', {});
    expect(page.ok, JSON.stringify(page.error)).toBe(true);
    await steps(browser, page.snapshot);
  } finally {
    await browser.close();
  }
}

/** Between two calls, a script of the page starts and never ends: returns once the tab no longer answers. */
async function hang(page: import('playwright-core').Page) {
  await page.evaluate('setTimeout(() => { while (true) {} }, 0)');
  await expect.poll(() => Promise.race([page.evaluate('"answers"'), new Promise((done) => setTimeout(() => done('hung'), 500))])).toBe('hung');
}

/** Page A, in the tab that replaced a hung one, acts: its Continue button, by the ref from `snapshot`, reaches the server once. */
async function expectPageAActs(browser: BrowserToolset, snapshot: string) {
  const clicks = () => env.server.events.filter((event) => event === 'clicked=a-continue').length;
  const before = clicks();
  const click = await call(browser, 'browser_click', { ref: refOf(snapshot, 'button', 'Continue') });
  expect(click.ok, JSON.stringify(click.error)).toBe(true);
  await expect.poll(clicks).toBe(before + 1);
}

/** The page of dead links still acts: its button, by the ref from its snapshot, changes the page. */
async function expectStillActs(browser: BrowserToolset, snapshot: string) {
  const next = await call(browser, 'browser_click', { ref: refOf(snapshot, 'button', 'Still here') });
  expect(next.ok).toBe(true);
  expect(next.changes).toContain('Clicked');
  return next;
}

describe('nothing wedges the session', () => {
  it('a document that never answers is a timeout, and the next navigate and click work at once', async () => {
    const browser = createTestToolset({ navigationTimeout: 3_000 });
    try {
      await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
      const stuck = await call(browser, 'browser_navigate', { url: env.server.url('/no-answer') });
      expect(stuck.ok).toBe(false);
      expect(stuck.error.code).toBe('timeout');
      expect(stuck.error.message).toMatch(/did not send its page within 3 s; the load was stopped/);

      const next = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
      expect(next.ok).toBe(true);
      const click = await call(browser, 'browser_click', { ref: refOf(next.snapshot, 'checkbox', 'I accept the terms') });
      expect(click.ok).toBe(true);
      expect(click.changes).toMatch(/checkbox "I accept the terms" checked/);
    } finally {
      await browser.close();
    }
  });

  it('a frame the page adds whose document never comes: the click says so, and snapshots leave it out and name it', async () => {
    const page = await call(env.browser, 'browser_navigate', { url: env.server.url('/frame?later&to=/no-answer') });
    const click = await call(env.browser, 'browser_click', { ref: refOf(page.snapshot, 'button', 'Add the frame') });
    expect(click.ok, JSON.stringify(click.error)).toBe(true);
    expect(click.changes).toMatch(/^\+ still loading, not shown yet: frame "inner" \(127\.0\.0\.1:\d+\)$/m);
    for (const scope of ['viewport', 'page'] as const) {
      const snapshot = await call(env.browser, 'browser_snapshot', { scope });
      expect(snapshot.ok, JSON.stringify(snapshot.error)).toBe(true);
      expect(snapshot.snapshot).toMatch(/^still loading, not shown yet: frame "inner" \(127\.0\.0\.1:\d+\)$/m);
      expect(snapshot.snapshot).toContain('button "Add the frame"');
    }
  });

  it('a frame the page adds whose script never answers: the click shows its top and says it is shown in part', async () => {
    const page = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?later&to=${encodeURIComponent(env.server.otherSite('/stuck-script'))}`) });
    const click = await call(env.browser, 'browser_click', { ref: refOf(page.snapshot, 'button', 'Add the frame') });
    expect(click.ok, JSON.stringify(click.error)).toBe(true);
    expect(click.changes).toMatch(/^\+ still loading, shown in part so far: frame "inner" \(tags\.other-site\.test:\d+\)$/m);
    expect(click.changes).toMatch(/Before the script/);
  });

  it('a frame two screens down whose document never comes is left loading, not emptied, and named by a snapshot of the page', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/frame?below&to=/no-answer') });
    expect(result.ok).toBe(true);
    expect(result.loading).toMatch(/^1 request \(127\.0\.0\.1:\d+\)$/);
    expect(result.snapshot).not.toContain('still loading');
    const whole = await call(env.browser, 'browser_snapshot', { scope: 'page' });
    expect(whole.ok, JSON.stringify(whole.error)).toBe(true);
    expect(whole.snapshot).toMatch(/^still loading, not shown yet: frame "inner"/m);
  });

  it('a frame inside a frame whose document never comes is named where it sits: on screen by any snapshot, further down by one of the page', async () => {
    const nested = encodeURIComponent('/frame?to=/no-answer');
    const onScreen = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?to=${nested}`) });
    expect(onScreen.ok, JSON.stringify(onScreen.error)).toBe(true);
    expect(onScreen.snapshot).toMatch(/^still loading, not shown yet: frame "inner" \(127\.0\.0\.1:\d+\)$/m);
    expect(onScreen.snapshot).toContain('button "Read on"');
    const below = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?below&to=${nested}`) });
    expect(below.ok, JSON.stringify(below.error)).toBe(true);
    expect(below.snapshot).not.toContain('still loading');
    const whole = await call(env.browser, 'browser_snapshot', { scope: 'page' });
    expect(whole.snapshot).toMatch(/^still loading, not shown yet: frame "inner"/m);
  });

  it('a frame left out while its document was on its way is shown by a later snapshot, once it has come', async () => {
    const page = await call(env.browser, 'browser_navigate', { url: env.server.url(`/frame?later&to=${encodeURIComponent('/slow-first-byte?ms=1500')}`) });
    const click = await call(env.browser, 'browser_click', { ref: refOf(page.snapshot, 'button', 'Add the frame') });
    expect(click.changes).toMatch(/still loading, not shown yet: frame "inner"/);
    await expect.poll(async () => (await call(env.browser, 'browser_snapshot', {})).snapshot, { timeout: 15_000 }).toMatch(/iframe:\n\s+# Finally/);
  });

  it('a script that never ends: the click times out, and the next call replaces the tab and says so', async () => {
    const browser = createTestToolset({ timeout: 2_000, navigationTimeout: 5_000 });
    try {
      // Opened by Playwright with its own time: only the steps under test are held to the short timeouts.
      const page = await browser.page();
      await page.goto(env.server.url('/busy'), { timeout: 60_000 });
      const busy = await call(browser, 'browser_snapshot', {});
      expect(busy.ok, JSON.stringify(busy.error)).toBe(true);
      await page.context().addCookies([{ name: 'login', value: 'ada', url: env.server.origin }]);
      const click = await call(browser, 'browser_click', { ref: refOf(busy.snapshot, 'button', 'Freeze') });
      expect(click.ok).toBe(false);
      expect(click.error.code).toBe('timeout');

      // Same site, so the same renderer would serve it if the hung tab were kept.
      const next = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
      expect(next.ok).toBe(true);
      expect(next.title).toBe('Page A');
      expect(next.notices.join(' ')).toMatch(/stopped responding .* new tab .*cookies and logins were kept/);
      const cookies = await (await browser.page()).context().cookies();
      expect(cookies.map((c) => c.name)).toContain('login');
    } finally {
      await browser.close();
    }
  });

  it('a click that timed out on a page that hung: browser_history back still opens the page before it, not an empty tab', async () => {
    const browser = createTestToolset({ timeout: 2_000, navigationTimeout: 10_000 });
    try {
      await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
      const busy = await call(browser, 'browser_navigate', { url: env.server.url('/busy') });
      const click = await call(browser, 'browser_click', { ref: refOf(busy.snapshot, 'button', 'Freeze') });
      expect(click.error?.code).toBe('timeout');
      const back = await call(browser, 'browser_history', { action: 'back' });
      expect(back.ok, JSON.stringify(back.error)).toBe(true);
      expect(back.url).toBe(env.server.url('/fixtures/page-a.html'));
      expect(back.notices.join(' ')).toMatch(/stopped responding .* page before it was opened in a new tab/);
      expect(back.snapshot).toContain('button "Continue"');
    } finally {
      await browser.close();
    }
  });

  it('browser_tabs finds the tab not responding: the next snapshot replaces it by an empty tab and says so, instead of failing', async () => {
    const browser = createTestToolset({ timeout: 5_000, navigationTimeout: 10_000 });
    try {
      await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-b.html') });
      const page = await browser.page();
      await hang(page);
      const listed = await call(browser, 'browser_tabs', { action: 'list' });
      expect(listed.tabs[0].title).toBe('(not responding)');
      const snapshot = await call(browser, 'browser_snapshot', {});
      expect(snapshot.ok, JSON.stringify(snapshot.error)).toBe(true);
      expect(snapshot.notices.join(' ')).toMatch(/stopped responding .* replaced by a new empty tab/);
    } finally {
      await browser.close();
    }
  });

  it('a page that hangs after it loaded: the next navigate opens its page in a new tab, says so, and the page acts', async () => {
    const browser = createTestToolset({ navigationTimeout: 20_000 });
    try {
      const loaded = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-b.html') });
      expect(loaded.ok, JSON.stringify(loaded.error)).toBe(true);
      const page = await browser.page();
      await page.context().addCookies([{ name: 'login', value: 'ada', url: env.server.origin }]);
      await hang(page);

      // Same site: the hung tab's renderer would have to show it.
      const next = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
      expect(next.ok, JSON.stringify(next.error)).toBe(true);
      expect(next.title).toBe('Page A');
      expect(next.notices.join(' ')).toMatch(/stopped responding .* opened in a new tab .*cookies and logins were kept/);
      const tabs = await call(browser, 'browser_tabs', { action: 'list' });
      expect(tabs.tabs.map((tab: { url: string }) => tab.url)).toEqual([env.server.url('/fixtures/page-a.html')]);
      const cookies = await (await browser.page()).context().cookies();
      expect(cookies.map((c) => c.name)).toContain('login');
      await expectPageAActs(browser, next.snapshot);
    } finally {
      await browser.close();
    }
  });

  it('a page that hangs with a tab it opened: the next navigate closes both, says so, and opens its page in a new tab that acts', async () => {
    const browser = createTestToolset({ navigationTimeout: 20_000 });
    try {
      const first = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-b.html') });
      expect(first.ok, JSON.stringify(first.error)).toBe(true);
      // A tab a page opens, of its own site, shares its renderer: the opened one's endless script holds the first too.
      const page = await browser.page();
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.evaluate((url) => void window.open(url), env.server.url('/fixtures/page-b.html?second'))]);
      await popup.waitForLoadState('domcontentloaded');
      await hang(popup);

      const next = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
      expect(next.ok, JSON.stringify(next.error)).toBe(true);
      expect(next.title).toBe('Page A');
      expect(next.notices.join(' ')).toMatch(/stopped responding .* opened in a new tab .*Another tab of its site, or one it opened, was not responding either .* closed too/);
      const tabs = await call(browser, 'browser_tabs', { action: 'list' });
      expect(tabs.tabs).toEqual([{ index: 0, url: env.server.url('/fixtures/page-a.html'), title: 'Page A', active: true }]);
      await expectPageAActs(browser, next.snapshot);
    } finally {
      await browser.close();
    }
  });

  it('a page that hangs after it loaded: browser_tabs lists it as not responding, and browser_history back opens the page before it in a new tab, says so, and the page acts', async () => {
    const browser = createTestToolset({ navigationTimeout: 20_000 });
    try {
      await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
      await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-b.html') });
      const page = await browser.page();
      await page.context().addCookies([{ name: 'login', value: 'ada', url: env.server.origin }]);
      await hang(page);

      // The tab can still be listed, and the list says which one does not answer.
      const listed = await call(browser, 'browser_tabs', { action: 'list' });
      expect(listed.ok, JSON.stringify(listed.error)).toBe(true);
      expect(listed.tabs).toEqual([{ index: 0, url: env.server.url('/fixtures/page-b.html'), title: '(not responding)', active: true }]);

      // Page A is of the same site: the hung tab's renderer would have to show it.
      const back = await call(browser, 'browser_history', { action: 'back' });
      expect(back.ok, JSON.stringify(back.error)).toBe(true);
      expect(back.moved).toBe(true);
      expect(back.url).toBe(env.server.url('/fixtures/page-a.html'));
      expect(back.notices.join(' ')).toMatch(/stopped responding .* page before it was opened in a new tab .*cookies and logins were kept/);
      const tabs = await call(browser, 'browser_tabs', { action: 'list' });
      expect(tabs.tabs.map((tab: { url: string }) => tab.url)).toEqual([env.server.url('/fixtures/page-a.html')]);
      expect((await (await browser.page()).context().cookies()).map((c) => c.name)).toContain('login');
      await expectPageAActs(browser, back.snapshot);
    } finally {
      await browser.close();
    }
  });

  it('browser_wait for text that never comes ends at its own limit, even with seconds: 0', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
    const now = await call(env.browser, 'browser_wait', { text: 'never on this page', seconds: 0 });
    expect(now.ok).toBe(false);
    expect(now.error.code).toBe('timeout');
    expect(now.error.snapshot).toContain('Page A');
    const soon = await call(env.browser, 'browser_wait', { text: 'never on this page', seconds: 1 });
    expect(soon.error.code).toBe('timeout');
  });

  it('a click on a link whose server never answers is a timeout that says so; the load is stopped and the page still acts', async () => {
    await onDeadLinks(async (browser, snapshot) => {
      const click = await call(browser, 'browser_click', { ref: refOf(snapshot, 'link', 'Dead link') });
      expect(click.ok).toBe(false);
      expect(click.error.code).toBe('timeout');
      expect(click.error.message, click.error.message).toMatch(/^The action started loading http:\/\/127\.0\.0\.1:\d+\/no-answer, whose server sent no page within \d+ s; the load was stopped\.$/);
      const next = await expectStillActs(browser, snapshot);
      expect(next.url).toBe(env.server.url('/dead-links'));
    });
  });

  it('choosing a page in a jump menu whose server never answers is a timeout that says so, not a missing option', async () => {
    await onDeadLinks(async (browser, snapshot) => {
      const chosen = await call(browser, 'browser_select', { ref: refOf(snapshot, 'combobox', 'Jump to'), labels: ['Dead page'] });
      expect(chosen.ok).toBe(false);
      expect(chosen.error.code).toBe('timeout');
      expect(chosen.error.message).toMatch(/^The action started loading http:\/\/127\.0\.0\.1:\d+\/no-answer\?menu, whose server sent no page within \d+ s; the load was stopped\.$/);
    });
  });

  it('a click that opens a tab on a server that never answers: that tab is closed, the result says so, and the page still acts', async () => {
    await onDeadLinks(async (browser, snapshot) => {
      const click = await call(browser, 'browser_click', { ref: refOf(snapshot, 'link', 'Dead tab') });
      expect(click.ok).toBe(false);
      expect(click.error.code).toBe('timeout');
      expect(click.error.message).toMatch(/^The action opened a new tab for http:\/\/127\.0\.0\.1:\d+\/no-answer\?tab, whose server sent no page within 3 s; that tab was closed\.$/);
      const tabs = await call(browser, 'browser_tabs', { action: 'list' });
      expect(tabs.tabs).toHaveLength(1);
      await expectStillActs(browser, snapshot);
    });
  });

  it('going back to a page whose server no longer answers is a timeout that says so; the tab keeps its page, which still acts', async () => {
    const before = [`/answers-once?key=history-${Date.now()}`]; // a key of its own: the server answers each key once
    await onDeadLinks(
      async (browser, snapshot) => {
        const back = await call(browser, 'browser_history', { action: 'back' });
        expect(back.ok).toBe(false);
        expect(back.error.code).toBe('timeout');
        expect(back.error.message).toMatch(/^The action started loading http:\/\/127\.0\.0\.1:\d+\/answers-once\?key=history-\d+, whose server sent no page within \d+ s; the load was stopped\.$/);
        await expectStillActs(browser, snapshot);
      },
      { before },
    );
  });

  it('a click on a link to a server slower than the action timeout, but within the navigation timeout, opens that page', async () => {
    await onDeadLinks(
      async (browser, snapshot) => {
        const click = await call(browser, 'browser_click', { ref: refOf(snapshot, 'link', 'Slow link') });
        expect(click.ok).toBe(true);
        expect(click.navigated).toBe(true);
        expect(click.snapshot).toContain('# Finally');
      },
      // The product's timeouts (10 s for the click, 30 s for a page); the link's server answers after 13 s.
      { config: {} },
    );
  });

  it('a page that leaves by itself while navigate waits for another server does not take the navigation from it', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/leaves-when-told?key=one') });
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/tell-then-slow?key=one') });
    expect(result.ok, JSON.stringify(result).slice(0, 1000)).toBe(true);
    expect(result.title).toBe('Arrived');
    expect(result.url).toBe(env.server.url('/tell-then-slow?key=one'));
  });

  it('an SVG file opened by its address is shown with its text and its link, which works', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/drawing.svg') });
    expect(result.ok).toBe(true);
    expect(result.snapshot).toContain('Quarterly sales');
    const click = await call(env.browser, 'browser_click', { ref: refOf(result.snapshot, 'link', 'Open page A') });
    expect(click.ok).toBe(true);
    expect(click.url).toBe(env.server.url('/fixtures/page-a.html'));
  });

  /** Opens a page that keeps loading itself: it must come back read and held, saying so. */
  async function navigateHeld(path: string) {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url(path) });
    expect(result.ok, JSON.stringify(result).slice(0, 1000)).toBe(true);
    expect(result.snapshot).toContain('the page kept reloading or redirecting by itself');
    return result;
  }

  /** After a held page, the tab navigates again as usual: the hold was released. */
  async function expectNavigatesOn() {
    const next = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/page-b.html') });
    expect(next.ok).toBe(true);
    expect(next.title).toBe('Page B');
  }

  const reloadKinds = { meta: 'a refresh of 0 s', script: 'by script', 'at-once': 'by a timer of 0 ms, before it is parsed' } as const;
  for (const [kind, how] of Object.entries(reloadKinds)) {
    it(`a page that reloads itself without end (${how}) is held and shown, says so, and acts`, async () => {
      const result = await navigateHeld(`/reload-loop?kind=${kind}`);
      expect(result.loading, 'the page is read, not left "still arriving"').toBeUndefined();
      expect(result.snapshot).toContain('# Reloading');
      const click = await call(env.browser, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Still here') });
      expect(click.ok, JSON.stringify(click).slice(0, 1000)).toBe(true);
      await expectNavigatesOn();
    });
  }

  it('a page that reloads itself from a script in its head, before it has a body, is held and read as it stands', async () => {
    const result = await navigateHeld('/reload-loop?kind=while-parsed');
    expect(result.title).toBe('Reloading');
    expect(result.loading, 'the page is read, not left "still arriving"').toBeUndefined();
    await expectNavigatesOn();
  });

  it('two pages that send the tab to each other are held on one of them, which says so', async () => {
    const result = await navigateHeld('/ping');
    expect(['Ping', 'Pong']).toContain(result.title);
    await expectNavigatesOn();
  });

  it('a chain of script redirects, each to a new address, is followed to its end and not taken for a loop', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/hops') });
    expect(result.ok, JSON.stringify(result).slice(0, 1000)).toBe(true);
    expect(result.title).toBe('Signed in');
    expect(result.url).toBe(env.server.url('/hops?k=6'));
    expect(result.snapshot).not.toContain('kept reloading');
  });

  it('a form posted to its own address and sent back there is shown as saved, not taken for a loop', async () => {
    // Posted by the page itself while it loads, and by a click.
    const loaded = await call(env.browser, 'browser_navigate', { url: env.server.url('/save-here?key=auto&auto') });
    expect(loaded.ok, JSON.stringify(loaded).slice(0, 1000)).toBe(true);
    await expect.poll(async () => (await call(env.browser, 'browser_snapshot', {})).snapshot).toContain('Saved 1 times');
    expect((await call(env.browser, 'browser_snapshot', {})).snapshot).not.toContain('kept reloading');

    const form = await call(env.browser, 'browser_navigate', { url: env.server.url('/save-here?key=click') });
    const saved = await call(env.browser, 'browser_click', { ref: refOf(form.snapshot, 'button', 'Save') });
    expect(saved.ok, JSON.stringify(saved).slice(0, 1000)).toBe(true);
    const after = await call(env.browser, 'browser_snapshot', {});
    expect(after.snapshot).toContain('Saved 1 times');
    expect(after.snapshot).not.toContain('kept reloading');
  });

  it('a navigation an earlier call left pending (a slow click, a tab opened on a slow server) never breaks the next one', async () => {
    const browser = createTestToolset({ navigationTimeout: 3_000, allowEvaluate: true });
    try {
      await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
      await call(browser, 'browser_evaluate', { script: `document.body.insertAdjacentHTML('beforeend', '<a href="/slow-first-byte?ms=9000">Slow link</a>')` });
      const snap = await call(browser, 'browser_snapshot', {});
      await call(browser, 'browser_click', { ref: refOf(snap.snapshot, 'link', 'Slow link') });
      const next = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-b.html') });
      expect(next.ok).toBe(true);
      expect(next.title).toBe('Page B');

      const tab = await call(browser, 'browser_tabs', { action: 'new', url: env.server.url('/slow-first-byte?ms=9000') });
      expect(tab.ok).toBe(false);
      expect(tab.error.code).toBe('timeout');
      const again = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
      expect(again.ok).toBe(true);
      expect(again.title).toBe('Create your account');
      const list = await call(browser, 'browser_tabs', { action: 'switch', index: 0 });
      expect(list.ok).toBe(true);
      const last = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
      expect(last.ok).toBe(true);
    } finally {
      await browser.close();
    }
  });
});
