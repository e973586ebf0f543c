import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from './helpers/server.js';
import { call, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

/** The header's wall line: a warning that is not the dialog, overlay or reload one every page may have. */
function wallLines(snapshot: string): string[] {
  return snapshot.split('\n').filter((line) => line.startsWith('! ') && !/^! (an? (dialog|alertdialog) is open|an overlay covers|the page kept reloading)/.test(line));
}

async function snapshotOf(file: string): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/fixtures/walls/${file}`) });
  return result.ok ? result.snapshot : result.error.snapshot;
}

const REF = '(?:f\\d+)?e\\d+';
const HANDOFF = '\\(browser_handoff\\)';
const BOT_CHECK = `, not the site: browser_wait a few seconds, then snapshot; if it stays, a person must pass it ${HANDOFF}$`;

/** Every wall of the suite, with the line a person would write for it: its kind and the next step. */
const WALLS: Record<string, RegExp> = {
  'login.html': new RegExp(`^! sign-in form \\("Customer number or email" ${REF}, "Password" ${REF}\\): sign in only with details the user gave, else ask them ${HANDOFF}$`),
  'signup.html': new RegExp(`^! sign-up form \\("Email" ${REF}, "Choose a password" ${REF}, "Repeat the password" ${REF}\\): create an account only with details the user gave$`),
  'one-time-code.html': new RegExp(`^! one-time code prompt \\("6-digit code" ${REF}\\): ask the user for the code ${HANDOFF}$`),
  'one-time-code-split.html': new RegExp(`^! one-time code prompt \\("Digit 1" ${REF}\\): ask the user for the code ${HANDOFF}$`),
  'invisible-recaptcha-login.html': new RegExp(`^! sign-in form \\("Email" ${REF}, "Password" ${REF}\\), guarded by an invisible reCAPTCHA check: sign in only with details the user gave, else ask them ${HANDOFF}$`),
  'recaptcha-form.html': new RegExp(`^! reCAPTCHA on this page: a person must solve it ${HANDOFF}$`),
  'recaptcha-challenge.html': new RegExp(`^! reCAPTCHA on this page: a person must solve it ${HANDOFF}$`),
  'hcaptcha.html': new RegExp(`^! hCaptcha on this page: a person must solve it ${HANDOFF}$`),
  'turnstile.html': new RegExp(`^! Cloudflare Turnstile on this page: a person must solve it ${HANDOFF}$`),
  'arkose.html': new RegExp(`^! Arkose FunCaptcha on this page: a person must solve it ${HANDOFF}$`),
  'geetest.html': new RegExp(`^! GeeTest on this page: a person must solve it ${HANDOFF}$`),
  'cloudflare-challenge.html': new RegExp(`^! bot check \\(Cloudflare\\)${BOT_CHECK}`),
  'aws-waf.html': new RegExp(`^! bot check \\(AWS WAF\\)${BOT_CHECK}`),
  'akamai.html': new RegExp(`^! bot check \\(Akamai\\)${BOT_CHECK}`),
  'datadome.html': new RegExp(`^! bot check \\(DataDome\\)${BOT_CHECK}`),
  'perimeterx.html': new RegExp(`^! bot check \\(PerimeterX/HUMAN\\)${BOT_CHECK}`),
  'human-check.html': new RegExp(`^! bot check${BOT_CHECK}`),
  'consent-wall.html': new RegExp(`^! cookie consent wall over this article: accept ${REF} or reject ${REF} \\(its controls are listed first\\)$`),
  'paywall.html': /^! paywall over this article: tell the user it needs a subscription; browser_read reads what is shown$/,
  'inline-paywall.html': /^! paywall over this article: tell the user it needs a subscription; browser_read reads what is shown$/,
  'signin-overlay.html': new RegExp(`^! sign-in wall over this page: sign in only with details the user gave, else ask them ${HANDOFF}$`),
  'soft-404.html': /^! error page served with status 200: "Page not found"; check the address, or go back$/,
};

describe('the wall suite', () => {
  it('has a line for every wall page and a look-alike for the kinds that have one', () => {
    const files = readdirSync(`${FIXTURES_DIR}/walls`);
    expect(files.filter((f) => !f.startsWith('not-')).sort()).toEqual(Object.keys(WALLS).sort());
    expect(files.filter((f) => f.startsWith('not-')).length).toBeGreaterThanOrEqual(10);
  });

  for (const [file, line] of Object.entries(WALLS)) {
    it(`names the wall of ${file} and the next step, in one line`, async () => {
      const snapshot = await snapshotOf(file);
      const walls = wallLines(snapshot);
      expect(walls, snapshot).toHaveLength(1);
      expect(walls[0]).toMatch(line);
    });
  }

  for (const file of readdirSync(`${FIXTURES_DIR}/walls`).filter((f) => f.startsWith('not-'))) {
    it(`says nothing of a wall on ${file}, which only looks like one`, async () => {
      const snapshot = await snapshotOf(file);
      expect(wallLines(snapshot), snapshot).toEqual([]);
    });
  }

  it('still warns of a covering layer that is no wall (a newsletter pop-up)', async () => {
    expect(await snapshotOf('not-newsletter-modal.html')).toMatch(/^! an overlay covers \d+% of the screen and may block clicks: "Get a recipe every Friday/m);
  });
});

describe('what the wall line points at', () => {
  it('gives the refs of the sign-in fields, which browser_type accepts', async () => {
    const snapshot = await snapshotOf('login.html');
    const [, user, password] = /\("Customer number or email" ((?:f\d+)?e\d+), "Password" ((?:f\d+)?e\d+)\)/.exec(wallLines(snapshot)[0]!)!;
    expect((await call(env.browser, 'browser_type', { ref: user!, text: 'ada@example.com' })).fieldValue).toBe('ada@example.com');
    expect((await call(env.browser, 'browser_type', { ref: password!, text: 'not-the-real-one' })).fieldValue).toBe('••••••');
  });

  it('gives the consent wall’s accept button, and the line goes once it is accepted', async () => {
    const snapshot = await snapshotOf('consent-wall.html');
    const accept = /accept ((?:f\d+)?e\d+)/.exec(wallLines(snapshot)[0]!)![1]!;
    expect(snapshot).toMatch(new RegExp(`^\\s*${accept} button "Accept all cookies"$`, 'm'));
    expect((await call(env.browser, 'browser_click', { ref: accept })).ok).toBe(true);
    expect(wallLines((await call(env.browser, 'browser_snapshot', {})).snapshot)).toEqual([]);
  });

  it('says an error page by its status when the server sent one', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/walls/no-such-page.html') });
    expect(result.ok).toBe(false);
    expect(wallLines(result.error.snapshot)).toEqual(['! error page (HTTP 404): "Not found"; check the address, or go back']);
  });
});
