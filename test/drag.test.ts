/**
 * browser_drag on the libraries real pages use (issue 46): SortableJS with HTML5 drag events and with pointer
 * events, dragula, jQuery UI sortable, and a board on the HTML5 drag and drop API. Each test reads the order
 * from the widget itself, as the page would save it.
 */
import { describe, expect, it } from 'vitest';
import { call, refOf, useServerAndBrowser } from './helpers/toolset.js';

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

async function drag(snap: string, from: string, to: string, position?: 'before' | 'after', role = 'clickable'): Promise<any> {
  const result = await call(env.browser, 'browser_drag', { from: refOf(snap, role, from), to: refOf(snap, role, to), ...(position ? { position } : {}) });
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
      const snapshot = async () => (await call(env.browser, 'browser_snapshot', {})).snapshot as string;
      await open('sortable.html');
      // Dragged down onto an item, the element takes its place: after it.
      const down = await drag(await snapshot(), a, d);
      expect(await order()).toEqual([b, c, d, a, e]);
      expect(down.dragged).toMatch(new RegExp(`"${a}".* onto .*"${d}"`));
      // Dragged up onto an item: before it.
      await drag(await snapshot(), e, b);
      expect(await order()).toEqual([e, b, c, d, a]);
      // Asked for, the other side: before an item further down, after one further up.
      await drag(await snapshot(), b, d, 'before');
      expect(await order()).toEqual([e, c, b, d, a]);
      await drag(await snapshot(), a, e, 'after');
      expect(await order()).toEqual([e, a, c, b, d]);
    });
  }
});

describe('browser_drag by a handle', () => {
  it("moves a row by its grip, dropped on another row's grip", async () => {
    let snap = await open('handles.html');
    await drag(snap, 'Move Pack bags', 'Move Lock door', undefined, 'button');
    expect(await read('steps.toArray()')).toEqual(['water', 'lock', 'pack', 'taxi']);
    snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    await drag(snap, 'Move Call taxi', 'Move Water plants', 'after', 'button');
    expect(await read('steps.toArray()')).toEqual(['water', 'taxi', 'lock', 'pack']);
  });

  it('holds a row by its grip when given another part of the row', async () => {
    const snap = await open('handles.html');
    const result = await drag(snap, 'Pack bags', 'Lock door', undefined, 'checkbox');
    expect(result.dragged).toContain('held by its grip');
    expect(await read('steps.toArray()')).toEqual(['water', 'lock', 'pack', 'taxi']);
  });

  it('says so when the drop changed nothing', async () => {
    const snap = await open('handles.html');
    const result = await call(env.browser, 'browser_drag', { from: refOf(snap, 'button', 'Print list'), to: refOf(snap, 'button', 'Move Lock door') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(await read('steps.toArray()')).toEqual(['pack', 'water', 'lock', 'taxi']);
    expect(result.notices.join(' ')).toContain('Nothing on the page changed after the drop');
  });
});

describe('browser_drag on an ag-grid with managed row dragging', () => {
  it('moves a row by the grip in its first cell, down and up', async () => {
    const snap = await open('grid.html');
    const cell = (name: string) => new RegExp(`^.*?((?:f\\d+)?e\\d+) "${name}"`, 'm').exec(snap)![1]!;
    const down = await call(env.browser, 'browser_drag', { from: cell('Offline mode'), to: cell('Two-factor login') });
    expect(down.ok, JSON.stringify(down.error)).toBe(true);
    expect(down.dragged).toContain('held by its grip');
    expect(await read('rows()')).toEqual(['Dark theme', 'Export to PDF', 'Two-factor login', 'Offline mode', 'Audit log']);
    await call(env.browser, 'browser_drag', { from: cell('Audit log'), to: cell('Export to PDF') });
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
    const snapshot = async () => (await call(env.browser, 'browser_snapshot', {})).snapshot as string;
    await open('sortable.html');
    await drag(await snapshot(), 'Map view', 'New icons', 'before');
    expect(await read('board()')).toEqual({ ideas: ['export', 'sso'], doing: ['map', 'icons'], shipped: [] });
    await drag(await snapshot(), 'Single sign-on', 'New icons');
    expect(await read('board()')).toEqual({ ideas: ['export'], doing: ['map', 'icons', 'sso'], shipped: [] });
    const snap = await snapshot();
    const moved = await call(env.browser, 'browser_drag', { from: refOf(snap, 'clickable', 'CSV export'), to: refOf(snap, 'region', 'Shipped') });
    expect(moved.ok, JSON.stringify(moved.error)).toBe(true);
    expect(await read('board()')).toEqual({ ideas: [], doing: ['map', 'icons', 'sso'], shipped: ['export'] });
  });
});

describe('browser_drag on dragula', () => {
  it('reorders cards in a column and moves one to another column, as its drop events tell', async () => {
    let snap = await open('dragula.html');
    await drag(snap, 'Write report', 'Call plumber');
    expect(await read('columns()')).toEqual({ todo: ['Book flights', 'Call plumber', 'Write report', 'Pay rent'], done: ['Buy milk', 'Fix bike'] });
    snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    // Onto the column itself: the card moves there.
    await call(env.browser, 'browser_drag', { from: refOf(snap, 'clickable', 'Pay rent'), to: refOf(snap, 'region', 'Done') }).then((r: any) => expect(r.ok, JSON.stringify(r.error)).toBe(true));
    expect((await read<any>('columns()')).done).toContain('Pay rent');
    // Onto a card of another column, before it.
    snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    await drag(snap, 'Book flights', 'Buy milk', 'before');
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
    let snap = await open('jquery-sortable.html');
    const result = await drag(snap, 'Flamenco Sketches', 'So What');
    expect(await read('order()')).toEqual(['s-1', 's-5', 's-2', 's-3', 's-4']);
    expect(result.changes).toContain('Order saved');
    snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    await drag(snap, 'Blue in Green', 'All Blues', 'before');
    expect(await read('order()')).toEqual(['s-5', 's-2', 's-3', 's-1', 's-4']);
  });
});

describe('browser_drag on jQuery UI draggable and droppable', () => {
  it('drops an element on a drop zone', async () => {
    const snap = await open('jquery-sortable.html');
    const result = await call(env.browser, 'browser_drag', { from: refOf(snap, 'clickable', 'Sticky note'), to: refOf(snap, 'region', 'Pinboard') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.changes).toContain('Pinned: Sticky note');
  });
});

describe('browser_drag on a Tabulator table with movable rows', () => {
  it('moves a row by its handle column, given a cell of the row', async () => {
    const snap = await open('tabulator.html');
    const cell = (name: string) => new RegExp(`^\\s*((?:f\\d+)?e\\d+) gridcell "${name}"`, 'm').exec(snap)![1]!;
    const result = await call(env.browser, 'browser_drag', { from: cell('Ada'), to: cell('Cy') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.dragged).toContain('held by its grip');
    expect(await read('names()')).toEqual(['Brook', 'Cy', 'Ada', 'Dee']);
  });
});

describe('browser_drag on an HTML5 drag and drop board', () => {
  it('moves a card to another column, and next to a card there', async () => {
    let snap = await open('kanban.html');
    const result = await call(env.browser, 'browser_drag', { from: refOf(snap, 'draggable', 'Login page'), to: refOf(snap, 'region', 'Done') });
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    expect(result.changes).toContain('Login page moved to Done');
    expect(await read('lanes()')).toEqual({ backlog: ['Search API', 'Dark theme'], doing: ['Billing export'], done: ['Login page'] });
    snap = (await call(env.browser, 'browser_snapshot', {})).snapshot;
    await drag(snap, 'Dark theme', 'Billing export', 'before', 'draggable');
    await drag(snap, 'Search API', 'Billing export', undefined, 'draggable');
    expect(await read('lanes()')).toEqual({ backlog: [], doing: ['Dark theme', 'Billing export', 'Search API'], done: ['Login page'] });
  });
});

describe('browser_drag on plain markup', () => {
  // Bare <li> items of a Sortable list are joined into one line by today's snapshot; enable once each keeps its ref.
  it.skip('reorders a Sortable list of plain list items', async () => {
    const snap = await open('sortable.html?plain');
    await drag(snap, 'Alpha', 'Delta', undefined, '(?:listitem|clickable)');
    expect(await read('lists.native.toArray()')).toEqual(['B', 'C', 'D', 'A', 'E']);
  });
});
