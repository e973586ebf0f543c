/**
 * Where a person takes hold of an element to drag it. Many lists and grids move a row only by its grip (a small
 * icon, often without a ref of its own); a drag started anywhere else does nothing. The grip is found by what
 * the page shows: the cursor turns into a hand or a move cross over it, or it is marked draggable.
 */
import type { ElementHandle, Locator } from 'playwright-core';

/** Elements looked through around the source for its grip: a row's worth, not a whole list. */
const SEARCH_LIMIT = 400;
/** How far up from the source a grip is looked for: the row around a cell or label, not the panel around the list. */
const LEVELS_UP = 2;

/**
 * In the page: null when the element can be held where it is (at its centre the cursor says so), else the one
 * grip inside it, or inside the nearest of its ancestors that holds exactly one. No inner named functions: a
 * bundler that keeps function names would wrap them in a helper the page does not have.
 */
function findGrip(el: Element, arg: { limit: number; levels: number }): Element | null {
  const hand = ['grab', '-webkit-grab', 'move'];
  const box = el.getBoundingClientRect();
  const hit = el.ownerDocument.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  for (let e: Element | null = hit && el.contains(hit) ? hit : el; e; e = e.parentElement) {
    if (hand.includes(getComputedStyle(e).cursor) || e.getAttribute('draggable') === 'true') return null;
  }
  let root: Element | null = el;
  for (let level = 0; root && level <= arg.levels; level++, root = root.parentElement) {
    const all = Array.from(root.querySelectorAll('*'));
    if (all.length > arg.limit) return null;
    // The cursor is inherited: a grip is an element that grabs whose parent does not.
    const grips = all.filter((e) => {
      const p = e.parentElement;
      const grabs = hand.includes(getComputedStyle(e).cursor) || e.getAttribute('draggable') === 'true';
      const parentGrabs = !!p && (hand.includes(getComputedStyle(p).cursor) || p.getAttribute('draggable') === 'true');
      return grabs && !parentGrabs && !e.contains(el) && e.getBoundingClientRect().width > 0;
    });
    if (grips.length) return grips.length === 1 ? grips[0]! : null;
  }
  return null;
}

/** The grip to press instead of the element itself, if it has one. */
export async function gripOf(source: Locator): Promise<ElementHandle | null> {
  const handle = await source.evaluateHandle(findGrip, { limit: SEARCH_LIMIT, levels: LEVELS_UP }).catch(() => null);
  const grip = handle?.asElement() ?? null;
  if (!grip) await handle?.dispose();
  return grip;
}
