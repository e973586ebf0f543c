import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserToolset } from '../src/index.js';
import { SecretVault } from '../src/secrets/vault.js';
import { scriptedModel } from './helpers/scriptedModel.js';
import { startServer, type TestServer } from './helpers/server.js';
import { call, createTestToolset, refOf } from './helpers/toolset.js';
import { startWalledSite, type WalledSite } from './helpers/walledSite.js';

/** Time enough for a first page on a machine shared with other test runs. */
const PATIENT = { timeout: 10_000, navigationTimeout: 30_000 };

let site: WalledSite;
let server: TestServer;
let dir: string;

beforeAll(async () => {
  site = await startWalledSite();
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'secrets-test-'));
});

afterAll(async () => {
  await site.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const secretsFor = (origin: string) => ({
  ledger: { value: site.password, origins: [origin] },
  ledgerCode: { totp: site.seed, origins: [origin] },
});

/** Every file under `root`, zips unpacked first, that holds `needle` in any form a body or a file would carry it. */
function filesHolding(root: string, needle: string): string[] {
  const forms = [needle, encodeURIComponent(needle), JSON.stringify(needle).slice(1, -1), Buffer.from(needle).toString('base64')];
  const found: string[] = [];
  const visit = (path: string) => {
    if (statSync(path).isDirectory()) return readdirSync(path).forEach((name) => visit(join(path, name)));
    const bytes = readFileSync(path).toString('latin1');
    if (forms.some((form) => bytes.includes(form))) found.push(path);
  };
  visit(root);
  return found;
}

function unzipAll(folder: string): void {
  for (const zip of readdirSync(folder).filter((f) => f.endsWith('.zip'))) {
    const into = join(folder, `${zip}.unpacked`);
    mkdirSync(into, { recursive: true });
    execFileSync('unzip', ['-q', '-o', join(folder, zip), '-d', into]);
  }
}

describe('signing in with secrets the model never sees', () => {
  it('a Mastra agent signs in with a password and a one-time code; the values reach the server and nowhere else', async () => {
    const traces = join(dir, 'traces');
    const store = join(dir, 'store');
    const toolset = createTestToolset({ ...PATIENT, trace: { dir: traces }, sessionStore: store, allowPlaintext: true, secrets: secretsFor(site.origin) });
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))));
    const prompts: string[] = [];
    try {
      const model = scriptedModel((results, turn) => {
        const last = results.at(-1)?.output as string | undefined;
        switch (turn) {
          case 0:
            return { tools: [{ name: 'browser_navigate', input: { url: site.url('/login') } }] };
          case 1: {
            // The wall line says what the page is and which secrets it may use; the model types them by name.
            expect(last).toMatch(/^! sign-in form \("Username" (?:f\d+)?e\d+, "Password" (?:f\d+)?e\d+\): type them with browser_type \{ ref, secret \} \(secrets for this page: ledger, ledgerCode\)$/m);
            return {
              tools: [
                { name: 'browser_type', input: { ref: refOf(last!, 'textbox', 'Username'), text: 'ada' } },
                { name: 'browser_type', input: { ref: refOf(last!, 'textbox', 'Password'), secret: 'ledger', submit: true } },
              ],
            };
          }
          case 2:
            expect(last).toMatch(/^! one-time code prompt \("Code" (?:f\d+)?e\d+\): type it with browser_type/m);
            return { tools: [{ name: 'browser_type', input: { ref: refOf(last!, 'textbox', 'Code'), secret: 'ledgerCode', submit: true } }] };
          default:
            return { text: /Signed in as Ada/.test(last ?? '') ? 'Signed in.' : `Stuck: ${last}` };
        }
      });
      const wrapped = model.doGenerate.bind(model);
      model.doGenerate = async (options) => {
        prompts.push(JSON.stringify(options.prompt));
        return wrapped(options);
      };
      const agent = new Agent({ id: 'bank', name: 'bank', instructions: 'You sign in to sites for the user.', model, tools: toolset.tools });
      const result = await agent.generate('Sign in to my bank as ada.', { maxSteps: 6 });
      expect(result.text).toBe('Signed in.');
      // The secrets reached the site: the password in the form, the current code accepted.
      expect(site.received.password).toBe(site.password);
      expect(site.received.codeAccepted).toBe(true);
      const toolResults = JSON.stringify(result.steps.flatMap((step) => step.toolResults));
      expect(toolResults).toContain('"fieldValue":"••••••"');
      await toolset.close();
    } finally {
      spies.forEach((spy) => spy.mockRestore());
      await toolset.close();
    }
    // Nothing the model read, no trace, no stored session and no log holds the password or the seed.
    unzipAll(traces);
    expect(readdirSync(traces).filter((f) => f.endsWith('.zip')).length).toBe(2);
    for (const needle of [site.password, site.seed]) {
      expect(prompts.join('\n')).not.toContain(needle);
      expect(logged.join('\n')).not.toContain(needle);
      expect(filesHolding(traces, needle)).toEqual([]);
      expect(filesHolding(store, needle)).toEqual([]);
    }
    expect(prompts.join('\n')).toContain('Signed in as Ada');
    expect(readdirSync(store).length).toBeGreaterThan(0);
  });
});

describe('where a secret may go', () => {
  let toolset: BrowserToolset;
  beforeAll(() => {
    toolset = createTestToolset({ ...PATIENT, secrets: secretsFor(site.origin) });
  });
  afterAll(() => toolset.close());

  it('lists the secrets only on a page of an origin they allow', async () => {
    const allowed = await call(toolset, 'browser_navigate', { url: site.url('/gate') });
    expect(allowed.snapshot).toContain('ledger, ledgerCode');
    const elsewhere = await call(toolset, 'browser_navigate', { url: server.url('/fixtures/walls/login.html') });
    expect(elsewhere.snapshot).not.toContain('ledger');
    expect(elsewhere.snapshot).toMatch(/^! sign-in form .*: sign in only with details the user gave, else ask them \(browser_handoff\)$/m);
  });

  it('refuses a secret on another origin, naming the origins it allows, and the session goes on', async () => {
    const page = await call(toolset, 'browser_navigate', { url: server.url('/fixtures/walls/login.html') });
    const refused = await call(toolset, 'browser_type', { ref: refOf(page.snapshot, 'textbox', 'Password'), secret: 'ledger' });
    expect(refused.ok).toBe(false);
    expect(refused.error.code).toBe('invalid_input');
    expect(refused.error.message).toBe(`The secret "ledger" may be typed only on ${site.origin}; this field is on ${server.origin}.`);
    expect(JSON.stringify(refused)).not.toContain(site.password);
    // Nothing was typed, and the next call works.
    const page2 = await toolset.page();
    expect(await page2.locator('#pw').inputValue()).toBe('');
    expect((await call(toolset, 'browser_type', { ref: refOf(page.snapshot, 'textbox', 'Customer number or email'), text: 'ada' })).ok).toBe(true);
  });

  it('refuses a secret in a frame of another origin inside an allowed page', async () => {
    // The site's page, with the test server's sign-in page framed in it: the page's origin does not lend itself to the frame.
    await call(toolset, 'browser_navigate', { url: site.url('/gate') });
    const page = await toolset.page();
    await page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.src = src;
      frame.width = '900';
      frame.height = '600';
      document.body.append(frame);
      return new Promise((resolve) => frame.addEventListener('load', resolve));
    }, server.url('/fixtures/walls/login.html'));
    const snapshot = (await call(toolset, 'browser_snapshot', { scope: 'page' })).snapshot;
    const refused = await call(toolset, 'browser_type', { ref: refOf(snapshot, 'textbox', 'Password'), secret: 'ledger' });
    expect(refused.ok).toBe(false);
    expect(refused.error.message).toContain(`this field is on ${server.origin}`);
  });

  it('refuses an unknown name with the names it knows, and a field that takes no text', async () => {
    const page = await call(toolset, 'browser_navigate', { url: site.url('/login') });
    const unknown = await call(toolset, 'browser_type', { ref: refOf(page.snapshot, 'textbox', 'Password'), secret: 'bank' });
    expect(unknown.error).toMatchObject({ code: 'invalid_input', message: 'There is no secret named "bank". Secrets: ledger, ledgerCode.' });
    const button = await call(toolset, 'browser_type', { ref: refOf(page.snapshot, 'button', 'Sign in'), secret: 'ledger' });
    expect(button.error.code).toBe('not_editable');
    const both = await call(toolset, 'browser_type', { ref: refOf(page.snapshot, 'textbox', 'Password'), secret: 'ledger', text: 'x' });
    expect(both.error.code).toBe('invalid_input');
    expect((await call(toolset, 'browser_snapshot', {})).ok).toBe(true);
  });

  it('keeps a typed secret out of snapshots, diffs and screenshots, and out of a page that shows it back', async () => {
    const page = await call(toolset, 'browser_navigate', { url: site.url('/code') });
    const typed = await call(toolset, 'browser_type', { ref: refOf(page.snapshot, 'textbox', 'Code'), secret: 'ledgerCode' });
    expect(typed.ok).toBe(true);
    const browserPage = await toolset.page();
    const code = await browserPage.locator('input[name=code]').inputValue();
    expect(code).toMatch(/^\d{6}$/);
    expect(JSON.stringify(typed)).not.toContain(code);
    // The page writes the code where anyone can read it: what the model gets says the secret's name instead.
    await browserPage.evaluate((value) => document.body.insertAdjacentHTML('beforeend', `<p>You typed ${value}</p>`), code);
    const snapshot = await call(toolset, 'browser_snapshot', {});
    expect(snapshot.snapshot).not.toContain(code);
    expect(snapshot.snapshot).toContain('You typed [secret ledgerCode]');
    const shot = await call(toolset, 'browser_screenshot', {});
    expect(shot.ok).toBe(true);
  });

  it('says what could not be read of a secret from the environment, without a value', async () => {
    const fromEnv = createTestToolset({ ...PATIENT, secrets: { api: { value: { env: 'NO_SUCH_SECRET_VARIABLE_53' }, origins: [site.origin] } } });
    try {
      const page = await call(fromEnv, 'browser_navigate', { url: site.url('/login') });
      const failed = await call(fromEnv, 'browser_type', { ref: refOf(page.snapshot, 'textbox', 'Password'), secret: 'api' });
      expect(failed.error).toMatchObject({ code: 'invalid_input', message: 'The secret "api" could not be read: the environment variable NO_SUCH_SECRET_VARIABLE_53 is not set' });
    } finally {
      await fromEnv.close();
    }
  });

  it('refuses a config whose origins are not origins', () => {
    expect(() => createTestToolset({ secrets: { x: { value: 'abcdef', origins: ['bank.example'] } } })).toThrow(/not an origin/);
  });
});

describe('origins a secret allows', () => {
  const vault = new SecretVault({
    bank: { value: 'correct horse', origins: ['https://bank.example', 'https://*.bank.example', 'http://127.0.0.1:8080'] },
    code: { totp: 'JBSWY3DPEHPK3PXP', origins: ['https://*.bank.example'] },
  });

  it('matches exact origins, and subdomains only where a pattern says *.', () => {
    expect(vault.namesFor(['https://bank.example/login'])).toEqual(['bank']);
    expect(vault.namesFor(['https://login.bank.example/'])).toEqual(['bank', 'code']);
    expect(vault.namesFor(['https://a.b.bank.example/x'])).toEqual(['bank', 'code']);
    expect(vault.namesFor(['http://127.0.0.1:8080/'])).toEqual(['bank']);
    for (const other of ['http://bank.example/', 'https://evilbank.example/', 'https://bank.example.evil.test/', 'https://bank.example:8443/', 'http://127.0.0.1:8081/', 'about:blank']) {
      expect(vault.namesFor([other]), other).toEqual([]);
    }
    expect(() => vault.check('code', 'https://bank.example/')).toThrow('The secret "code" may be typed only on https://*.bank.example; this field is on https://bank.example.');
  });

  it('types the current one-time code of a seed, and scrubs the value and the code out of text', async () => {
    const code = await vault.reveal('code');
    expect(code).toMatch(/^\d{6}$/);
    await vault.reveal('bank');
    expect(vault.scrub({ text: `you typed ${code} and correct horse`, list: ['correct horse'] })).toEqual({ text: 'you typed [secret code] and [secret bank]', list: ['[secret bank]'] });
  });
});

