import { describe, expect, it } from 'vitest';
import { call, createTestToolset, refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

async function inbox(): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/icons.html') });
  expect(result.ok).toBe(true);
  return result.snapshot;
}

describe('snapshot details', () => {
  it('names icon-only controls from their icon, symbol or test id', async () => {
    const snap = await inbox();
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ button icon="trash can"$/m);
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ button icon="star"$/m);
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ button icon="more actions"$/m);
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ link icon="gear" -> \/settings$/m);
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ clickable "Unread only"$/m);
  });

  it('puts a covering overlay and its controls first, with a warning that names it', async () => {
    const snap = await inbox();
    const lines = snap.split('\n');
    expect(lines[2]).toMatch(/^! cookie consent wall: accept it with (?:f\d+)?e\d+ \(its controls are listed first\)$/);
    expect(lines[3]).toMatch(/button "Accept all"$/);
    expect(lines[4]).toMatch(/button "Manage choices"$/);
  });

  it('summarises a long run of list items, and the ref option lists them all', async () => {
    const snap = await inbox();
    expect(snap).toContain('- Message 5');
    expect(snap).not.toContain('- Message 9');
    const more = /- … 7 more items \(browser_snapshot ref ((?:f\d+)?e\d+) lists them\)/.exec(snap);
    expect(more, snap).not.toBeNull();
    const all = await call(env.browser, 'browser_snapshot', { ref: more![1] });
    expect(all.snapshot).toContain('- Message 12');
  });

  it('find returns only matching lines with their context', async () => {
    await inbox();
    const found = await call(env.browser, 'browser_snapshot', { find: 'message 1' });
    expect(found.snapshot).toMatch(/find "message 1": 4 matches/);
    expect(found.snapshot).toContain('# Inbox');
    expect(found.snapshot).toContain('- Message 12');
    expect(found.snapshot).not.toMatch(/button "Accept all"/);
    expect(found.snapshot).not.toContain('Message 2\n');
  });

  it('marks elements that appeared since the last snapshot as new, and the click diff shows them', async () => {
    const snap = await inbox();
    await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Accept all') });
    const clicked = await call(env.browser, 'browser_click', { ref: refOf(snap, 'button', 'Show more') });
    expect(clicked.changes).toMatch(/^\+ (?:f\d+)?e\d+ button "Archive all"$/m);
    const fresh = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/icons.html') });
    expect(fresh.snapshot).not.toContain(' new');
    const page = await env.browser.page();
    await page.evaluate(() => (document.getElementById('later')!.hidden = false));
    const after = await call(env.browser, 'browser_snapshot', {});
    expect(after.snapshot).toMatch(/button "Archive all" new$/m);
    expect(after.snapshot).not.toMatch(/button "Show more" new/);
  });

  it('leaves out frames that show nothing (an empty ad slot, a frame of no size), shows the rest, and gives the page its markup back', async () => {
    const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/blank-frames.html') });
    expect(result.ok).toBe(true);
    const snap: string = result.snapshot;
    // The empty slot's fallback text is never shown by a browser; the frame of no size holds a form nobody sees.
    expect(snap).not.toContain('Your browser does not show frames');
    expect(snap).not.toContain('No radar without frames');
    expect(snap.match(/ iframe:$/gm)).toHaveLength(2);
    expect(snap.match(/textbox "Card number"/g)).toHaveLength(1);
    expect(snap).toMatch(/iframe:\n\s+Sunny, 21 degrees$/m);
    expect(snap).toContain('The end of the story.');
    expect((await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'Card number'), text: '4242' })).ok).toBe(true);
    // Hidden only for the capture: no mark, style sheet or style of ours is left in the page.
    const page = await env.browser.page();
    const left = await page.evaluate(() => {
      const widget = (document.getElementById('widget') as HTMLIFrameElement).contentDocument!;
      return {
        marked: [document, widget].map((doc) => doc.querySelectorAll('iframe[data-mastra-browser-toolset-blank]').length),
        sheets: [document, widget].map((doc) => doc.adoptedStyleSheets.length),
        styles: [...document.querySelectorAll('iframe')].map((frame) => frame.getAttribute('style')),
      };
    });
    expect(left).toEqual({ marked: [0, 0], sheets: [0, 0], styles: ['width: 300px; height: 250px; border: 0', 'border: 0', 'border: 1px solid gray', null] });
    // The ad arrives: the next snapshot shows it.
    await page.evaluate(() => ((document.getElementById('slot') as HTMLIFrameElement).contentDocument!.body.innerHTML = '<a href="/fixtures/page-a.html">Shoes on sale</a>'));
    expect((await call(env.browser, 'browser_snapshot', {})).snapshot).toMatch(/iframe:\n\s+(?:f\d+)?e\d+ link "Shoes on sale"/);
  });
});

describe('disclosures and trees', () => {
  it('a <summary> toggle is clickable and says whether it is open; tree items say whether they hold children', async () => {
    const nav = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/widgets.html') });
    const snap = (await call(env.browser, 'browser_snapshot', { scope: 'page' })).snapshot;
    void nav;
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ clickable "Shipping details" collapsed$/m);
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ treeitem "src" collapsed$/m);
    expect(snap).toMatch(/^\s*(?:f\d+)?e\d+ treeitem "README.md"$/m);
    const opened = await call(env.browser, 'browser_click', { ref: refOf(snap, 'clickable', 'Shipping details') });
    expect(opened.changes).toMatch(/~ .*clickable "Shipping details" expanded/);
    expect(opened.changes).toContain('+ Ships in 2 days.');
    const folder = await call(env.browser, 'browser_click', { ref: refOf(snap, 'treeitem', 'src') });
    expect(folder.changes).toMatch(/~ .*treeitem "src" expanded/);
    expect(folder.changes).toMatch(/\+ .*treeitem "index.ts"/);
  });
});
