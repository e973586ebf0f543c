import { describe, expect, it } from 'vitest';
import { startServer } from './helpers/server.js';
import { call, createTestToolset, refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

async function open(path: string): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url(path) });
  expect(result.ok).toBe(true);
  return result.snapshot;
}

describe('stale refs', () => {
  it('a ref from page A used on page B fails with stale_ref and never clicks B’s same-named button', async () => {
    const a = await open('/fixtures/page-a.html');
    const continueOnA = refOf(a, 'button', 'Continue');
    const b = await open('/fixtures/page-b.html');
    // Same role and name on the new page: a naive ref manager would click it.
    expect(b).toMatch(/button "Continue"/);

    const result = await call(env.browser, 'browser_click', { ref: continueOnA });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('stale_ref');
    expect(result.error.message).toContain('page-a.html');
    expect(result.error.snapshot).toContain('# Page B');
    expect(result.error.retryable).toBe(true);

    await new Promise((r) => setTimeout(r, 200));
    expect(env.server.events).not.toContain('clicked=b-continue');
    const page = await env.browser.page();
    expect(await page.title()).toBe('Page B');
  });

  it('an element re-rendered with the same role and name is found again, and the result says so', async () => {
    const snap = await open('/fixtures/dynamic.html');
    const save = refOf(snap, 'button', 'Save');
    await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Re-render toolbar') });

    const result = await call(env.browser, 'browser_click', { ref: save });
    expect(result.ok).toBe(true);
    expect(result.ref).not.toBe(save);
    expect(result.notices.join(' ')).toMatch(new RegExp(`${save} was re-rendered.*acted on ${result.ref}`));
    expect((await call(env.browser, 'browser_snapshot', {})).snapshot).toContain('Saved 1 time(s)');
  });

  it('a removed button is never swapped for another that was already there with the same name', async () => {
    const snap = await open('/fixtures/dynamic.html');
    const deleteA = refOf(snap, 'button', 'Delete');
    expect((await call(env.browser, 'browser_click', { ref: deleteA })).changes).toContain('- Row A');
    // Retrying the old ref: the only "Delete" left belongs to row B, which must survive.
    const retry = await call(env.browser, 'browser_click', { ref: deleteA });
    expect(retry.ok).toBe(false);
    expect(retry.error.code).toBe('stale_ref');
    expect(retry.error.snapshot).toContain('Row B');
  });

  it('an element removed after the snapshot fails with stale_ref and a fresh snapshot', async () => {
    const snap = await open('/fixtures/dynamic.html');
    const doomed = refOf(snap, 'button', 'Remove me');
    await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Delete the button') });

    const result = await call(env.browser, 'browser_click', { ref: doomed });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('stale_ref');
    expect(result.error.message).toContain('no longer on the page');
    expect(result.error.snapshot).toContain('Delete the button');
    expect(result.error.snapshot).not.toContain('Remove me');
  });

  it('acting before any snapshot takes one first and says so', async () => {
    const fresh = createTestToolset();
    try {
      const page = await fresh.page();
      await page.goto(env.server.url('/fixtures/list.html'));
      const probe = await page.ariaSnapshot({ mode: 'ai' });
      const ref = /button "Add Kettle to cart" \[ref=(\w+)\]/.exec(probe)![1]!;
      const result = await call(fresh, 'browser_click', { ref });
      expect(result.ok).toBe(true);
      expect(result.notices.join(' ')).toContain('No snapshot had been taken');
    } finally {
      await fresh.close();
    }
  });
});

describe('element errors', () => {
  it('a button under a modal fails with element_blocked naming the overlay', async () => {
    const snap = await open('/fixtures/modal.html');
    expect(snap).toMatch(/^! cookie consent wall: accept it with (?:f\d+)?e\d+ \(its controls are listed first\)$/m);
    const result = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Subscribe') });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('element_blocked');
    expect(result.error.message).toMatch(/cookie-banner|Cookie consent|box/);
    // After the agent follows the hint the session still works.
    expect((await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Accept cookies') })).ok).toBe(true);
    expect((await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Subscribe') })).ok).toBe(true);
  });

  it('a field hidden after the snapshot fails with element_not_visible', async () => {
    const snap = await open('/fixtures/dynamic.html');
    const nick = refOf(snap, 'textbox', 'Nickname');
    await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Hide the nickname field') });
    const result = await call(env.browser, 'browser_type', { ref: nick, text: 'ada' });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('element_not_visible');
  });

  it('typing into a link fails with not_editable', async () => {
    const snap = await open('/fixtures/form.html');
    const result = await call(env.browser, 'browser_type', { ref: refOf(snap, 'link', 'See the product list'), text: 'hello' });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('not_editable');
  });

  it('typing into a read-only field fails with not_editable, a disabled button with element_disabled', async () => {
    const snap = await open('/fixtures/form.html');
    const readonly = await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'Referral code'), text: 'X' });
    expect(readonly.error.code).toBe('not_editable');
    const disabled = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Save draft') });
    expect(disabled.error.code).toBe('element_disabled');
  });

  it('an unknown ref fails with element_not_found, a malformed one with invalid_input', async () => {
    await open('/fixtures/list.html');
    const unknown = await call(env.browser, 'browser_click', { ref: 'e9999' });
    expect(unknown.ok).toBe(false);
    expect(unknown.error.code).toBe('element_not_found');
    expect(unknown.error.snapshot).toContain('# Products');
    const malformed = await call(env.browser, 'browser_click', { ref: '#submit-button' });
    expect(malformed.error.code).toBe('invalid_input');
    expect(malformed.error.message).toContain('not a ref');
  });
});

describe('navigation errors', () => {
  it('refuses file:, javascript:, data: and chrome: URLs with invalid_input', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<h1>x</h1>', 'chrome://settings']) {
      const result = await call(env.browser, 'browser_navigate', { url });
      expect(result.ok, url).toBe(false);
      expect(result.error.code, url).toBe('invalid_input');
    }
  });

  it('an unreachable host fails with navigation_failed and the previous page stays usable', async () => {
    await open('/fixtures/list.html');
    const result = await call(env.browser, 'browser_navigate', { url: 'http://no-such-host.invalid/' });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('navigation_failed');
    expect(result.error.message).toMatch(/ERR_NAME_NOT_RESOLVED|resolved/);
    const closed = await startServer();
    const closedUrl = closed.url('/');
    await closed.close();
    const refused = await call(env.browser, 'browser_navigate', { url: closedUrl });
    expect(refused.error.code).toBe('navigation_failed');
    expect(refused.error.message).toContain('refused');
    expect(refused.error.hint).toContain('back on the previous page');
    const after = await call(env.browser, 'browser_snapshot', {});
    expect(after.snapshot).toContain('# Products');
  });

  it('an HTTP error page fails with navigation_failed and shows the page', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/missing') });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('navigation_failed');
    expect(result.error.message).toContain('404');
    expect(result.error.snapshot).toContain('404 Not found');
  });

  it('an error status with no page (an empty 503) fails with navigation_failed naming the status, on every Chromium', async () => {
    // The npm-shipped headless shell shows an empty page; Chrome and Chromium fail the load
    // (ERR_HTTP_RESPONSE_CODE_FAILURE) and show their own.
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/empty-error?status=503') });
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ code: 'navigation_failed', retryable: true });
    expect(result.error.message).toMatch(/empty-error\?status=503 answered HTTP 503 Service Unavailable\.$/);
    expect((await call(env.browser, 'browser_snapshot', {})).ok).toBe(true);
  });

  it('an address that answers 204 No Content fails with navigation_failed, says so, and the tab keeps its page', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/event?from-test') });
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('navigation_failed');
    expect(result.error.message).toContain('204 No Content');
    expect(result.error.hint).toContain('still shows the page it showed before');
    expect((await call(env.browser, 'browser_snapshot', {})).snapshot).toContain('# Products');
  });

  it('a page whose document never finishes arrives as what loaded, says it is still loading, and can be acted on', async () => {
    const slow = createTestToolset({ navigationTimeout: 5_000 });
    try {
      const result = await call(slow, 'browser_navigate', { url: env.server.url('/hang') });
      expect(result.ok).toBe(true);
      expect(result.loading).toMatch(/document is still arriving/);
      expect(result.snapshot).toContain('Early button');
      // The agent can act on what loaded.
      const click = await call(slow, 'browser_click', { ref: refOf(result.snapshot, 'button', 'Early button') });
      expect(click.ok).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it('enforces the domain allowlist', async () => {
    const fenced = createTestToolset({ allowedDomains: ['example.com'] });
    try {
      const result = await call(fenced, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
      expect(result.error.code).toBe('invalid_input');
      expect(result.error.message).toContain('not in the allowed domains');
    } finally {
      await fenced.close();
    }
  });
});
