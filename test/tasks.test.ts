/**
 * The task benchmark's harness (bench/tasks): pages judge themselves and report to the server, the parsers
 * read each system's format, and an episode through our toolset yields a complete, classified result.
 * It does not assert on our pass rate: the snapshot is improved separately, and bench:tasks measures it.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAriaYaml } from '../bench/tasks/adapters/ariaYaml.js';
import { OursAdapter } from '../bench/tasks/adapters/ours.js';
import { breakdownOf, EpisodeMemory, toolKey } from '../bench/tasks/breakdown.js';
import { parseOurs } from '../bench/tasks/adapters/oursFormat.js';
import { runEpisode } from '../bench/tasks/episode.js';
import { TASKS } from '../bench/tasks/pages/index.js';
import { specOf, startTaskServer, type TaskServer } from '../bench/tasks/server.js';
import { CATEGORIES, type TaskDef } from '../bench/tasks/types.js';
import { findBrowser } from '../src/index.js';
import { OFFLINE_ARGS } from './helpers/server.js';

const task = (id: string): TaskDef => TASKS.find((t) => t.id === id)!;

let server: TaskServer;
let browser: Browser;
let page: Page;
let episodes = 0;

beforeAll(async () => {
  server = await startTaskServer(TASKS);
  browser = await chromium.launch({ executablePath: (await findBrowser({})).executablePath, args: OFFLINE_ARGS });
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a task page for a fresh episode; returns the episode id and the spec the page was made from. */
async function open<S>(id: string, seed = 1): Promise<{ episode: string; spec: S }> {
  const episode = `test-${++episodes}`;
  await page.goto(server.taskUrl(id, seed, episode));
  return { episode, spec: specOf(task(id), seed) as S };
}

/** The page posts its verdict with fetch: wait for it to reach the server. */
async function verdictOf(episode: string) {
  await expect.poll(() => server.verdict(episode), { timeout: 3_000 }).toBeDefined();
  return server.verdict(episode)!;
}

describe('task pages', () => {
  it('cover every category with at least 40 tasks, unique ids, and a page that renders for several seeds', async () => {
    expect(TASKS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(TASKS.map((t) => t.id)).size).toBe(TASKS.length);
    expect(new Set(TASKS.map((t) => t.category))).toEqual(new Set(CATEGORIES));
    for (const t of TASKS) {
      for (const seed of [1, 2, 3]) {
        const html = t.render(specOf(t, seed), { page: 'main', episode: 'x', url: () => '/', otherSite: () => '/', fileUrl: () => '/' });
        expect(html, `${t.id}#${seed}`).toContain('id="query"');
      }
    }
    // Seeds change the page.
    expect(JSON.stringify(specOf(task('form-fields'), 1))).not.toBe(JSON.stringify(specOf(task('form-fields'), 2)));
  });

  it('report success when solved with direct Playwright actions, failure when not', async () => {
    type Fields = { fields: Array<{ label: string; value: string }>; submit: string };
    const solved = await open<Fields>('form-fields');
    for (const f of solved.spec.fields) await page.getByLabel(f.label, { exact: true }).fill(f.value);
    await page.getByRole('button', { name: solved.spec.submit }).click();
    expect(await verdictOf(solved.episode)).toMatchObject({ success: true });

    const wrong = await open<Fields>('form-fields');
    await page.getByLabel(wrong.spec.fields[0]!.label, { exact: true }).fill('not this');
    await page.getByRole('button', { name: wrong.spec.submit }).click();
    expect(await verdictOf(wrong.episode)).toMatchObject({ success: false });

    type Rows = { target: number; action: string; rows: unknown[] };
    const row = await open<Rows>('table-row-action');
    await page.locator(`tr[data-i="${row.spec.target}"] button[data-a="${row.spec.action}"]`).click();
    expect(await verdictOf(row.episode)).toMatchObject({ success: true });

    const otherRow = await open<Rows>('table-row-action');
    await page.locator(`tr[data-i="${(otherRow.spec.target + 1) % otherRow.spec.rows.length}"] button[data-a="${otherRow.spec.action}"]`).click();
    expect(await verdictOf(otherRow.episode)).toMatchObject({ success: false });
  });

  it('judge dialogs by the answer given, and report nothing until the task is decided', async () => {
    type Files = { files: string[]; target: number };
    const accepted = await open<Files>('dialog-confirm');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete ${accepted.spec.files[accepted.spec.target]}` }).click();
    expect(await verdictOf(accepted.episode)).toMatchObject({ success: true });

    const dismissed = await open<Files>('dialog-confirm');
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: `Delete ${dismissed.spec.files[dismissed.spec.target]}` }).click();
    await page.waitForTimeout(300);
    expect(server.verdict(dismissed.episode)).toBeUndefined();
    expect(await page.evaluate(() => (window as { __taskResult?: unknown }).__taskResult)).toBeUndefined();
  });
});

describe('parsers', () => {
  it('read our snapshot lines and changes', () => {
    const view = parseOurs(
      'page "T" http://x/\nwhole page in view\n# Title\nSome text…\ne5 textbox "Notes" value="a \\"b\\"" required\ne9 button icon="trash"\ne13 table:\n e16 columnheader "Name"\n- … 12 more items (browser_snapshot ref e40 lists them)',
      'snapshot',
    );
    expect(view.find((i) => i.ref === 'e5')).toMatchObject({ role: 'textbox', name: 'Notes', value: 'a "b"', states: ['required'] });
    expect(view.find((i) => i.ref === 'e9')).toMatchObject({ role: 'button', name: '', icon: 'trash' });
    expect(view.find((i) => i.ref === 'e16')?.parent).toBe(view.find((i) => i.ref === 'e13')?.index);
    expect(view.text).toContain('Some text…');
    const changes = parseOurs('+ e20 option "Sweden"\n~ e5 textbox "Notes" value="x"\n- e7 button "Gone"', 'changes', true);
    expect(changes.items.map((i) => i.ref)).toEqual(['e20', 'e5']);
  });

  it('read Playwright MCP and agent-browser aria snapshots', () => {
    const pw = parseAriaYaml(
      '- generic [ref=e1]:\n  - generic [ref=e2]: Click "Snooze".\n  - textbox "Notes" [ref=e3]: the value\n  - checkbox "A" [checked] [ref=e4]\n  - row [ref=e5]:\n    - cell "Ada" [ref=e6]\n  - combobox [ref=e7]:\n    - option "Red"\n    - option "Green" [selected]\n  - link "Next" [ref=e8] [cursor=pointer]:\n    - /url: "#"',
      'snapshot',
    );
    expect(pw.find((i) => i.ref === 'e2')).toMatchObject({ role: 'generic', text: 'Click "Snooze".' });
    expect(pw.find((i) => i.ref === 'e3')).toMatchObject({ value: 'the value' });
    expect(pw.find((i) => i.ref === 'e4')?.states).toContain('checked');
    expect(pw.find((i) => i.ref === 'e7')?.value).toBe('Green');
    expect(pw.descendants(pw.find((i) => i.ref === 'e5')!).map((i) => i.name)).toEqual(['Ada']);
    // YAML single-quotes an entry whose text holds `{` or `: `; it is an element all the same.
    const quotedEntry = parseAriaYaml(`- 'button "GET /pets/{petId} Find a pet" [ref=e53]':\n  - generic [ref=e54]: GET`, 'snapshot');
    expect(quotedEntry.find((i) => i.ref === 'e53')).toMatchObject({ role: 'button', name: 'GET /pets/{petId} Find a pet' });
    const mab = parseAriaYaml('- textbox "Notes" @e1\n- option "Red" @e5 [selected]\n  - text: Captcha: q u a r k', 'snapshot');
    expect(mab.find((i) => i.ref === '@e5')?.states).toEqual(['selected']);
    expect(mab.text).toContain('Captcha: q u a r k');
  });
});

describe('episodes through our toolset', () => {
  const ours = new OursAdapter();
  beforeAll(() => ours.start());
  afterAll(() => ours.close());

  it('give a complete result: outcome, cause when failed, tool calls, tokens and a trace', async () => {
    for (const id of ['form-select', 'tabs-aria', 'dialog-confirm']) {
      const result = await runEpisode(ours, server, task(id), 1);
      expect(result).toMatchObject({ task: id, seed: 1, system: 'ours' });
      expect(result.toolCalls).toBeGreaterThan(0);
      expect(result.trace.length).toBe(result.toolCalls);
      expect(result.trace[0]).toMatch(/^browser_navigate /);
      expect(result.tokens).toBeGreaterThan(0);
      if (!result.success) expect(result.cause).toBeDefined();
      // Where the tokens went: one breakdown per call, its parts adding up to the call's tokens.
      expect(result.calls!.length).toBe(result.toolCalls);
      expect(result.calls!.reduce((n, c) => n + c.tokens, 0)).toBe(result.tokens);
      for (const call of result.calls!) expect(Object.values(call.parts).reduce((a, b) => a + b, 0)).toBeCloseTo(call.tokens, 0);
      expect(result.calls![0]!.parts.page).toBeGreaterThan(0);
    }
  });

  it('say where a result\'s tokens go, and what the model had read before', () => {
    const memory = new EpisodeMemory();
    const navigate = 'status: 200\npage "Shop" http://shop.test/\nwhole page in view\n# Basket\nf2e5 button "Pay"\nf2e6 link "Help"';
    const first = breakdownOf('ours', 'browser_navigate {"url":"http://shop.test/"}', navigate, countTokens(navigate), memory);
    expect(Object.keys(first.parts).sort()).toEqual(['elements', 'page', 'position', 'status', 'text']);
    expect(first.repeated).toEqual({});
    const click = 'clicked: f2e5 (button "Pay")\nurl: http://shop.test/\nnavigated: false\nchanges:\n+ Paid.';
    const second = breakdownOf('ours', 'browser_click {"ref":"f2e5"}', click, countTokens(click), memory);
    expect(Object.keys(second.parts).sort()).toEqual(['changes', 'page', 'status']);
    expect(second.cuts).toMatchObject({ pageLineUnchanged: expect.any(Number), falseFields: expect.any(Number), callEcho: expect.any(Number), framePrefix: expect.any(Number) });
    const again = breakdownOf('ours', 'browser_snapshot {}', navigate.replace('status: 200\n', ''), countTokens(navigate.replace('status: 200\n', '')), memory);
    expect(again.repeated.elements).toBe(again.parts.elements);
    expect(again.repeated.text).toBe(again.parts.text);
    expect(toolKey('browser_snapshot {"find":"Pay"}')).toBe('browser_snapshot {find}');
  });

  it('stop at the step budget', async () => {
    const result = await runEpisode(ours, server, task('long-form'), 1, { budget: 2 });
    expect(result).toMatchObject({ success: false, cause: 'step_budget', toolCalls: 2 });
  });
});
