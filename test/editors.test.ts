import { describe, expect, it } from 'vitest';
import { call, refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser({ allowEvaluate: true });

async function open(path: string): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url(path) });
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return (await call(env.browser, 'browser_snapshot', {})).snapshot;
}

/** Runs an expression in the page and returns its value. */
async function evaluate(script: string): Promise<any> {
  const result = await call(env.browser, 'browser_evaluate', { script });
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return JSON.parse(result.result);
}

/** Waits until the editor has a line of the snapshot (rich editors build themselves after load). */
async function snapshotWith(pattern: RegExp): Promise<string> {
  let snap = '';
  for (let i = 0; i < 20 && !pattern.test(snap); i++) {
    if (i) await call(env.browser, 'browser_wait', { seconds: 0.25 });
    snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
  }
  expect(snap).toMatch(pattern);
  return snap;
}

describe('editable surfaces', () => {
  it('writes text areas, contenteditable elements and editable frame bodies as multiline text boxes with their text', async () => {
    const other = env.server.otherSite('/fixtures/widgets/editable-body.html');
    // A frame that arrived after navigate answered has its refs marked new in this snapshot: the marks are not what is checked.
    const snap = await open(`/fixtures/widgets/editable-frames.html?other=${encodeURIComponent(other)}`);
    // A text area keeps its line break, and says it takes several lines.
    expect(snap).toContain('textbox "Summary" value="First line\\nsecond line" multiline');
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ textbox "Draft" value="Dear team," multiline(?: new)?$/m);
    // The body of a same-site frame, named by its frame's title, and of another site's frame.
    expect(snap).toMatch(/^\s*f\d+e\d+ textbox "Same-site editor" value="Kind regards" multiline(?: new)?$/m);
    expect(snap).toMatch(/^\s*f\d+e\d+ textbox value="Kind regards" multiline(?: new)?$/m);
    // An empty one named by its placeholder; a frame's document in design mode.
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ textbox "Add a comment" multiline(?: new)?$/m);
    expect(snap).toMatch(/^\s*f\d+e\d+ textbox "Design-mode notes" value="Plan" multiline(?: new)?$/m);

    const draft = refOf(snap, 'textbox', 'Draft');
    const typed = await call(env.browser, 'browser_type', { ref: draft, text: 'Thanks for the notes.', clear: false });
    expect(typed).toMatchObject({ ok: true, fieldValue: 'Dear team,Thanks for the notes.' });

    const otherBody = /^\s*(f\d+e\d+) textbox value="Kind regards" multiline(?: new)?$/m.exec(snap)![1]!;
    const replaced = await call(env.browser, 'browser_type', { ref: otherBody, text: 'Best wishes\nAda' });
    expect(replaced.ok, JSON.stringify(replaced)).toBe(true);
    expect(replaced.changes).toContain('textbox value="Best wishes\\nAda" multiline');
  });

  it('types into Quill, selects a word and bolds it, and makes its line a heading, with the toolbar', async () => {
    await open('/fixtures/widgets/quill.html');
    const snap = await snapshotWith(/textbox "Post body"/);
    const body = refOf(snap, 'textbox', 'Post body');
    expect(snap).toMatch(/textbox "Post body" multiline/);

    const typed = await call(env.browser, 'browser_type', { ref: body, text: 'Hello brave world\nSecond line' });
    expect(typed).toMatchObject({ ok: true, fieldValue: 'Hello brave world\nSecond line' });
    expect(typed.notices ?? []).toEqual([]);
    expect(await evaluate('quill.getText()')).toBe('Hello brave world\nSecond line\n');

    const selected = await call(env.browser, 'browser_select_text', { ref: body, text: 'brave' });
    expect(selected).toMatchObject({ ok: true, selected: 'brave' });
    const bold = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'bold') });
    expect(bold.ok, JSON.stringify(bold)).toBe(true);

    const ops = await evaluate('quill.getContents().ops');
    expect(ops).toContainEqual({ insert: 'brave', attributes: { bold: true } });
    expect(ops.filter((op: any) => op.attributes?.bold).map((op: any) => op.insert)).toEqual(['brave']);

    // A heading for the line holding a selected word, from the toolbar's picker, as a person sets one.
    expect(await call(env.browser, 'browser_select_text', { ref: body, text: 'Second' })).toMatchObject({ ok: true, selected: 'Second' });
    const picker = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Normal') });
    const heading = /\+ ((?:f\d+)?e\d+) button "Heading 1"/.exec(picker.changes ?? '');
    expect(heading, picker.changes).not.toBeNull();
    expect((await call(env.browser, 'browser_click', { ref: heading![1]! })).ok).toBe(true);
    expect(await evaluate('quill.getContents().ops')).toContainEqual({ insert: '\n', attributes: { header: 1 } });
    expect(await evaluate('quill.getSemanticHTML()')).toMatch(/<h1>Second(&nbsp;| )line<\/h1>/);

    // Appending goes at the end, and the snapshot shows the editor's text by lines.
    await call(env.browser, 'browser_type', { ref: body, text: '!', clear: false });
    expect(await evaluate('quill.getText()')).toBe('Hello brave world\nSecond line!\n');
    const after = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    expect(after).toContain(`${body} textbox "Post body" value="Hello brave world\\nSecond line!" multiline`);
  });

  it('types into TinyMCE\'s frame, selects a word and bolds it with the toolbar button', async () => {
    await open('/fixtures/widgets/tinymce.html');
    const snap = await snapshotWith(/textbox "Rich Text Area/);
    const body = /^\s*(f\d+e\d+) textbox "Rich Text Area[^"]*" multiline/m.exec(snap)![1]!;

    const typed = await call(env.browser, 'browser_type', { ref: body, text: 'Dear Ada, thanks for the engine notes.' });
    expect(typed.ok, JSON.stringify(typed)).toBe(true);
    expect(await evaluate('tinymce.activeEditor.getContent()')).toBe('<p>Dear Ada, thanks for the engine notes.</p>');

    expect(await call(env.browser, 'browser_select_text', { ref: body, text: 'engine' })).toMatchObject({ ok: true, selected: 'engine' });
    const bold = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Bold') });
    expect(bold.ok, JSON.stringify(bold)).toBe(true);
    expect(await evaluate('tinymce.activeEditor.getContent()')).toBe('<p>Dear Ada, thanks for the <strong>engine</strong> notes.</p>');
  });

  it('says which words are there when the text to select is not', async () => {
    const snap = await open('/fixtures/widgets/editable-frames.html');
    const result = await call(env.browser, 'browser_select_text', { ref: refOf(snap, 'textbox', 'Draft'), text: 'Regards' });
    expect(result.error.code).toBe('invalid_input');
    expect(result.error.message).toContain('"Dear team,"');
  });
});
