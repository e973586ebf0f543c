/** Policy for date pickers: open the picker, read the month it shows, move to the target month, pick the day. */
import { MONTHS } from '../random.js';
import { clickNamed, field, isClickable, type Policy } from './common.js';
import type { Item, View } from './view.js';

const NEXT = /^(next|next month|›|»|>|→)$/i;
const PREVIOUS = /^(prev|previous|previous month|‹|«|<|←)$/i;

interface Shown {
  year: number;
  month: number;
  /** The picker's month and year lists, when it has them instead of arrows. */
  lists?: { month: Item; year: Item };
}

function monthIndex(name: string): number {
  return MONTHS.findIndex((month) => month.toLowerCase() === name.toLowerCase() || month.slice(0, 3).toLowerCase() === name.toLowerCase());
}

/** The month the picker shows: from its month and year lists, or from a "March 2024" title. */
function monthShown(view: View): Shown | undefined {
  const monthList = view.find((item) => item.role === 'combobox' && item.value !== undefined && monthIndex(item.value) >= 0);
  const yearList = view.find((item) => item.role === 'combobox' && /^\d{4}$/.test(item.value ?? ''));
  if (monthList && yearList) return { year: Number(yearList.value), month: monthIndex(monthList.value!), lists: { month: monthList, year: yearList } };
  const title = new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{4})\\b`).exec(view.text);
  return title ? { year: Number(title[2]), month: MONTHS.indexOf(title[1]!) } : undefined;
}

/** "Pick March 12, 2024 in the date picker and press Submit." */
export const datepicker: Policy = async (agent, url) => {
  await agent.open(url);
  const [, monthName, day, year] = await agent.instruction(/Pick (\w+) (\d{1,2}), (\d{4}) in the/);
  const target = Number(year) * 12 + MONTHS.indexOf(monthName!);
  await agent.click(await field(agent, 'Date'));
  for (let step = 0; step < 6; step++) {
    const shown = await agent.read(monthShown, 'the month the date picker shows');
    const distance = target - (shown.year * 12 + shown.month);
    if (distance === 0) break;
    if (shown.lists) {
      // The list shows short or long names; choose the target month the way the list names it.
      const short = shown.lists.month.value!.length <= 3;
      await agent.select(shown.lists.month, short ? monthName!.slice(0, 3) : monthName!);
      const yearList = await agent.control({ roles: ['combobox'], where: (item) => /^\d{4}$/.test(item.value ?? '') }, 'the year list', { fresh: true });
      await agent.select(yearList, year!);
      continue;
    }
    const arrow = distance > 0 ? NEXT : PREVIOUS;
    await agent.click(await agent.control({ name: arrow, where: isClickable }, distance > 0 ? 'the next-month control' : 'the previous-month control', { fresh: true }));
  }
  await agent.click(await agent.control({ name: day!, where: isClickable }, `day ${day} in the calendar`, { fresh: true }));
  await clickNamed(agent, 'Submit');
};
