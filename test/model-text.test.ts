/**
 * What the model reads of a result leaves out what it already has (issue 56, DECISIONS 130), and keeps what it
 * needs: each test reads the text a Mastra agent gets (toModelOutput) beside the typed result a program gets.
 */
import { describe, expect, it } from 'vitest';
import { call, refOf, useServerAndBrowser } from './helpers/toolset.js';

// browser_evaluate lets a test send the page to another document by itself.
const env = useServerAndBrowser({ allowEvaluate: true });

/** The text the model reads of a result of `tool`. */
function modelText(tool: string, result: unknown): string {
  return (env.browser.tools as any)[tool].toModelOutput(result).value as string;
}

async function openDesk(): Promise<string> {
  const opened = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/model-text.html') });
  return opened.snapshot as string;
}

describe('the page line and the address', () => {
  it('a navigate says the page; an action on the same address does not say it again', async () => {
    const navigated = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/model-text.html') });
    expect(modelText('browser_navigate', navigated)).toMatch(/^page "Order desk" .*\/fixtures\/model-text\.html$/m);

    const clicked = await call(env.browser, 'browser_click', { ref: refOf(navigated.snapshot, 'button', 'Place order') });
    expect(clicked).toMatchObject({ ok: true, url: env.server.url('/fixtures/model-text.html'), navigated: false, urlChanged: false });
    const text = modelText('browser_click', clicked);
    expect(text).toContain('Order placed.');
    expect(text).not.toContain('model-text.html');
  });

  it('a route change within the page says the new address', async () => {
    const snapshot = await openDesk();
    const clicked = await call(env.browser, 'browser_click', { ref: refOf(snapshot, 'button', 'Show history') });
    expect(clicked).toMatchObject({ ok: true, navigated: false, urlChanged: true });
    expect(modelText('browser_click', clicked)).toMatch(/^url: .*\/fixtures\/model-text\.html\?tab=history$/m);
  });

  it('a link to another page shows that page with its page line', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    const link = refOf((await call(env.browser, 'browser_snapshot', {})).snapshot, 'link', 'See the product list');
    const clicked = await call(env.browser, 'browser_click', { ref: link });
    expect(clicked).toMatchObject({ ok: true, navigated: true, urlChanged: true });
    const text = modelText('browser_click', clicked);
    expect(text).toMatch(/^navigated: true$/m);
    expect(text).toMatch(/^page "Products" .*\/fixtures\/list\.html$/m);
  });

  it('the page line leaves out the address\'s tracking parameters; the result\'s url keeps them', async () => {
    const address = env.server.url('/fixtures/model-text.html?utm_source=newsletter&utm_medium=email&order=7&gclid=Cj0KCQ');
    const navigated = await call(env.browser, 'browser_navigate', { url: address });
    expect(navigated.url).toBe(address);
    const text = modelText('browser_navigate', navigated);
    expect(text).toMatch(/^page "Order desk" .*\/fixtures\/model-text\.html\?order=7$/m);
    expect(text).not.toContain('utm_');
    expect(text).not.toContain('gclid');
  });
});

describe('the call echoed back', () => {
  it('a click does not repeat the element it was sent to', async () => {
    const snapshot = await openDesk();
    const ref = refOf(snapshot, 'button', 'Place order');
    const clicked = await call(env.browser, 'browser_click', { ref });
    expect(clicked).toMatchObject({ ref, clicked: `${ref} (button "Place order")` });
    const text = modelText('browser_click', clicked);
    expect(text).not.toContain('clicked:');
    expect(text).not.toMatch(/^ref:/m);
  });

  it('the value of a field that holds the text sent is not repeated; a value the page changed is', async () => {
    const snapshot = await openDesk();
    const name = await call(env.browser, 'browser_type', { ref: refOf(snapshot, 'textbox', 'Name'), text: 'Ada Lovelace' });
    expect(name).toMatchObject({ ok: true, fieldValue: 'Ada Lovelace', asTyped: true });
    expect(modelText('browser_type', name)).not.toContain('fieldValue');
    expect(modelText('browser_type', name)).not.toContain('typedInto');

    const code = await call(env.browser, 'browser_type', { ref: refOf(snapshot, 'textbox', 'Code'), text: 'AB-12345' });
    expect(code).toMatchObject({ fieldValue: 'AB-1', asTyped: false });
    expect(modelText('browser_type', code)).toMatch(/^fieldValue: AB-1$/m);

    const city = await call(env.browser, 'browser_type', { ref: refOf(snapshot, 'textbox', 'City'), text: 'paris', slowly: true });
    expect(modelText('browser_type', city)).toMatch(/^fieldValue: PARIS$/m);

    const added = await call(env.browser, 'browser_type', { ref: refOf(snapshot, 'textbox', 'Name'), text: ' King', clear: false });
    expect(modelText('browser_type', added)).toMatch(/^fieldValue: Ada Lovelace King$/m);
  });

  it('a password is never echoed, masked or not', async () => {
    const snapshot = await openDesk();
    const typed = await call(env.browser, 'browser_type', { ref: refOf(snapshot, 'textbox', 'Password'), text: 'hunter2' });
    expect(typed).toMatchObject({ ok: true, fieldValue: '••••••', asTyped: true });
    expect(modelText('browser_type', typed)).not.toMatch(/hunter2|fieldValue/);
  });

  it('a re-rendered target is still named, by the notice that says which element was acted on', () => {
    const text = modelText('browser_click', {
      ok: true,
      notices: ['e5 was re-rendered by the page; acted on e9, the only button "Pay" now on the page. Use e9 from now on.'],
      ref: 'e9',
      clicked: 'e9 (button "Pay")',
      url: 'http://shop.test/',
      navigated: false,
      urlChanged: false,
      changes: '+ Paid.\n~ e9 button "Pay" disabled',
    });
    expect(text).toBe('note: e5 was re-rendered by the page; acted on e9, the only button "Pay" now on the page. Use e9 from now on.\nchanges:\n+ Paid.\n~ e9 button "Pay" disabled');
  });
});

describe('fields that say no', () => {
  it('navigated and submitted are said when true, and stay in the typed result when false', async () => {
    const snapshot = await openDesk();
    const typed = await call(env.browser, 'browser_type', { ref: refOf(snapshot, 'textbox', 'Name'), text: 'Ada' });
    expect(typed).toMatchObject({ navigated: false, submitted: false });
    expect(modelText('browser_type', typed)).not.toMatch(/navigated|submitted/);

    const checked = await call(env.browser, 'browser_check', { ref: refOf(snapshot, 'checkbox', 'Gift wrap'), checked: false });
    // A checkbox's state is what the call set, not a "no": it stays.
    expect(modelText('browser_check', checked)).toMatch(/^checked: false$/m);
  });
});

describe('a scroll shows what came into view', () => {
  it('new rows come with their table and its header row; lines read before are counted, not repeated', async () => {
    const opened = await openDesk();
    const scrolled = await call(env.browser, 'browser_scroll', { direction: 'down', amount: 'half' });
    expect(scrolled.ok).toBe(true);
    // The typed result keeps the whole view for programs.
    expect(scrolled.snapshot).toMatch(/^page "Order desk"/);
    const text = modelText('browser_scroll', scrolled);
    expect(text).not.toContain('page "Order desk"');
    expect(text).toMatch(/^unchanged: \d+ lines read before, not repeated \(browser_snapshot shows the whole view\)$/m);
    const rows = (text: string) => text.split('\n').filter((line) => /\| Product \d+ \|/.test(line)).map((line) => line.replace(/ new(?= |$)/g, '').trim());
    const before = new Set(rows(opened));
    const shown = rows(scrolled.cameIntoView);
    const stillInView = rows(scrolled.snapshot).filter((row) => before.has(row));
    // Rows the navigate showed and still in view are counted; every other row of the view is shown, with its ref.
    expect(stillInView.length).toBeGreaterThan(0);
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.some((row) => before.has(row))).toBe(false);
    expect(shown.length + stillInView.length).toBe(rows(scrolled.snapshot).length);
    expect(shown.every((row) => /e\d+ button "Add product \d+"/.test(row))).toBe(true);
    expect(scrolled.cameIntoView).toMatch(/table \(3 cols\):\n \| Product \| Price \| Cart \|\n/);
    expect(scrolled.cameIntoView).not.toMatch(/ new( |$)/m);
  });

  it('a line whose state changed since it was read is shown again', async () => {
    const snapshot = await openDesk();
    await call(env.browser, 'browser_check', { ref: refOf(snapshot, 'checkbox', 'Gift wrap'), checked: true });
    await call(env.browser, 'browser_scroll', { direction: 'down' });
    const back = await call(env.browser, 'browser_scroll', { direction: 'up', amount: 100_000 });
    expect(back.cameIntoView).toMatch(/checkbox "Gift wrap" checked/);
    expect(back.cameIntoView).not.toContain('# Order desk');
  });

  it('with nothing read on the page before, the whole view is shown', async () => {
    await openDesk();
    // The page goes to another document by itself: nothing of it was read.
    await call(env.browser, 'browser_evaluate', { script: "setTimeout(() => location.replace(location.pathname + '?again'), 50); return 1" });
    await call(env.browser, 'browser_wait', { seconds: 1 });
    const scrolled = await call(env.browser, 'browser_scroll', { direction: 'down' });
    expect(scrolled.cameIntoView).toBeUndefined();
    expect(modelText('browser_scroll', scrolled)).toMatch(/^page "Order desk"/m);
  });
});
