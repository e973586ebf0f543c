/**
 * Where a person takes hold of an element to drag it. Many lists and grids move a row only by its grip (a small
 * icon, often without a ref of its own); a drag started anywhere else does nothing. The grip is found by what
 * the page shows or says: the cursor turns into a hand or a move cross over it, it is marked draggable, or its
 * class or label calls it a grip or a drag handle (some grids style none of these).
 */
import type { ElementHandle, Locator } from 'playwright-core';

/** Elements looked through around the source for its grip: a row's worth, not a whole list. */
const SEARCH_LIMIT = 400;
/** How far up from the source a grip is looked for: the row around a cell or label, not the panel around the list. */
const LEVELS_UP = 2;

/**
 * In the page: null when the element can be held where it is (at its centre the page says so), else the one
 * grip inside it, or inside the nearest of its ancestors that holds exactly one. No inner named functions: a
 * bundler that keeps function names would wrap them in a helper the page does not have.
 */
function findGrip(el: Element, arg: { limit: number; levels: number }): Element | null {
  const box = el.getBoundingClientRect();
  const hit = el.ownerDocument.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  const chain: Element[] = [];
  for (let e: Element | null = hit && el.contains(hit) ? hit : el; e; e = e.parentElement) chain.push(e);
  // The rows around the element, as far up as `levels` goes without taking in a whole list.
  const roots: Element[] = [el];
  while (roots.length <= arg.levels && roots.at(-1)!.parentElement && roots.at(-1)!.parentElement!.querySelectorAll('*').length <= arg.limit) {
    roots.push(roots.at(-1)!.parentElement!);
  }
  const named = /(^|[\s_-])(grip|drag-?handle|row-?handle|handle|reorder|drag)([\s_-]|$)/i;
  const held = new Set(
    [...chain, ...roots.at(-1)!.querySelectorAll('*')].filter(
      (x) =>
        ['grab', '-webkit-grab', 'move'].includes(getComputedStyle(x).cursor) ||
        x.getAttribute('draggable') === 'true' ||
        (named.test(`${x.getAttribute('class') ?? ''} ${x.getAttribute('aria-label') ?? ''}`) && !/resize/i.test(x.getAttribute('class') ?? '')),
    ),
  );
  if (chain.some((e) => held.has(e))) return null;
  for (const root of roots) {
    // The cursor is inherited: a grip is an element that grabs whose parent does not.
    const grips = [...root.querySelectorAll('*')].filter(
      (e) => held.has(e) && !(e.parentElement && held.has(e.parentElement)) && !e.contains(el) && e.getBoundingClientRect().width > 0,
    );
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
