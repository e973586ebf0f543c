/**
 * Every element the page reacts to keeps a ref the tools can act on (issue 10): parts of a widget served by
 * one listener, headings that open sections, controls wrapped in other controls, a formula focusable as a
 * whole, a slider's track and handle, and a select the page draws again when it changes. Link targets are
 * printed only where they tell links apart.
 */
import { describe, expect, it } from 'vitest';
import { call, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

const REF = '((?:f\\d+)?e\\d+)';

/** The ref of the first line matching `pattern` (written after the ref), or a failure showing the snapshot. */
function refBy(snapshot: string, pattern: string): string {
  const match = new RegExp(`^\\s*${REF} ${pattern}`, 'm').exec(snapshot);
  if (!match) throw new Error(`No line matching /${pattern}/ in:\n${snapshot}`);
  return match[1]!;
}

async function open(): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/reacting.html') });
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result.snapshot;
}

/** The element a ref of the snapshot names, as the tools find it (refs are numbered for the model). */
async function byRef(ref: string) {
  const locator = await env.browser.locator(ref);
  if (!locator) throw new Error(`${ref} names nothing on the page shown`);
  return locator;
}

async function text(selector: string): Promise<string> {
  const page = await env.browser.page();
  return (await page.textContent(selector)) ?? '';
}

describe('elements the page reacts to', () => {
  it("a date picker's arrows served by one listener on the widget get refs, and its days read as a table", async () => {
    const snap = await open();
    expect(snap).toMatch(/^\s+\| Mo \| Tu \| We \|$/m);
    const next = refBy(snap, 'clickable "Next"');
    const clicked = await call(env.browser, 'browser_click', { ref: next });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await text('#month')).toBe('April 2024');
    const day = /\| (?:f\d+)?e\d+ link "1" \| ((?:f\d+)?e\d+) link "2" \|/.exec(snap);
    expect(day, snap).not.toBeNull();
    await call(env.browser, 'browser_click', { ref: day![1]! });
    expect(await text('#out')).toBe('Picked 2');
  });

  it('a heading with a click listener is a control that opens its section', async () => {
    const snap = await open();
    expect(snap).not.toMatch(/^### Privacy$/m);
    const clicked = await call(env.browser, 'browser_click', { ref: refBy(snap, 'clickable "Privacy"') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(clicked.changes).toContain('Privacy code: Q-2290');
  });

  it('a menu item around a link, a focusable list item and a link around a button keep both refs on one line', async () => {
    const snap = await open();
    expect(snap).toMatch(new RegExp(`^ ${REF} menuitem > ${REF} link "Home"$`, 'm'));
    expect(snap).toMatch(new RegExp(`^ ${REF} clickable > ${REF} link "My Topics"$`, 'm'));
    const line = new RegExp(`^${REF} link > ${REF} button "Subscribe"$`, 'm').exec(snap);
    expect(line, snap).not.toBeNull();
    expect(await (await byRef(line![1]!)).evaluate((el) => el.tagName)).toBe('A');
    expect(await (await byRef(line![2]!)).evaluate((el) => el.tagName)).toBe('BUTTON');
  });

  it('a script-made button is named by the text it shows, not by its tooltip', async () => {
    const snap = await open();
    expect(snap).not.toContain('Subscribe to the daily paper');
    const clicked = await call(env.browser, 'browser_click', { ref: refBy(snap, 'clickable "Read every article for 1 €"$') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await text('#out')).toBe('Offer opened');
  });

  it('a formula focusable as a whole gets one ref for the whole formula', async () => {
    const snap = await open();
    const ref = refBy(snap, 'clickable "a ≠');
    const page = await env.browser.page();
    expect(await (await byRef(ref)).evaluate((el) => el.tagName)).toBe('MJX-CONTAINER');
    // The mark that kept its node for the capture is gone again.
    expect(await page.locator('mjx-container').first().getAttribute('role')).toBeNull();
  });

  it('a formula reads in one line as written by hand: powers, fractions and roots, not a token per box', async () => {
    const snap = await open();
    const ref = refBy(snap, 'clickable "x = \\(− b ± √\\(b\\^2 − 4 a c\\)\\)/\\(2 a\\)"$');
    expect(await (await byRef(ref)).evaluate((el) => el.tagName)).toBe('MJX-CONTAINER');
    // A page's own MathML in running text reads the same way, each formula on one line.
    expect(snap).toMatch(/^π r\^2$/m);
    expect(snap).not.toMatch(/^2$/m);
    // The reading given to each formula for the capture is gone again.
    const page = await env.browser.page();
    expect(await page.locator('math[aria-label]').count()).toBe(0);
  });

  it('a focusable slideshow wrapping a panel of the same size keeps its own ref, with the panel inside', async () => {
    const snap = await open();
    const line = new RegExp(`^${REF} clickable "Slide one of three: [^"]+"$`, 'm').exec(snap);
    expect(line, snap).not.toBeNull();
    expect(await (await byRef(line![1]!)).evaluate((el) => el.id)).toBe('slideshow');
    expect(snap).toMatch(new RegExp(`^ ${REF} link "Next slide"$`, 'm'));
  });

  it('a focusable gallery showing only pictures gets a ref of its own, and so does each picture in it', async () => {
    const snap = await open();
    const line = new RegExp(`^${REF} clickable:\n ${REF} clickable "Harbour at dawn"\n ${REF} clickable "Fish market"$`, 'm').exec(snap);
    expect(line, snap).not.toBeNull();
    expect(await (await byRef(line![1]!)).evaluate((el) => el.id)).toBe('gallery');
    expect(await (await byRef(line![2]!)).evaluate((el) => el.textContent + (el.querySelector('img')?.alt ?? ''))).toBe('Harbour at dawn');
  });

  it("a slider's handle is listed as a slider inside its track, and takes arrow keys", async () => {
    const snap = await open();
    expect(snap, snap).toMatch(new RegExp(`^${REF} clickable icon="track"\\n ${REF} slider icon="knob handle"$`, 'm'));
    await call(env.browser, 'browser_press', { ref: refBy(snap, 'slider'), key: 'ArrowRight' });
    expect(await text('#zoom')).toBe('40');
  });

  it('choosing in a select the page draws again on change works and reports the choice', async () => {
    const snap = await open();
    const chosen = await call(env.browser, 'browser_select', { ref: refBy(snap, 'combobox "Month"'), labels: ['Feb'] });
    expect(chosen.ok, JSON.stringify(chosen.error)).toBe(true);
    expect(chosen.selected).toEqual(['Feb']);
    expect(chosen.changes).toMatch(/combobox "Month" value="Feb"/);
  });

  it('a page whose layout moves while the snapshot is taken (an image arriving) still shows what reacts', async () => {
    const before = await open();
    // The next time the snapshot marks an element for its capture, the page shifts everything down once, in
    // the moment between our reading of the page and Playwright's capture (as an image that lands then would).
    const page = await env.browser.page();
    await page.evaluate(() => {
      const shift = new MutationObserver(() => {
        shift.disconnect();
        document.body.style.paddingTop = '7px';
      });
      shift.observe(document.body, { subtree: true, attributeFilter: ['role', 'aria-label'] });
    });
    const after = (await call(env.browser, 'browser_snapshot', {})).snapshot as string;
    for (const line of ['clickable "Harbour at dawn', 'clickable icon="track"', 'slider icon="knob handle"']) {
      expect(before, before).toContain(line);
      expect(after, after).toContain(line);
    }
  });
});

describe('link targets', () => {
  it('are left out for a bare "#" and for same-named links that go to the same place, and kept where they differ', async () => {
    const snap = await open();
    expect(snap).toMatch(new RegExp(`^${REF} link "Refresh"$`, 'm'));
    expect(snap).toMatch(new RegExp(`^${REF} link "Reports" -> /reports/2023\\n${REF} link "Reports" -> /reports/2024$`, 'm'));
  });

  it('a link without a name reads as its host and file, and its ref snapshot gives the whole target', async () => {
    const snap = await open();
    const ref = refBy(snap, 'link "cdn.example.com/…/block-diagram.png"$');
    const whole = await call(env.browser, 'browser_snapshot', { ref });
    expect(whole.snapshot).toContain('-> cdn.example.com/images/2016/05/a1b2c3d4e5f6/block-diagram.png?w=300&utm_source=feed');
  });
});

describe('said once', () => {
  it('two links side by side that read the same share one line, and both refs work', async () => {
    const snap = await open();
    const line = new RegExp(`^${REF}, ${REF} link "Help"$`, 'm').exec(snap);
    expect(line, snap).not.toBeNull();
    const targets = await Promise.all([line![1]!, line![2]!].map(async (ref) => (await byRef(ref)).evaluate((el) => (el as HTMLAnchorElement).href)));
    expect(targets.map((href) => new URL(href).pathname)).toEqual(['/help', '/help']);
    expect(await (await byRef(line![1]!)).evaluate((a, b) => a !== b, await (await byRef(line![2]!)).elementHandle())).toBe(true);
  });

  it('an image whose name the link beside it already says is left out', async () => {
    await open();
    // The whole page: the fixture's end lies below the first screen with some fonts.
    const { snapshot: snap } = await call(env.browser, 'browser_snapshot', { scope: 'page' });
    expect(snap).toMatch(new RegExp(`^${REF} link "Acme Garden"$`, 'm'));
    expect(snap).not.toContain('img "Acme Garden"');
  });
});
