import { describe, expect, it } from 'vitest';
import { call, createTestToolset, refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

describe('browser_navigate', () => {
  it('returns the final URL, title, status and a snapshot with refs', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    expect(result.ok).toBe(true);
    expect(result.url).toBe(env.server.url('/fixtures/form.html'));
    expect(result.title).toBe('Create your account');
    expect(result.status).toBe(200);
    expect(result.snapshot).toContain('# Create your account');
    expect(result.snapshot).toMatch(/^e\d+ textbox "Full name \*" required$/m);
  });

  it('adds http:// to a localhost address without a scheme', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html').replace('http://', '') });
    expect(result.ok).toBe(true);
    expect(result.title).toBe('Products');
  });
});

describe('dialogs while a page loads', () => {
  it('an alert on load is accepted and reported; a confirm on load waits for the agent', async () => {
    const alerted = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/alert-on-load.html') });
    expect(alerted).toMatchObject({ ok: true, title: 'Welcome back', dialogs: [{ type: 'alert', message: 'Your session was restored.', handled: 'accepted' }] });
    expect(alerted.snapshot).toContain('# Welcome back');

    const asked = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/confirm-on-load.html') });
    expect(asked).toMatchObject({ ok: true, snapshot: '', dialogs: [{ type: 'confirm', message: 'Are you over 18?', handled: 'pending' }] });
    const answered = await call(env.browser, 'browser_dialog', { accept: true });
    expect(answered.snapshot).toContain('Welcome in');
  });
});

describe('browser_snapshot', () => {
  it('shows values, states, link targets and masks passwords', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    const password = refOf((await call(env.browser, 'browser_snapshot', {})).snapshot, 'textbox', 'Password *');
    await call(env.browser, 'browser_type', { ref: password, text: 'hunter2' });
    const { snapshot, tokens, refs } = await call(env.browser, 'browser_snapshot', {});
    expect(snapshot).toMatch(/textbox "Password \*" value="••••••" required password focused/);
    expect(snapshot).not.toContain('hunter2');
    expect(snapshot).toMatch(/combobox "Plan" value="Pro" options=3/);
    expect(snapshot).toMatch(/textbox "Referral code" value="WELCOME" readonly/);
    expect(snapshot).toMatch(/button "Save draft" disabled/);
    expect(snapshot).toMatch(/link "See the product list"$/m);
    const found = await call(env.browser, 'browser_snapshot', { find: 'product list' });
    expect(found.snapshot).toMatch(/link "See the product list" -> \/fixtures\/list.html$/m);
    expect(snapshot).toMatch(/checkbox "I accept the terms"$/m);
    expect(tokens).toBeGreaterThan(0);
    expect(refs).toBeGreaterThanOrEqual(9);
  });

  it('lists the viewport first and summarises what lies below', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/long.html') });
    const { snapshot } = await call(env.browser, 'browser_snapshot', {});
    expect(snapshot).not.toMatch(/^above/m); // at the top of the page
    expect(snapshot).toContain('Mark section 1 read');
    expect(snapshot).not.toContain('Mark section 12 read');
    expect(snapshot).toMatch(/^below \d+px: .*\d+ buttons/m);

    const whole = await call(env.browser, 'browser_snapshot', { scope: 'page', maxTokens: 20_000 });
    expect(whole.snapshot).toContain('Mark section 12 read');
    expect(whole.snapshot).not.toMatch(/^below.*:/m);
    expect(whole.snapshot).not.toContain('Paragraph 1 of the long read'); // page scope lists controls and headings
  });

  it('keeps within the token budget and says what it cut', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/long.html') });
    const { snapshot, tokens } = await call(env.browser, 'browser_snapshot', { scope: 'page', maxTokens: 200 });
    expect(tokens).toBeLessThanOrEqual(200);
    expect(snapshot).toMatch(/\[cut to fit 200 tokens: .*\]/);
    // Controls outrank text: the buttons survive longer than paragraphs.
    expect(snapshot).toContain('Mark section 1 read');
  });

  it('expands one subtree by ref', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
    const { snapshot } = await call(env.browser, 'browser_snapshot', {});
    const nav = /^(?:f\d+)?e\d+ navigation "Main":$/m.exec(snapshot);
    expect(nav).not.toBeNull();
    const addKettle = refOf(snapshot, 'button', 'Add Kettle to cart');
    const part = await call(env.browser, 'browser_snapshot', { ref: addKettle });
    expect(part.ok).toBe(true);
    expect(part.snapshot).toContain(`subtree of ${addKettle}`);
    expect(part.snapshot).toContain('Add Kettle to cart');
    expect(part.snapshot).not.toContain('Add Toaster to cart');
  });

  it('includes iframe content with refs that the tools accept', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/iframe.html') });
    const { snapshot } = await call(env.browser, 'browser_snapshot', {});
    expect(snapshot).toMatch(/^(?:f\d+)?e\d+ iframe:$/m);
    const card = refOf(snapshot, 'textbox', 'Card number');
    expect(card).toMatch(/^f\d+e\d+$/);
    const typed = await call(env.browser, 'browser_type', { ref: card, text: '4242 4242' });
    expect(typed.ok).toBe(true);
    const pay = refOf(snapshot, 'button', 'Pay now');
    expect((await call(env.browser, 'browser_click', { ref: pay })).ok).toBe(true);
    const after = await call(env.browser, 'browser_snapshot', {});
    expect(after.snapshot).toContain('Paid with 4242 4242');
    expect(after.snapshot).toMatch(/textbox "PIN" password/);
  });
});

describe('browser_click', () => {
  it('clicks a button and the page reacts', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const result = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Add Toaster to cart') });
    expect(result).toMatchObject({ ok: true, clicked: expect.stringContaining('Add Toaster to cart'), navigated: false });
    expect((await call(env.browser, 'browser_snapshot', {})).snapshot).toContain('Cart: Toaster');
  });

  it('accepts @e12 and bare numbers as refs', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const ref = refOf(snap, 'button', 'Add Kettle to cart');
    expect((await call(env.browser, 'browser_click', { ref: `@${ref}` })).ok).toBe(true);
    expect((await call(env.browser, 'browser_click', { ref: ref.replace(/^.*e/, '') })).ok).toBe(true);
    expect((await call(env.browser, 'browser_snapshot', {})).snapshot).toContain('Cart: Kettle, Kettle');
  });

  it('reports a navigation', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const result = await call(env.browser, 'browser_click', { ref: refOf(snap, 'link', 'See the product list') });
    expect(result).toMatchObject({ ok: true, navigated: true, url: env.server.url('/fixtures/list.html') });
  });

  it('reports a new tab and makes it active', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const result = await call(env.browser, 'browser_click', { ref: refOf(snap, 'link', 'Open the catalogue in a new tab') });
    expect(result.ok).toBe(true);
    expect(result.newTab).toEqual({ url: env.server.url('/fixtures/popup-target.html'), title: 'Catalogue' });
    expect((await call(env.browser, 'browser_snapshot', {})).snapshot).toContain('# Catalogue');
  });

  it('reports dialogs: alerts accepted, a confirm left for the agent to answer', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const alert = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Show alert') });
    expect(alert.dialogs).toEqual([{ type: 'alert', message: 'Saved!', handled: 'accepted' }]);

    const confirm = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Delete everything') });
    expect(confirm.ok).toBe(true);
    expect(confirm.dialogs).toEqual([{ type: 'confirm', message: 'Delete everything?', handled: 'pending' }]);
    // While it is open the page is frozen: other tools say so instead of hanging.
    const blocked = await call(env.browser, 'browser_snapshot', {});
    expect(blocked.error.code).toBe('dialog_open');
    const answered = await call(env.browser, 'browser_dialog', { accept: false });
    expect(answered).toMatchObject({ ok: true, dialog: { type: 'confirm', handled: 'dismissed' } });
    expect(answered.snapshot).toContain('cancelled');
  });
});

describe('browser_type', () => {
  it('replaces by default, appends with clear=false, and submits with Enter', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const name = refOf(snap, 'textbox', 'Full name *');
    expect((await call(env.browser, 'browser_type', { ref: name, text: 'Ada' })).fieldValue).toBe('Ada');
    expect((await call(env.browser, 'browser_type', { ref: name, text: ' Lovelace', clear: false })).fieldValue).toBe('Ada Lovelace');
    expect((await call(env.browser, 'browser_type', { ref: name, text: 'Grace' })).fieldValue).toBe('Grace');
    const slow = await call(env.browser, 'browser_type', { ref: refOf(snap, 'searchbox', 'Search'), text: 'kettle', slowly: true });
    expect(slow.fieldValue).toBe('kettle');
  });

  it('masks password values in its result', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const result = await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'Password *'), text: 's3cret!' });
    expect(result.ok).toBe(true);
    expect(result.fieldValue).toBe('••••••');
    expect(JSON.stringify(result)).not.toContain('s3cret!');
  });

  it('submits a form with submit=true and the env.server receives the values', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'Full name *'), text: 'Ada' });
    await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'Email *'), text: 'ada@example.com' });
    const before = env.server.submissions.length;
    const result = await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'Password *'), text: 'pw', submit: true });
    expect(result).toMatchObject({ ok: true, submitted: true, navigated: true });
    expect(env.server.submissions.length).toBe(before + 1);
    expect(env.server.submissions.at(-1)!.fields).toMatchObject({ name: 'Ada', email: 'ada@example.com', password: 'pw', plan: 'pro' });
  });
});

describe('browser_scroll', () => {
  it('scrolls the page by a viewport and reports the position and the bottom', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/long.html') });
    const down = await call(env.browser, 'browser_scroll', { direction: 'down' });
    expect(down).toMatchObject({ ok: true, scrolled: 'page', y: 648, atTop: false, atBottom: false });
    expect(down.snapshot).toMatch(/^above 648px(: .*)?\n[^]*^below \d+px/m);
    const bottom = await call(env.browser, 'browser_scroll', { amount: 100_000 });
    expect(bottom).toMatchObject({ atBottom: true });
    expect(bottom.snapshot).toContain('Back to sign up');
    const top = await call(env.browser, 'browser_scroll', { direction: 'up', amount: 100_000 });
    expect(top).toMatchObject({ y: 0, atTop: true });
  });

  it('scrolls inside a scrollable element, or brings an element into view', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/long.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const inbox = /^((?:f\d+)?e\d+) region "Inbox":$/m.exec(snap)![1]!;
    const page = await env.browser.page();
    const inside = await call(env.browser, 'browser_scroll', { ref: inbox, amount: 'half' });
    expect(inside.ok).toBe(true);
    expect(inside.scrolled).toContain('Inbox');
    expect(inside.y).toBe(75);
    expect(await page.evaluate(() => scrollY)).toBe(0);

    const whole = (await call(env.browser, 'browser_snapshot', { scope: 'page', maxTokens: 20_000 })).snapshot;
    const last = refOf(whole, 'button', 'Mark section 12 read');
    const into = await call(env.browser, 'browser_scroll', { ref: last });
    expect(into.scrolled).toMatch(/^page \(to bring (f\d+)?e\d+ .* into view\)$/);
    expect(into.snapshot).toContain('Mark section 12 read');
  });
});
