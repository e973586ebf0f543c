/** Policy for date pickers: open the picker, read the month it shows, move to the target month, pick the day. */
import { MONTHS } from '../random.js';
import type { Agent } from './agent.js';
import { clickNamed, field, isClickable, label, type Policy } from './common.js';
import type { Item, View } from './view.js';

const NEXT = /^(next|next month|›|»|>|→)$/i;
const PREVIOUS = /^(prev|previous|previous month|‹|«|<|←)$/i;

interface Shown {
  year: number;
  month: number;
  /** The picker's month list and year list (or number field), when it has them instead of arrows. */
  lists?: { month: Item; year: Item; short: boolean };
}

function monthIndex(name: string): number {
  return MONTHS.findIndex((month) => month.toLowerCase() === name.toLowerCase() || month.slice(0, 3).toLowerCase() === name.toLowerCase());
}

const YEAR_FIELDS = ['combobox', 'spinbutton', 'textbox'];
const isYearField = (item: Item) => YEAR_FIELDS.includes(item.role) && /^\d{4}$/.test(item.value ?? '');

/** The month the picker shows: from its month list and year field, or from a "March 2024" (or "March, 2024") title. */
function monthShown(view: View): Shown | undefined {
  const monthList = view.find((item) => item.role === 'combobox' && item.value !== undefined && monthIndex(item.value) >= 0);
  const yearList = view.find(isYearField);
  if (monthList && yearList) {
    return { year: Number(yearList.value), month: monthIndex(monthList.value!), lists: { month: monthList, year: yearList, short: shortNames(monthList, view) } };
  }
  // The title is in the words of the page, but not in a sentence: the instruction may name a month too.
  const words = view.items.map(label).filter((line) => !/[.!?]$/.test(line)).join('\n');
  const title = new RegExp(`\\b(${MONTHS.join('|')}),?\\s+(\\d{4})\\b`).exec(words);
  return title ? { year: Number(title[2]), month: MONTHS.indexOf(title[1]!) } : undefined;
}

/**
 * Whether `item` is the wanted day of the month shown. A day named by its full date ("March 12, 2024")
 * says so itself. Days named by their number alone are read the way a person reads a month grid that
 * starts and ends with days of the neighbouring months: the shown month runs from the first "1" to the
 * next "1".
 */
function isWantedDay(item: Item, view: View, date: { month: string; day: string; year: string }): boolean {
  if (!isClickable(item)) return false;
  const name = label(item);
  if (new RegExp(`^${date.month} ${date.day}(st|nd|rd|th)?,? ${date.year}$`, 'i').test(name)) return true;
  if (name !== date.day) return false;
  // Count the runs of "1" before the item (a cell and the link inside it both say "1": one run).
  let ones = 0;
  let previous = '';
  for (const other of view.items) {
    const words = label(other);
    if (!isClickable(other) || !/^\d{1,2}$/.test(words)) continue;
    if (words === '1' && previous !== '1') ones++;
    previous = words;
    if (other === item) break;
  }
  return ones <= 1 && (ones === 1 || !view.items.some((other) => isClickable(other) && label(other) === '1'));
}

/**
 * Whether a month list names months short ("Jun"): by its options where the view lists them, else by the
 * month it shows (for "May", which is both, short is the guess).
 */
function shortNames(list: Item, view: View): boolean {
  const options = view.filter((item) => item.role === 'option' && item.parent === list.index && monthIndex(label(item)) >= 0).map(label);
  return options.length ? options.every((name) => name.length <= 3) : list.value!.length <= 3;
}

/** Moves a month view (a picker's, a calendar's) to the wanted month, by its lists or its arrows. */
export async function goToMonth(agent: Agent, monthName: string, year: string): Promise<void> {
  const target = Number(year) * 12 + MONTHS.indexOf(monthName);
  for (let step = 0; step < 6; step++) {
    const shown = await agent.read(monthShown, 'the month shown');
    const distance = target - (shown.year * 12 + shown.month);
    if (distance === 0) return;
    if (shown.lists) {
      // The list shows short or long names; choose the target month the way the list names it.
      const short = shown.lists.short;
      await agent.select(shown.lists.month, short ? monthName.slice(0, 3) : monthName);
      const yearField = await agent.control({ roles: YEAR_FIELDS, where: isYearField }, 'the year field', { fresh: true });
      if (yearField.role === 'combobox') await agent.select(yearField, year);
      else await agent.type(yearField, year);
      // Both are set as wanted; a typed year leaves earlier views in place, so reading them again would mislead.
      return;
    }
    const arrow = distance > 0 ? NEXT : PREVIOUS;
    // An arrow with no name of its own is taken by its icon, as a reader takes a drawn "next" arrow.
    const isArrow = (item: Item) => isClickable(item) && (arrow.test(label(item)) || (!label(item) && arrow.test(item.icon ?? '')));
    await agent.click(await agent.control({ where: isArrow }, distance > 0 ? 'the next-month control' : 'the previous-month control', { fresh: true }));
  }
}

/** The wanted day of the month shown, with a ref. */
export function dayControl(agent: Agent, date: { month: string; day: string; year: string }) {
  return agent.control({ where: (item, view) => isWantedDay(item, view, date) }, `day ${date.day} in the calendar`, { fresh: true });
}

/** "Pick March 12, 2024 in the date picker and press Submit." */
export const datepicker: Policy = async (agent, url) => {
  await agent.open(url);
  const [, month, day, year] = await agent.instruction(/Pick (\w+) (\d{1,2}), (\d{4}) in the/);
  await agent.click(await field(agent, 'Date'));
  await goToMonth(agent, month!, year!);
  await agent.click(await dayControl(agent, { month: month!, day: day!, year: year! }));
  await clickNamed(agent, 'Submit');
};
