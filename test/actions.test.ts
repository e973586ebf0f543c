import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROWSER_TOOL_IDS } from '../src/index.js';
import { call, createTestToolset, refOf, useServerAndBrowser } from './helpers/toolset.js';

const uploadDir = mkdtempSync(join(tmpdir(), 'mbt-upload-'));
const downloadDir = mkdtempSync(join(tmpdir(), 'mbt-download-'));
writeFileSync(join(uploadDir, 'cv.pdf'), '%PDF-1.4 fake');
writeFileSync(join(uploadDir, 'photo.png'), 'not really a png');
const env = useServerAndBrowser({ uploadDir, downloadDir, allowEvaluate: true, secretFields: ['input[name=ssn]'] });

async function openWidgets(): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/widgets.html') });
  expect(result.ok).toBe(true);
  return (await call(env.browser, 'browser_snapshot', { scope: 'page', maxTokens: 10_000 })).snapshot;
}

describe('browser_select', () => {
  it('selects in a native select and a multi-select, by label, value or index', async () => {
    const snap = await openWidgets();
    const size = await call(env.browser, 'browser_select', { ref: refOf(snap, 'combobox', 'Size'), labels: ['Large'] });
    expect(size).toMatchObject({ ok: true, selected: ['Large'] });
    expect(size.changes).toMatch(/~ .*combobox "Size" value="Large"/);

    const toppings = refOf(snap, 'listbox', 'Toppings');
    expect((await call(env.browser, 'browser_select', { ref: toppings, values: ['ham', 'pine'] })).selected).toEqual(['Ham', 'Pineapple']);
    expect((await call(env.browser, 'browser_select', { ref: toppings, index: 1 })).selected).toEqual(['Olives']);

    const wrong = await call(env.browser, 'browser_select', { ref: refOf(snap, 'combobox', 'Size'), labels: ['Huge'] });
    expect(wrong.error.code).toBe('invalid_input');
    expect(wrong.error.message).toContain('"Medium"');
  });

  it('picks an option of a custom ARIA combobox', async () => {
    const snap = await openWidgets();
    const result = await call(env.browser, 'browser_select', { ref: refOf(snap, 'combobox', 'City'), labels: ['Lisbon'] });
    expect(result.ok).toBe(true);
    expect(result.changes).toContain('Chosen: Lisbon');
  });
});

describe('browser_check', () => {
  it('checks and unchecks checkboxes, radios and switches, idempotently', async () => {
    const snap = await openWidgets();
    const news = refOf(snap, 'checkbox', 'Send me news');
    expect((await call(env.browser, 'browser_check', { ref: news, checked: true })).checked).toBe(true);
    const again = await call(env.browser, 'browser_check', { ref: news, checked: true });
    expect(again).toMatchObject({ ok: true, checked: true });
    expect(again.changes).toBeUndefined();
    expect((await call(env.browser, 'browser_check', { ref: news, checked: false })).checked).toBe(false);
    expect((await call(env.browser, 'browser_check', { ref: refOf(snap, 'radio', 'Express'), checked: true })).checked).toBe(true);
    const dark = await call(env.browser, 'browser_check', { ref: refOf(snap, 'switch', 'Dark mode'), checked: true });
    expect(dark).toMatchObject({ ok: true, checked: true });
    expect(dark.changes).toMatch(/~ .*switch "Dark mode" checked/);
  });
});

describe('browser_press and browser_hover', () => {
  it('presses keys on an element and reports what changed', async () => {
    const snap = await openWidgets();
    const quick = refOf(snap, 'textbox', 'Quick search');
    await call(env.browser, 'browser_type', { ref: quick, text: 'kettle' });
    const pressed = await call(env.browser, 'browser_press', { ref: quick, key: 'Enter' });
    expect(pressed.ok).toBe(true);
    expect(pressed.changes).toContain('+ Searched for: kettle');
    expect((await call(env.browser, 'browser_press', { key: 'Control+A' })).ok).toBe(true);
    const bad = await call(env.browser, 'browser_press', { key: 'NotAKey' });
    expect(bad.error.code).toBe('invalid_input');
  });

  it('hovering opens a menu whose items appear in the result', async () => {
    const snap = await openWidgets();
    const hovered = await call(env.browser, 'browser_hover', { ref: refOf(snap, 'button', 'Account') });
    expect(hovered.ok).toBe(true);
    expect(hovered.changes).toMatch(/\+ .*menuitem "Profile"/);
  });
});

describe('browser_drag', () => {
  it('drags a card onto a drop zone', async () => {
    const snap = await openWidgets();
    const card = /^\s*((?:f\d+)?e\d+) draggable "Card A"/m.exec(snap)?.[1];
    expect(card, snap).toBeTruthy();
    const done = /^\s*((?:f\d+)?e\d+) region "Done":/m.exec(snap)![1]!;
    const result = await call(env.browser, 'browser_drag', { from: card!, to: done });
    expect(result.ok).toBe(true);
    expect((await call(env.browser, 'browser_snapshot', {})).snapshot).toContain('Done: Card A');
  });
});

describe('browser_history and browser_tabs', () => {
  it('goes back and forward, with a snapshot of the page landed on', async () => {
    const snap = await openWidgets();
    await call(env.browser, 'browser_click', { ref: refOf(snap, 'link', 'Go to page A') });
    const back = await call(env.browser, 'browser_history', { action: 'back' });
    expect(back).toMatchObject({ ok: true, moved: true, navigated: true, url: env.server.url('/fixtures/widgets.html') });
    expect(back.snapshot).toMatch(/^page "Widgets" /);
    const forward = await call(env.browser, 'browser_history', { action: 'forward' });
    expect(forward.snapshot).toContain('# Page A');
    const reload = await call(env.browser, 'browser_history', { action: 'reload' });
    expect(reload).toMatchObject({ ok: true, navigated: true });
  });

  it('lists, opens, switches and closes tabs; popups are tracked', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/list.html') });
    const snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    const popup = await call(env.browser, 'browser_click', { ref: refOf(snap, 'link', 'Open the catalogue in a new tab') });
    expect(popup.newTab.title).toBe('Catalogue');
    expect(popup.snapshot).toContain('# Catalogue');

    let tabs = (await call(env.browser, 'browser_tabs', { action: 'list' })).tabs;
    expect(tabs.length).toBeGreaterThanOrEqual(2);
    expect(tabs.find((t: any) => t.active).title).toBe('Catalogue');

    const opened = await call(env.browser, 'browser_tabs', { action: 'new', url: env.server.url('/fixtures/page-b.html') });
    expect(opened.snapshot).toContain('# Page B');
    const listIndex = opened.tabs.find((t: any) => t.title === 'Products').index;
    const switched = await call(env.browser, 'browser_tabs', { action: 'switch', index: listIndex });
    expect(switched.snapshot).toContain('# Products');
    const count = switched.tabs.length;
    tabs = (await call(env.browser, 'browser_tabs', { action: 'close' })).tabs;
    expect(tabs).toHaveLength(count - 1);
    expect((await call(env.browser, 'browser_tabs', { action: 'switch', index: 99 })).error.code).toBe('invalid_input');
  });
});

describe('browser_wait', () => {
  it('waits for text that a page renders after a delay', async () => {
    const snap = await openWidgets();
    await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Search slowly') });
    const waited = await call(env.browser, 'browser_wait', { text: '3 results found' });
    expect(waited).toMatchObject({ ok: true, seen: 'The text "3 results found" is visible.' });
    expect(waited.snapshot).toContain('3 results found');
    const timeout = await call(env.browser, 'browser_wait', { text: 'never shows up', seconds: 1 });
    expect(timeout.error.code).toBe('timeout');
    expect(timeout.error.snapshot).toContain('# Widgets');
  });
});

describe('dialogs', () => {
  it('a prompt waits for the agent, who answers with text', async () => {
    const snap = await openWidgets();
    const clicked = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Rename') });
    expect(clicked.dialogs).toEqual([{ type: 'prompt', message: 'New name?', handled: 'pending', defaultValue: 'Untitled' }]);
    const answered = await call(env.browser, 'browser_dialog', { accept: true, text: 'Kettle plan' });
    expect(answered.dialog.handled).toBe('accepted');
    expect(answered.snapshot).toContain('Name: Kettle plan');
    expect((await call(env.browser, 'browser_dialog', { accept: true })).error.code).toBe('invalid_input');
  });
});

describe('files', () => {
  it('a download is saved and reported by the click that caused it', async () => {
    const snap = await openWidgets();
    const result = await call(env.browser, 'browser_click', { ref: refOf(snap, 'link', 'Download report') });
    expect(result.ok).toBe(true);
    expect(result.downloads).toEqual([{ file: 'report.csv', path: join(downloadDir, 'report.csv'), type: 'CSV table', bytes: 26 }]);
    expect(readFileSync(join(downloadDir, 'report.csv'), 'utf8')).toContain('jan,10');
  });

  it('an address that serves a file is saved and listed by navigate, and the tab keeps its page', async () => {
    await openWidgets();
    rmSync(join(downloadDir, 'report.csv'), { force: true });
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/download/report.csv') });
    expect(result.ok).toBe(true);
    // A second file of the same name in the session is kept beside the first.
    expect(result.downloads).toEqual([{ file: 'report (2).csv', path: join(downloadDir, 'report (2).csv'), type: 'CSV table', bytes: 26 }]);
    expect(readFileSync(join(downloadDir, 'report (2).csv'), 'utf8')).toContain('feb,12');
    expect(result.file).toContain('| feb | 12 |');
    expect(result.url).toBe(env.server.url('/fixtures/widgets.html'));
    expect(result.snapshot).toContain('Download report');
  });

  it('a file still downloading when navigate runs out of time is a timeout that says it goes on being saved', async () => {
    // 8 s for the file alone (the browser is started first): it begins to arrive well within them, and never ends.
    const browser = createTestToolset({ navigationTimeout: 8_000, downloadDir });
    try {
      await call(browser, 'browser_navigate', { url: 'about:blank' });
      const result = await call(browser, 'browser_navigate', { url: env.server.url('/download/large.bin') });
      expect(result.ok).toBe(false);
      expect(result.error.code).toBe('timeout');
      expect(result.error.message).toContain('is a file, still downloading');
    } finally {
      await browser.close();
    }
  });

  it('uploads files from the upload directory only', async () => {
    const snap = await openWidgets();
    const input = refOf(snap, 'button', 'Attachment');
    const uploaded = await call(env.browser, 'browser_upload', { ref: input, paths: ['cv.pdf', 'photo.png'] });
    expect(uploaded.ok).toBe(true);
    expect(uploaded.changes).toContain('Attached: cv.pdf, photo.png');
    for (const path of ['../../etc/passwd', '/etc/passwd', 'missing.txt']) {
      const refused = await call(env.browser, 'browser_upload', { ref: input, paths: [path] });
      expect(refused.error.code, path).toBe('invalid_input');
    }
  });
});

describe('secret fields', () => {
  it('card numbers and configured secret fields are masked in results, diffs and snapshots', async () => {
    const snap = await openWidgets();
    const card = await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'Card number'), text: '4242424242424242' });
    const ssn = await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'SSN'), text: '078-05-1120' });
    expect(card.fieldValue).toBe('••••••');
    expect(ssn.fieldValue).toBe('••••••');
    const after = await call(env.browser, 'browser_snapshot', { scope: 'page' });
    const everything = JSON.stringify([card, ssn, after]);
    expect(everything).not.toContain('4242424242424242');
    expect(everything).not.toContain('078-05-1120');
    expect(after.snapshot).toMatch(/textbox "Card number" value="••••••"/);
  });
});

describe('form validation', () => {
  it('a submit the env.browser refuses reports the invalid fields', async () => {
    const snap = await openWidgets();
    await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'Work email'), text: 'not-an-email' });
    const result = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Send') });
    expect(result.ok).toBe(true);
    expect(result.invalidFields?.[0]).toMatch(/^Work email: .*@/);
  });
});

describe('browser_read', () => {
  it('reads the main article as Markdown, in pages', async () => {
    await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/article.html') });
    const first = await call(env.browser, 'browser_read', { maxTokens: 500 });
    expect(first.ok).toBe(true);
    expect(first.title).toBe('A history of kettles');
    expect(first.markdown).toContain('## Chapter 1');
    expect(first.markdown).not.toContain('Buy the best kettle');
    expect(first.tokens).toBeLessThanOrEqual(500);
    expect(first.pages).toBeGreaterThan(3);
    const last = await call(env.browser, 'browser_read', { maxTokens: 500, page: first.pages });
    expect(last.markdown).toContain('The end of the kettle story.');
    expect((await call(env.browser, 'browser_read', { maxTokens: 500, page: first.pages + 1 })).error.code).toBe('invalid_input');
  });
});

describe('browser_screenshot', () => {
  it('returns a JPEG the model can see, with ref labels on request', async () => {
    await openWidgets();
    const shot = await call(env.browser, 'browser_screenshot', { labels: true });
    expect(shot).toMatchObject({ ok: true, mediaType: 'image/jpeg', width: 1280, height: 720 });
    expect(shot.labels).toBeGreaterThan(5);
    expect(Buffer.from(shot.image, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const model = (env.browser.tools.browser_screenshot as any).toModelOutput(shot);
    expect(model.value[1]).toMatchObject({ type: 'image-data', mediaType: 'image/jpeg' });
    // Labels are removed after the picture.
    const page = await env.browser.page();
    expect(await page.evaluate(() => document.getElementById('__mbt_marks'))).toBeNull();
  });
});

describe('browser_evaluate', () => {
  it('runs only when enabled', async () => {
    await openWidgets();
    expect((await call(env.browser, 'browser_evaluate', { script: 'document.title' })).result).toBe('"Widgets"');
    expect((await call(env.browser, 'browser_evaluate', { script: 'const n = 2; return n * 21;' })).result).toBe('42');
    const plain = createTestToolset();
    expect(Object.keys(plain.tools)).not.toContain('browser_evaluate');
    // Uploads take the session's downloads even without an upload folder.
    expect(Object.keys(plain.tools)).toContain('browser_upload');
    await plain.close();
  });
});

describe('tool selection', () => {
  it('include and exclude choose the tools; an unknown id is refused', () => {
    const text = createTestToolset({ tools: { exclude: ['browser_screenshot'] } });
    expect(Object.keys(text.tools)).not.toContain('browser_screenshot');
    expect(Object.keys(text.tools)).toContain('browser_read');
    const small = createTestToolset({ tools: { include: ['browser_navigate', 'browser_snapshot'] } });
    expect(Object.keys(small.tools)).toEqual(['browser_navigate', 'browser_snapshot']);
    expect(() => createTestToolset({ tools: { include: ['browser_fly'] } })).toThrow(/unknown tool "browser_fly"/);
  });
});

describe('bad arguments', () => {
  const bad: Array<Record<string, unknown>> = [
    {},
    { ref: 12345 },
    { ref: '' },
    { ref: 'e99999' },
    { ref: 'x'.repeat(100_000) },
    { url: '' },
    { url: 'x'.repeat(100_001) },
    { url: 'no-such-host.invalid' },
    { text: null },
    { key: '' },
    { action: 'explode' },
    { direction: 'sideways', amount: -5 },
    { from: 'e1', to: 7 },
    { paths: [] },
    { script: '' },
  ];

  it('every tool answers every bad argument with a structured error, never a throw', async () => {
    await openWidgets();
    for (const id of BROWSER_TOOL_IDS) {
      const tool = (env.browser.tools as any)[id];
      for (const input of bad) {
        const result = await tool.execute(input, {});
        const label = `${id} ${JSON.stringify(input).slice(0, 80)}`;
        expect(typeof result, label).toBe('object');
        if (result.ok) continue; // some inputs are valid for some tools (e.g. {} for snapshot)
        expect(['invalid_input', 'element_not_found', 'stale_ref', 'timeout', 'navigation_failed'], `${label}: ${JSON.stringify(result.error)}`).toContain(result.error.code);
        expect(result.error.hint.length, label).toBeGreaterThan(10);
      }
    }
    // The session is still usable.
    expect((await call(env.browser, 'browser_snapshot', {})).ok).toBe(true);
  });
});
