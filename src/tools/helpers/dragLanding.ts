/**
 * Where the dragged element landed, said in words: the page's diff lists lines that appeared, changed or went,
 * and a list whose items only swapped places has none of those, so a reorder would otherwise go unreported.
 * Read after the drop from the page's own layout (the order it shows, which a grid that positions its rows
 * by style keeps apart from the order of its markup).
 */
import type { ElementHandle, Locator } from 'playwright-core';
import type { Deadline } from '../../deadline.js';

/**
 * In the page: the items of the list that holds both elements (or, dropped into the target, the target's),
 * in the order shown, as their texts, and the place of the dragged one's among them. No inner named
 * functions: a bundler that keeps function names would wrap them in a helper the page does not have.
 */
function around(el: Element, target: Element): Place | null {
  if (!el.isConnected || !target.isConnected || el.contains(target)) return null;
  let list: Element | null = target;
  while (list && !list.contains(el)) list = list.parentElement;
  if (!list) return null;
  let item = el;
  let depth = 0;
  for (; item.parentElement && item.parentElement !== list; depth++) item = item.parentElement;
  const boxes = new Map(
    [...list.children].filter((c) => c.tagName === item.tagName).map((c) => [c, c.getBoundingClientRect()] as const).filter(([, b]) => b.width > 0 && b.height > 0),
  );
  // Rows first, then left to right within a row: the order a reader takes the items in.
  const items = [...boxes.keys()].sort((a, b) => {
    const p = boxes.get(a)!;
    const q = boxes.get(b)!;
    return Math.abs(p.top - q.top) > Math.min(p.height, q.height) / 2 ? p.top - q.top : p.left - q.left;
  });
  // A row of cells is read cell by cell: laid out side by side, their texts may touch with no space between.
  const texts = items.map((c) => {
    const ownText = [...c.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
    const text = ownText || !c.children.length ? (c as HTMLElement).innerText : [...c.children].map((k) => (k as HTMLElement).innerText).join(' ');
    return (text || c.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 40);
  });
  return { inside: list === target, depth, texts, at: items.indexOf(item) };
}

/** Where the dragged element stands among the items of the list it shares with the target. */
export interface Place {
  /** Dropped into the target: the list is the target itself. */
  inside: boolean;
  /** How far below the list's item the dragged element is (0: it is the item; 1: a cell of the row that is). */
  depth: number;
  texts: string[];
  at: number;
}

/**
 * The element `locator` points at as the page stands, without waiting for one to appear: after the drop the
 * dragged element may be gone (a board that draws its cards anew). The caller disposes of it.
 */
export async function elementNow(locator: Locator): Promise<ElementHandle<Element> | undefined> {
  const [handle, ...others] = await locator.elementHandles();
  await Promise.all(others.map((other) => other.dispose()));
  return handle as ElementHandle<Element> | undefined; // a locator finds elements, never text nodes
}

/**
 * Read with the rest of the call's time, not a fixed share of it: a busy machine answers slowly, and a read cut
 * short would drop the place from a drag that worked (or, before the drag, give one to a drop that failed).
 */
export async function placeAmong(source: Locator, target: Locator, deadline: Deadline): Promise<Place | null> {
  const read = async () => {
    const [el, onto] = await Promise.all([elementNow(source), elementNow(target)]);
    try {
      return el && onto ? await el.evaluate(around, onto) : null;
    } finally {
      await Promise.all([el?.dispose(), onto?.dispose()]);
    }
  };
  const found = await deadline.race(read(), 'reading where the dragged element stands', deadline.forStep()).catch(() => null);
  return found && found.at >= 0 ? found : null;
}

/**
 * "between "Charlie" and "Echo" (4 of 5)" when the drag changed the dragged element's place; undefined when
 * it did not, or the page does not show it plainly. A card whose drop failed sits in its column as before:
 * the columns' order, read then, is not news.
 */
export function landing(before: Place | null, after: Place | null): string | undefined {
  if (!after) return undefined;
  if (before && before.inside === after.inside && before.depth === after.depth && before.at === after.at) return undefined;
  const { texts, at } = after;
  const place =
    texts.length === 1
      ? 'the only item'
      : at === 0
        ? `first, before "${texts[1]}"`
        : at === texts.length - 1
          ? `last, after "${texts[at - 1]}"`
          : `between "${texts[at - 1]}" and "${texts[at + 1]}"`;
  return `${after.inside ? 'in the target, ' : ''}${place} (${at + 1} of ${texts.length})`;
}
