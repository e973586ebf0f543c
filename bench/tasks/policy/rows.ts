/**
 * Rows in a flat listing. Systems that print a table or a list of cards line by line, without nesting,
 * leave it to the reader to see where one row ends: the lines repeat with a period (star, name, subject,
 * trash; star, name, ...). A careful reader finds the period from a control that appears once per row,
 * and where the first row starts from the lines that repeat one period later.
 */
import { label } from './common.js';
import type { Item, View } from './view.js';

/** The shape a reader compares between rows: kind of line, whether it has a ref, a control's name. */
function shape(view: View, index: number): string {
  const item = view.items[index];
  return item ? `${item.role}|${!!item.ref}|${item.ref ? label(item) : ''}|${item.icon ?? ''}` : '';
}

function mostCommon(values: number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

/** The items of the row that holds `anchor`, given a predicate for the control every row has once. */
export function rowAround(view: View, anchor: number, marker: (item: Item) => boolean): Item[] | undefined {
  const marks = view.items.filter(marker).map((item) => item.index);
  if (marks.length < 2) return undefined;
  const period = mostCommon(marks.slice(1).map((mark, i) => mark - marks[i]!));
  if (period < 2) return undefined;
  let start = marks[0]!;
  while (start > 0 && start - 1 > marks[0]! - period && shape(view, start - 1) === shape(view, start - 1 + period)) start--;
  const row = Math.floor((anchor - start) / period);
  if (row < 0) return undefined;
  return view.items.slice(start + row * period, start + (row + 1) * period);
}
