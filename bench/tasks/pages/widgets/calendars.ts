/**
 * FullCalendar 6 (global build, month view): click a day in another month (dateClick), or go to another
 * month and click an event there (eventClick). The verdict is the date or event FullCalendar reports.
 */
import { MONTHS, type Rng } from '../../random.js';
import type { TaskDef } from '../../types.js';
import { generateDate, type DateSpec } from '../datepickers.js';
import { js, shell } from '../shell.js';
import { script } from './assets.js';

const FULLCALENDAR = script('fullcalendar/index.global.min.js');
const EVENT_TITLES = ['Team lunch', 'Dentist', 'Budget review', 'Yoga class', 'Board meeting', 'Car service', 'Book club', 'Piano lesson', 'Code review', 'Flight to Oslo'];

const iso = (year: number, month: number, day: number) => `${year}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** The calendar on #calendar, opening on the spec's start month; `handlers` adds FullCalendar callbacks. */
const calendarScript = (start: DateSpec['start'], events: unknown[], handlers: string) => `
const calendar = new FullCalendar.Calendar($('#calendar'), {
  initialView: 'dayGridMonth',
  initialDate: ${js(iso(start.year, start.month, 1))},
  events: ${js(events)},
  ${handlers}
});
calendar.render();`;

const dayTask: TaskDef<DateSpec> = {
  id: 'real-fullcalendar-day',
  category: 'calendars',
  policy: 'calendar',
  summary: 'FullCalendar 6 month grid: Prev/Next icon buttons with titles, days as grid cells with a number link; dateClick',
  generate: (rng) => generateDate(rng, 2),
  render: (spec, { episode }) =>
    shell({
      title: 'Calendar',
      episode,
      instruction: `Click ${MONTHS[spec.target.month]} ${spec.target.day}, ${spec.target.year} in the calendar.`,
      body: `${FULLCALENDAR}<div id="calendar" style="max-width: 700px"></div>`,
      script: calendarScript(
        spec.start,
        [],
        `dateClick: (info) => report(info.dateStr === ${js(iso(spec.target.year, spec.target.month, spec.target.day))}, 'clicked ' + info.dateStr),`,
      ),
    }),
};

export interface EventSpec {
  start: DateSpec['start'];
  /** The month the events are in (one away from the start), and the events: all-day, one per day. */
  month: { year: number; month: number };
  events: Array<{ id: string; title: string; day: number }>;
  target: number;
}

const eventTask: TaskDef<EventSpec> = {
  id: 'real-fullcalendar-event',
  category: 'calendars',
  policy: 'calendar',
  summary: 'FullCalendar 6 month grid: go to the next or previous month and click an all-day event there; eventClick',
  generate: (rng: Rng) => {
    const { start, target } = generateDate(rng, 1);
    const days = rng.sample(Array.from({ length: 28 }, (_, i) => i + 1), 5);
    const events = rng.sample(EVENT_TITLES, 5).map((title, i) => ({ id: `ev${i}`, title, day: days[i]! }));
    return { start, month: { year: target.year, month: target.month }, events, target: rng.int(0, 4) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Calendar',
      episode,
      instruction: `Go to ${MONTHS[spec.month.month]} ${spec.month.year} and click the event "${spec.events[spec.target]!.title}" in the calendar.`,
      body: `${FULLCALENDAR}<div id="calendar" style="max-width: 700px"></div>`,
      script: calendarScript(
        spec.start,
        spec.events.map((e) => ({ id: e.id, title: e.title, start: iso(spec.month.year, spec.month.month, e.day), allDay: true })),
        `eventClick: (info) => report(info.event.id === ${js(spec.events[spec.target]!.id)}, 'clicked ' + info.event.title),`,
      ),
    }),
};

export const CALENDAR_TASKS: TaskDef[] = [dayTask, eventTask];
