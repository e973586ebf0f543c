/**
 * browser_drag on the libraries real pages use (issue 46): SortableJS with HTML5 drag events and with pointer
 * events (lists, a board, a long list, rows moved by a grip), dragula, jQuery UI sortable and droppable, a board
 * on the HTML5 drag and drop API, and grids that move rows by a handle (ag-grid, Tabulator). Each test reads
 * the order from the widget itself, as the page would save it.
 */
import { describe, expect, it } from 'vitest';
import { call, createTestToolset, refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

async function open(fixture: string): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/fixtures/widgets/${fixture}`) });
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result.snapshot;
}

/** Runs `script` in the page and returns its value: the widget's own state. */
async function read<T>(script: string): Promise<T> {
  const page = await env.browser.page();
  return page.evaluate(script) as Promise<T>;
}

async function snapshot(): Promise<string> {
  return (await call(env.browser, 'browser_snapshot', {})).snapshot;
}

/** The ref of a grid cell by its text, as a model reads it off a table row. */
function cellRef(snap: string, name: string): string {
  const match = new RegExp(`^.*?((?:f\\d+)?e\\d+) (?:gridcell )?"${name}"`, 'm').exec(snap);
  if (!match) throw new Error(`No cell "${name}" in:\n${snap}`);
  return match[1]!;
}

interface DragArgs {
  position?: 'before' | 'after';
  /** Role of both elements in the snapshot, or of the target alone with `toRole`. */
  role?: string;
  toRole?: string;
}

/** Drags the element named `from` onto the one named `to`, both found in `snap`; the call must succeed. */
/** What the snapshot calls an element that is no control but reacts: a grab cursor makes it `draggable`. */
const REACTING = '(?:clickable|draggable)';

async function drag(snap: string, from: string, to: string, { position, role = REACTING, toRole = role }: DragArgs = {}): Promise<any> {
  const result = await call(env.browser, 'browser_drag', { from: refOf(snap, role, from), to: refOf(snap, toRole, to), ...(position ? { position } : {}) });
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result;
}

/** Drags one ref onto another; the call must succeed. */
async function dragRef(from: string, to: string): Promise<any> {
  const result = await call(env.browser, 'browser_drag', { from, to });
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result;
}

describe('browser_drag on SortableJS', () => {
  for (const [mode, list, names] of [
    ['HTML5 drag events', 'native', ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']],
    ['pointer events (forceFallback)', 'fallback', ['One', 'Two', 'Three', 'Four', 'Five']],
  ] as const) {
    it(`reorders a list driven by ${mode}: onto an item down and up, before and after one`, async () => {
      const [a, b, c, d, e] = names;
      const order = async () => {
        const ids = await read<string[]>(`lists.${list}.toArray()`);
        return ids.map((id) => names[(list === 'native' ? 'ABCDE'.indexOf(id) : Number(id) - 1)]);
      };
      await open('sortable.html');
      // Dragged down onto an item, the element takes its place: after it.
      const down = await drag(await snapshot(), a, d);
      expect(await order()).toEqual([b, c, d, a, e]);
      expect(down.dragged).toMatch(new RegExp(`"${a}".* onto .*"${d}"`));
      // The page's diff has no line for a reorder: the result says where the element landed.
      expect(down.landed).toBe(`between "${d}" and "${e}" (4 of 5)`);
      // Dragged up onto an item: before it.
      await drag(await snapshot(), e, b);
      expect(await order()).toEqual([e, b, c, d, a]);
      // Asked for, the other side: before an item further down, after one further up.
      await drag(await snapshot(), b, d, { position: 'before' });
      expect(await order()).toEqual([e, c, b, d, a]);
      await drag(await snapshot(), a, e, { position: 'after' });
      expect(await order()).toEqual([e, a, c, b, d]);
    });
  }
});

describe('browser_drag on a horizontal SortableJS list', () => {
  it('reorders tabs in a row: right, left, and after one further left', async () => {
    await open('sortable.html');
    await drag(await snapshot(), 'Inbox', 'Sent');
    expect(await read('lists.tabs.toArray()')).toEqual(['drafts', 'sent', 'inbox', 'spam']);
    await drag(await snapshot(), 'Spam', 'Drafts');
    expect(await read('lists.tabs.toArray()')).toEqual(['spam', 'drafts', 'sent', 'inbox']);
    await drag(await snapshot(), 'Drafts', 'Inbox', { position: 'after' });
    expect(await read('lists.tabs.toArray()')).toEqual(['spam', 'sent', 'inbox', 'drafts']);
  });
});

describe('browser_drag in a frame', () => {
  it('reorders a list inside an iframe', async () => {
    // A frame tall enough to show the list: a drag that must scroll inside a frame is not what this is about.
    await call(env.browser, 'browser_navigate', { url: env.server.url('/frame?to=/fixtures/widgets/handles.html&height=400') });
    const page = await env.browser.page();
    await page.frameLocator('iframe').getByText('Print list').waitFor();
    await drag(await snapshot(), 'Move Pack bags', 'Move Lock door', { role: 'button' });
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await frame.evaluate('steps.toArray()')).toEqual(['water', 'lock', 'pack', 'taxi']);
  });
});

describe('browser_drag by a handle', () => {
  it("moves a row by its grip, dropped on another row's grip", async () => {
    let snap = await open('handles.html');
    await drag(snap, 'Move Pack bags', 'Move Lock door', { role: 'button' });
    expect(await read('steps.toArray()')).toEqual(['water', 'lock', 'pack', 'taxi']);
    snap = await snapshot();
    await drag(snap, 'Move Call taxi', 'Move Water plants', { position: 'after', role: 'button' });
    expect(await read('steps.toArray()')).toEqual(['water', 'taxi', 'lock', 'pack']);
  });

  it('holds a row by its grip when given another part of the row', async () => {
    const snap = await open('handles.html');
    const result = await drag(snap, 'Pack bags', 'Lock door', { role: 'checkbox' });
    expect(result.dragged).toContain('held by its grip');
    expect(await read('steps.toArray()')).toEqual(['water', 'lock', 'pack', 'taxi']);
  });

  it('says so when the drop changed nothing', async () => {
    const snap = await open('handles.html');
    const result = await drag(snap, 'Print list', 'Move Lock door', { role: 'button' });
    expect(await read('steps.toArray()')).toEqual(['pack', 'water', 'lock', 'taxi']);
    expect(result.notices.join(' ')).toContain('Nothing on the page changed after the drop');
    expect(result.landed).toBeUndefined();
  });
});

describe('browser_drag on an ag-grid with managed row dragging', () => {
  it('moves a row by the grip in its first cell, down and up', async () => {
    const snap = await open('grid.html');
    const down = await dragRef(cellRef(snap, 'Offline mode'), cellRef(snap, 'Two-factor login'));
    expect(down.dragged).toContain('held by its grip');
    expect(await read('rows()')).toEqual(['Dark theme', 'Export to PDF', 'Two-factor login', 'Offline mode', 'Audit log']);
    // The rows keep their order in the markup; the place is read from the order the grid shows.
    expect(down.landed).toBe('between "Two-factor login Dora" and "Audit log Eli" (4 of 5)');
    await dragRef(cellRef(snap, 'Audit log'), cellRef(snap, 'Export to PDF'));
    expect(await read('rows()')).toEqual(['Dark theme', 'Audit log', 'Export to PDF', 'Two-factor login', 'Offline mode']);
  });
});

describe('browser_drag to a target off screen', () => {
  for (const [mode, query] of [['HTML5 drag events', ''], ['pointer events', '?pointer']] as const) {
    it(`scrolls the page during the drag, in a list driven by ${mode}`, async () => {
      await open(`long-list.html${query}`);
      const snap = (await call(env.browser, 'browser_snapshot', { scope: 'page', maxTokens: 10_000 })).snapshot;
      await drag(snap, 'Task 2', 'Task 35');
      const order = await read<string[]>('backlog.toArray()');
      expect(order.slice(32, 36)).toEqual(['34', '35', '2', '36']);
      expect(order).toHaveLength(40);
    });
  }
});

describe('browser_drag on a SortableJS board', () => {
  it('moves cards between columns of one group: next to a card, and into an empty column', async () => {
    await open('sortable.html');
    // The board sits below the lists: scrolled to it, whatever height the fonts give them.
    await (await env.browser.page()).locator('text=Map view').scrollIntoViewIfNeeded();
    await drag(await snapshot(), 'Map view', 'New icons', { position: 'before' });
    expect(await read('board()')).toEqual({ ideas: ['export', 'sso'], doing: ['map', 'icons'], shipped: [] });
    await drag(await snapshot(), 'Single sign-on', 'New icons');
    expect(await read('board()')).toEqual({ ideas: ['export'], doing: ['map', 'icons', 'sso'], shipped: [] });
    await drag(await snapshot(), 'CSV export', 'Shipped', { toRole: 'region' });
    expect(await read('board()')).toEqual({ ideas: [], doing: ['map', 'icons', 'sso'], shipped: ['export'] });
  });
});

describe('browser_drag on dragula', () => {
  it('reorders cards in a column and moves one to another column, as its drop events tell', async () => {
    await drag(await open('dragula.html'), 'Write report', 'Call plumber');
    expect(await read('columns()')).toEqual({ todo: ['Book flights', 'Call plumber', 'Write report', 'Pay rent'], done: ['Buy milk', 'Fix bike'] });
    // Onto the column itself: the card moves there.
    await drag(await snapshot(), 'Pay rent', 'Done', { toRole: 'region' });
    expect((await read<any>('columns()')).done).toContain('Pay rent');
    // Onto a card of another column, before it.
    await drag(await snapshot(), 'Book flights', 'Buy milk', { position: 'before' });
    expect((await read<any>('columns()')).done.slice(0, 2)).toEqual(['Book flights', 'Buy milk']);
    expect(await read('drops')).toEqual([
      { card: 'Write report', from: 'todo', to: 'todo', before: 'Pay rent' },
      expect.objectContaining({ card: 'Pay rent', from: 'todo', to: 'done' }),
      { card: 'Book flights', from: 'todo', to: 'done', before: 'Buy milk' },
    ]);
  });
});

describe('browser_drag on jQuery UI sortable', () => {
  it('reorders a list, which saves the new order', async () => {
    const result = await drag(await open('jquery-sortable.html'), 'Flamenco Sketches', 'So What');
    expect(await read('order()')).toEqual(['s-1', 's-5', 's-2', 's-3', 's-4']);
    expect(result.changes).toContain('Order saved');
    await drag(await snapshot(), 'Blue in Green', 'All Blues', { position: 'before' });
    expect(await read('order()')).toEqual(['s-5', 's-2', 's-3', 's-1', 's-4']);
  });
});

describe('browser_drag on jQuery UI draggable and droppable', () => {
  it('drops an element on a drop zone', async () => {
    const result = await drag(await open('jquery-sortable.html'), 'Sticky note', 'Pinboard', { toRole: 'region' });
    expect(result.changes).toContain('Pinned: Sticky note');
  });
});

describe('browser_drag on a Tabulator table with movable rows', () => {
  it('moves a row by its handle column, given a cell of the row', async () => {
    const snap = await open('tabulator.html');
    const result = await dragRef(cellRef(snap, 'Ada'), cellRef(snap, 'Cy'));
    expect(result.dragged).toContain('held by its grip');
    expect(await read('names()')).toEqual(['Brook', 'Cy', 'Ada', 'Dee']);
    expect(result.landed).toBe('between "Cy Data" and "Dee Ops" (3 of 4)');
  });
});

describe('browser_drag on an HTML5 drag and drop board', () => {
  it('moves a card to another column, and next to a card there', async () => {
    const result = await drag(await open('kanban.html'), 'Login page', 'Done', { role: 'draggable', toRole: 'region' });
    expect(result.changes).toContain('Login page moved to Done');
    expect(result.landed).toBe('in the target, the only item (1 of 1)');
    expect(await read('lanes()')).toEqual({ backlog: ['Search API', 'Dark theme'], doing: ['Billing export'], done: ['Login page'] });
    const snap = await snapshot();
    await drag(snap, 'Dark theme', 'Billing export', { position: 'before', role: 'draggable' });
    await drag(snap, 'Search API', 'Billing export', { role: 'draggable' });
    expect(await read('lanes()')).toEqual({ backlog: [], doing: ['Dark theme', 'Billing export', 'Search API'], done: ['Login page'] });
  });
});

describe('browser_drag on plain markup', () => {
  it('reorders a Sortable list of plain list items', async () => {
    const snap = await open('sortable.html?plain');
    await drag(snap, 'Alpha', 'Delta', { role: '(?:listitem|clickable|draggable)' });
    expect(await read('lists.native.toArray()')).toEqual(['B', 'C', 'D', 'A', 'E']);
  });
});

describe('browser_drag on FullCalendar', () => {
  it('moves an event to another day', async () => {
    const snap = await open('calendar.html');
    // The event is written inside its day's cell: `| e95 "March 10, 2026" e101 clickable "Design review" |`.
    const event = /((?:f\d+)?e\d+) clickable "Design review"/.exec(snap);
    expect(event, snap).not.toBeNull();
    await dragRef(event![1]!, cellRef(snap, 'March 18, 2026'));
    expect(await read('startOf("review")')).toBe('2026-03-18');
  });
});

describe('browser_drag on a page that stops answering', () => {
  it('ends as a timeout once the page takes no more moves, and the next call works', async () => {
    // A drag's time runs from the last move the page took: only a page gone silent ends it.
    const browser = createTestToolset({ timeout: 5_000 });
    try {
      await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/widgets/long-list.html?pointer') });
      // A few moves into the drag, a script of the page never ends.
      await (await browser.page()).evaluate(() => {
        let moves = 0;
        addEventListener('pointermove', (event) => { if (event.buttons && ++moves > 8) while (true); }, true);
      });
      const snap = (await call(browser, 'browser_snapshot', { scope: 'page', maxTokens: 10_000 })).snapshot;
      const result = await call(browser, 'browser_drag', { from: refOf(snap, REACTING, 'Task 2'), to: refOf(snap, REACTING, 'Task 35') });
      expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
      const next = await call(browser, 'browser_navigate', { url: env.server.url('/fixtures/page-a.html') });
      expect(next, JSON.stringify(next.error)).toMatchObject({ ok: true, title: 'Page A' });
    } finally {
      await browser.close();
    }
  });
});
