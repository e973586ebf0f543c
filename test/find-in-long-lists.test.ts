/**
 * A find reaches a row that a long grid or list has not drawn yet (browser_snapshot { find }, DECISIONS 131):
 * the list is scrolled until the row is drawn, in one call, and left there so the row's ref works. Checked on a
 * list windowed in plain JS (test/fixtures/virtual-list.html: only the rows near its scroll position exist) and
 * on AG Grid, a real library.
 */
import { describe, expect, it } from 'vitest';
import { call, createTestToolset, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

const REF = '((?:f\\d+)?e\\d+)';

async function open(path: string): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url(path) });
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result.snapshot;
}

async function pageValue<T>(fn: () => T): Promise<T> {
  return (await env.browser.page()).evaluate(fn);
}

/** The ref of the line `label` (a button or a grid cell), or a failure showing the text. */
function refOfLine(text: string, label: string): string {
  const match = new RegExp(`${REF} (?:button )?${JSON.stringify(label)}`).exec(text);
  if (!match) throw new Error(`No ref for ${JSON.stringify(label)} in:\n${text}`);
  return match[1]!;
}

describe('a find in a list that draws only the rows in view', () => {
  it('reaches a row far down in one call, leaves the list there, and the row\'s ref opens that very row', async () => {
    const first = await open('/fixtures/virtual-list.html?rows=2000');
    expect(first).not.toContain('Customer 600');
    // The list has no ref of its own: a row drawn in it stands for it (the task's sentence also names the customer).
    const found = await call(env.browser, 'browser_snapshot', { ref: refOfLine(first, 'Customer 1'), find: 'Customer 600' });
    expect(found.ok, JSON.stringify(found.error)).toBe(true);
    expect(found.scrolled).toMatch(/^the list "Customers" down [\d,]+ px in \d+ steps, to the first match \([\d,]+ px more below\)$/);
    expect(found.scrollSearch).toMatchObject({ found: true, boxes: 1, reachedEnd: false });
    expect(found.scrollSearch.px).toBeGreaterThan(15_000);
    const ref = refOfLine(found.snapshot, 'Customer 600');
    expect(await pageValue(() => document.getElementById('list')!.scrollTop)).toBeGreaterThan(15_000);
    const clicked = await call(env.browser, 'browser_click', { ref });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await pageValue(() => (window as any).opened)).toEqual([600]);
  });

  it('says a text in no row is not there once the list was searched to its end, and puts the list back', async () => {
    await open('/fixtures/virtual-list.html?rows=300');
    await pageValue(() => document.getElementById('list')!.scrollTo({ top: 900, behavior: 'instant' }));
    const result = await call(env.browser, 'browser_snapshot', { find: 'Customer 4321' });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    // The task's sentence matches: nothing is scrolled for a text the page shows.
    expect(result.scrolled).toBeUndefined();
    const missing = await call(env.browser, 'browser_snapshot', { find: 'Zed Nobody' });
    expect(missing.ok, JSON.stringify(missing.error)).toBe(true);
    expect(missing.snapshot).toContain('find "Zed Nobody": 0 matches');
    expect(missing.scrolled).toMatch(/^the list "Customers" to its end and back \(\d+ steps\): "Zed Nobody" is not drawn anywhere in it$/);
    expect(missing.scrollSearch).toMatchObject({ found: false, reachedEnd: true });
    expect(missing.scrollSearch.stopped).toBeUndefined();
    expect(await pageValue(() => document.getElementById('list')!.scrollTop)).toBe(900);
  });

  it('on a list longer than one call can search, says where it stopped, and the next find goes on from there', async () => {
    await open('/fixtures/virtual-list.html?rows=100000');
    // Customer 99999 is 3,000,000 px down: far past the steps and the time of one call, whatever the machine's speed.
    const first = await call(env.browser, 'browser_snapshot', { find: 'Customer 99999' });
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    expect(first.scrollSearch).toMatchObject({ found: false, reachedEnd: false });
    expect(first.scrolled).toMatch(/then stopped \(.+\), [\d,]+ px before its end: not drawn so far\. Left there: find again to go on$/);
    const stoppedAt = await pageValue(() => document.getElementById('list')!.scrollTop);
    expect(stoppedAt).toBe(first.scrollSearch.px);
    expect(stoppedAt).toBeGreaterThan(0);
    // A row 6,000 px further down: the next find starts where the last one stopped, not at the top.
    const further = Math.floor(stoppedAt / 30) + 200;
    const next = await call(env.browser, 'browser_snapshot', { find: `Customer ${further}` });
    expect(next.ok, JSON.stringify(next.error)).toBe(true);
    expect(next.scrollSearch).toMatchObject({ found: true });
    expect(next.scrollSearch.px).toBeGreaterThan(4_000);
    expect(next.scrollSearch.px).toBeLessThan(8_000);
    expect(refOfLine(next.snapshot, `Customer ${further}`)).toMatch(/e\d+/);
  });

  it('leaves a list alone while it holds the field being typed in, and the typed text stays', async () => {
    const first = await open('/fixtures/virtual-list.html?rows=2000&note');
    const note = new RegExp(`${REF} textbox "Note"`).exec(first);
    expect(note, first).not.toBeNull();
    const typed = await call(env.browser, 'browser_type', { ref: note![1]!, text: 'call back Monday' });
    expect(typed.ok, JSON.stringify(typed.error)).toBe(true);
    const result = await call(env.browser, 'browser_snapshot', { find: 'Customer 1500' });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.scrolled).toContain('a box holding the field being typed in was left alone (finish typing first');
    expect(result.scrollSearch).toMatchObject({ found: false, skipped: 1, steps: 0 });
    expect(await pageValue(() => (document.getElementById('note') as HTMLInputElement).value)).toBe('call back Monday');
    expect(await pageValue(() => document.getElementById('list')!.scrollTop)).toBe(0);
  });
});

describe('a find in a real grid library', () => {
  it("AG Grid: a find with the grid's ref draws a row far down and its cell's ref focuses that row", async () => {
    const first = await open('/fixtures/widgets/aggrid.html');
    expect(first).not.toContain('A-1250');
    const grid = new RegExp(`^\\s*${REF} (?:tree)?grid\\b`, 'm').exec(first);
    expect(grid, first).not.toBeNull();
    const found = await call(env.browser, 'browser_snapshot', { ref: grid![1]!, find: 'A-1250' });
    expect(found.ok, JSON.stringify(found.error)).toBe(true);
    expect(found.scrolled).toMatch(/ down [\d,]+ px in \d+ steps, to the first match/);
    // The row comes with its cells (the customer beside the order) and the header row above them.
    expect(found.snapshot).toMatch(/"A-1250".*"Cy 250"/);
    const clicked = await call(env.browser, 'browser_click', { ref: refOfLine(found.snapshot, 'A-1250') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await pageValue(() => (window as any).api.getFocusedCell()?.rowIndex)).toBe(250);
  });
});

describe('a find bounded by its call', () => {
  it('stops when the time for one call runs out on a list slow to redraw, says so, and the next call works', async () => {
    // Each redraw of this list takes 300 ms: the call's time, not the step bound, ends the search.
    const browser = createTestToolset({ navigationTimeout: 9_000 });
    try {
      const opened = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/virtual-list.html?rows=100000&slow=300') });
      expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
      const result = await call(browser, 'browser_snapshot', { find: 'Customer 99000' });
      expect(result.ok, JSON.stringify(result.error)).toBe(true);
      expect(result.scrollSearch).toMatchObject({ found: false, reachedEnd: false, stopped: 'time' });
      expect(result.scrolled).toContain('then stopped (the time for one call ran out)');
      const after = await call(browser, 'browser_snapshot', {});
      expect(after.ok, JSON.stringify(after.error)).toBe(true);
      expect(after.snapshot).toContain('Customer');
    } finally {
      await browser.close();
    }
  });
});
