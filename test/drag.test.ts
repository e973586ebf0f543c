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
