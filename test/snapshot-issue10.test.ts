/**
 * What a model needs from the snapshot on small web tasks (issue 10): text and values it can read to the end,
 * tables as rows, words drawn letter by letter, hidden labels, and a ref on every element the page reacts to,
 * with the tools working on those refs.
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

async function open(fixture: string): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/fixtures/${fixture}`) });
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result.snapshot;
}

async function text(selector: string): Promise<string> {
  const page = await env.browser.page();
  return (await page.textContent(selector)) ?? '';
}

describe('nothing cut that the agent needs', () => {
  it('shows a long instruction and a field value whole', async () => {
    const snap = await open('reading.html');
    expect(snap).toContain('Type the last sentence of the story below into the answer box, then press Submit; the sentence ends with the name of a river you must spell exactly.');
    expect(snap).toContain('value="Bring the blue folder and the two keys to the meeting on Thursday morning, and ask Ege about the river trip."');
  });

  it('counts what is left of a very long value, and the call it names shows the end', async () => {
    const snap = await open('reading.html');
    const line = /^(?:f\d+)?e\d+ textbox "Story" .*$/m.exec(snap)?.[0] ?? '';
    const more = /\(\+([\d,]+) chars: browser_snapshot (\{.*\})\)$/.exec(line);
    expect(more, line).not.toBeNull();
    expect(line).not.toContain('the banks of the Meriç');
    const rest = await call(env.browser, 'browser_snapshot', JSON.parse(more![2]!));
    expect(rest.ok).toBe(true);
    expect(rest.snapshot).toContain('At dusk the travellers finally reached the banks of the Meriç."');
    // The model can now copy the last sentence into the answer and submit it.
    await call(env.browser, 'browser_type', { ref: refBy(snap, 'textbox "Answer"'), text: 'At dusk the travellers finally reached the banks of the Meriç.' });
    const submitted = await call(env.browser, 'browser_click', { ref: refBy(snap, 'button "Submit"') });
    expect(submitted.ok).toBe(true);
    expect(await text('#out')).toBe('Correct');
  });

  it('joins a word drawn letter by letter in inline-block pieces, as the eye reads it', async () => {
    const snap = await open('reading.html');
    expect(snap).toMatch(/^Kaya 7Q$/m);
    expect(snap).toContain('Plain: Word');
  });
});

describe('tables', () => {
  it('render as rows of cells with the header once, and the controls in them work', async () => {
    const snap = await open('tables.html');
    expect(snap).toMatch(/^(?:f\d+)?e\d+ table "Prices" \(4 cols\):$/m);
    expect(snap).toContain(' | Product | Price | Stock | Action |');
    const row = /^ \| Toaster \| 31\.50 \| 0 \| ((?:f\d+)?e\d+) button "Buy" \|$/m.exec(snap);
    expect(row, snap).not.toBeNull();
    await call(env.browser, 'browser_click', { ref: row![1]! });
    expect(await text('#out')).toBe('Bought Toaster');
  });

  it('a table without header cells still shows its cells', async () => {
    const snap = await open('tables.html');
    expect(snap).toMatch(/table \(2 cols\):\n \| Monday \| 9:00–17:00 \|\n \| Saturday \| 10:00–14:00 \|\n \| Sunday \| closed \|/);
  });
});

describe('hidden labels', () => {
  it('keeps the names of controls whose text is hidden by text-indent, a title, or a visually hidden span', async () => {
    const snap = await open('hidden-labels.html');
    const next = refBy(snap, 'clickable "Next"');
    refBy(snap, 'clickable "Prev"');
    refBy(snap, 'link "Help centre"');
    refBy(snap, 'button "Close dialog"');
    await call(env.browser, 'browser_click', { ref: next });
    expect(await text('#month')).toBe('April 2024');
  });
});

describe('controls made by script', () => {
  it('a span with a click listener, contact entries with mousedown listeners, and delegated handlers get refs that work', async () => {
    const snap = await open('script-controls.html');
    await call(env.browser, 'browser_type', { ref: refBy(snap, 'textbox "Name"'), text: 'Ada' });
    await call(env.browser, 'browser_click', { ref: refBy(snap, 'clickable "Search"') });
    expect(await text('#out')).toBe('Searched for Ada');
    await call(env.browser, 'browser_click', { ref: refBy(snap, 'clickable "ada@example.com"') });
    expect(await text('#out')).toBe('Copied email');
    await call(env.browser, 'browser_click', { ref: refBy(snap, 'clickable "green"') });
    expect(await text('#out')).toBe('Picked green');
  });

  it('an empty slider handle with a tabindex gets a ref and takes keys', async () => {
    const snap = await open('script-controls.html');
    const handle = refBy(snap, 'slider icon="ui slider handle"');
    const pressed = await call(env.browser, 'browser_press', { ref: handle, key: 'ArrowRight' });
    expect(pressed.ok, JSON.stringify(pressed.error)).toBe(true);
    expect(await text('#volume-out')).toBe('40');
  });

  it('leaves the page as it was: the marks made for the capture are taken out', async () => {
    await open('script-controls.html');
    const page = await env.browser.page();
    const html = await page.evaluate(() => document.body.innerHTML);
    expect(html).not.toContain('<!---->');
    expect(html).not.toContain('aria-label');
  });
});

describe('structure', () => {
  it('a tree of nested lists says which folders are open, indents their files, and a click opens one', async () => {
    const snap = await open('tree.html');
    expect(snap).toMatch(/^(?:f\d+)?e\d+ clickable "src" expanded\n (?:f\d+)?e\d+ clickable "components" collapsed\n (?:f\d+)?e\d+ clickable "index.ts"\n(?:f\d+)?e\d+ clickable "docs" collapsed\n(?:f\d+)?e\d+ clickable "README.md"$/m);
    const opened = await call(env.browser, 'browser_click', { ref: refBy(snap, 'clickable "docs"') });
    expect(opened.changes).toMatch(/~ (?:f\d+)?e\d+ clickable "docs" expanded/);
    expect(opened.changes).toMatch(/\+ (?:f\d+)?e\d+ clickable "guide.md"/);
  });

  it('a mail row reads as its columns, and its trash icon has a ref of its own that deletes only', async () => {
    const snap = await open('mail.html');
    const row = refBy(snap, 'clickable "Charles · Lunch on Friday · Shall we meet at noon by the river"');
    const trash = new RegExp(`^ ${REF} clickable icon="trash"$`, 'm').exec(snap.slice(snap.indexOf(`${row} clickable`)))?.[1];
    expect(trash, snap).toBeDefined();
    await call(env.browser, 'browser_click', { ref: trash! });
    expect(await text('#out')).toBe('Deleted Lunch on Friday');
    const after = await call(env.browser, 'browser_snapshot', {});
    expect(after.snapshot).not.toContain('clickable "Charles');
    expect(after.snapshot).toContain('Deleted Lunch on Friday');
    await call(env.browser, 'browser_click', { ref: refBy(after.snapshot, 'clickable "Mary') });
    expect(await text('#out')).toBe('Opened Invoice 2291');
  });

  it('a long menu keeps a ref on its last item, and a list of script-made links keeps every one', async () => {
    const snap = await open('menu.html');
    await call(env.browser, 'browser_click', { ref: refBy(snap, 'menuitem "Account settings"') });
    expect(await text('#out')).toBe('Chose Account settings');
    expect(snap).not.toContain('more items');
    await call(env.browser, 'browser_click', { ref: refBy(snap, 'clickable "Topic 14"') });
    expect(await text('#out')).toBe('Went to topic 14');
  });
});
