/**
 * Date pickers in three builds: jQuery-UI-like (month arrows are anchors without href whose text is hidden
 * by text-indent, clicks handled by one delegated listener), icon buttons with day cells bound by script,
 * and month/year selects. The date field is read-only: the date must be picked.
 */
import { MONTHS, type Rng } from '../random.js';
import type { Category, TaskDef } from '../types.js';
import { js, shell, type ShellOptions } from './shell.js';

export interface DateSpec {
  /** The month shown when the picker opens (0-based month). */
  start: { year: number; month: number };
  target: { year: number; month: number; day: number };
}

export function generateDate(rng: Rng, maxOffset: number): DateSpec {
  const start = { year: rng.int(2019, 2027), month: rng.int(0, 11) };
  const offset = rng.pick([-1, 1]) * rng.int(1, maxOffset);
  const absolute = start.year * 12 + start.month + offset;
  const target = { year: Math.floor(absolute / 12), month: absolute % 12, day: rng.int(1, 28) };
  return { start, target };
}

function instruction(spec: DateSpec): string {
  return `Pick ${MONTHS[spec.target.month]} ${spec.target.day}, ${spec.target.year} in the date picker and press Submit.`;
}

/** What a date task's page adds to the shell: its field, the picker and the picker's logic. */
export type DatePage = Pick<ShellOptions, 'body' | 'style' | 'script'>;

/**
 * A date-picking task, built or real: the target month up to `maxOffset` months from the one the picker opens
 * on (3 by default), and the title, instruction and policy every date picker shares.
 */
export function datePickerTask(
  { id, category, summary, maxOffset = 3 }: { id: string; category: Category; summary: string; maxOffset?: number },
  page: (spec: DateSpec) => DatePage,
): TaskDef<DateSpec> {
  return {
    id,
    category,
    policy: 'datepicker',
    summary,
    generate: (rng) => generateDate(rng, maxOffset),
    render: (spec, { episode }) => shell({ title: 'Choose a date', episode, instruction: instruction(spec), ...page(spec) }),
  };
}

/** Page logic shared by the builds: state, formatting and the Submit check; each build supplies `draw()`. */
function pickerScript(spec: DateSpec, draw: string): string {
  return `
const MONTHS = ${js(MONTHS)};
let shown = ${js(spec.start)};
const expected = ${js(`${String(spec.target.month + 1).padStart(2, '0')}/${String(spec.target.day).padStart(2, '0')}/${spec.target.year}`)};
const pad = (n) => String(n).padStart(2, '0');
const daysIn = (y, m) => new Date(y, m + 1, 0).getDate();
function move(by) { const a = shown.year * 12 + shown.month + by; shown = { year: Math.floor(a / 12), month: a % 12 }; draw(); }
function pick(day) { $('#date').value = pad(shown.month + 1) + '/' + pad(day) + '/' + shown.year; $('#picker').hidden = true; }
${draw}
$('#date').addEventListener('click', () => { $('#picker').hidden = false; draw(); });
$('#go').addEventListener('click', () => report($('#date').value === expected, 'date ' + JSON.stringify($('#date').value)));
`;
}

const FIELD = `<label for="date">Date</label><input id="date" readonly placeholder="mm/dd/yyyy">
<div id="picker" hidden></div>
<div><button id="go">Submit</button></div>`;

const jqueryStyle = `
#picker { border: 1px solid #aaa; width: 230px; padding: 4px; background: #fff; }
.ui-datepicker-header { position: relative; background: #ddd; padding: 4px 0; text-align: center; font-weight: bold; }
.ui-datepicker-prev, .ui-datepicker-next { position: absolute; top: 4px; width: 18px; height: 18px; }
.ui-datepicker-prev { left: 4px; } .ui-datepicker-next { right: 4px; }
.ui-icon { display: block; width: 16px; height: 16px; text-indent: -99999px; overflow: hidden; background: #888; }
.ui-datepicker-calendar td a { display: block; text-align: right; padding: 2px; text-decoration: none; color: #000; }
`;

const jqueryUi = datePickerTask(
  { id: 'datepicker-jqueryui', category: 'date pickers', summary: 'jQuery-UI-like: arrows are href-less anchors with a title, text hidden by text-indent, one delegated listener' },
  (spec) => ({
    body: FIELD,
    style: jqueryStyle,
    script: pickerScript(
      spec,
      `function draw() {
  const first = new Date(shown.year, shown.month, 1).getDay();
  let cells = '';
  for (let i = 0; i < first; i++) cells += '<td></td>';
  for (let d = 1; d <= daysIn(shown.year, shown.month); d++) {
    cells += '<td data-handler="selectDay" data-day="' + d + '"><a class="ui-state-default" href="#">' + d + '</a></td>';
    if ((first + d) % 7 === 0) cells += '</tr><tr>';
  }
  $('#picker').innerHTML = '<div class="ui-datepicker-header">'
    + '<a class="ui-datepicker-prev" data-handler="prev" title="Prev"><span class="ui-icon">Prev</span></a>'
    + '<a class="ui-datepicker-next" data-handler="next" title="Next"><span class="ui-icon">Next</span></a>'
    + '<div class="ui-datepicker-title"><span class="ui-datepicker-month">' + MONTHS[shown.month] + '</span>&nbsp;<span class="ui-datepicker-year">' + shown.year + '</span></div></div>'
    + '<table class="ui-datepicker-calendar"><thead><tr>' + ['Su','Mo','Tu','We','Th','Fr','Sa'].map((d) => '<th>' + d + '</th>').join('') + '</tr></thead><tbody><tr>' + cells + '</tr></tbody></table>';
}
// One listener for the whole widget, as jQuery UI does: the anchors have no handler of their own.
$('#picker').addEventListener('click', (event) => {
  const target = event.target.closest('[data-handler]');
  if (!target) return;
  event.preventDefault();
  if (target.dataset.handler === 'prev') move(-1);
  else if (target.dataset.handler === 'next') move(1);
  else pick(Number(target.dataset.day));
});`,
    ),
  }),
);

const iconButtons = datePickerTask(
  { id: 'datepicker-icons', category: 'date pickers', summary: 'arrow buttons with aria-label and an SVG; day cells are plain <td>s with their own click listeners' },
  (spec) => ({
    body: FIELD,
    style: `#picker { border: 1px solid #aaa; width: 240px; padding: 6px; }
.bar { display: flex; justify-content: space-between; align-items: center; }
.bar button { border: none; background: none; padding: 2px; }
.days td { text-align: center; padding: 3px; }`,
    script: pickerScript(
      spec,
      `const arrow = (d) => '<svg width="14" height="14" viewBox="0 0 14 14"><path d="' + d + '" stroke="#333" fill="none"/></svg>';
function draw() {
  const first = new Date(shown.year, shown.month, 1).getDay();
  let cells = '';
  for (let i = 0; i < first; i++) cells += '<td></td>';
  for (let d = 1; d <= daysIn(shown.year, shown.month); d++) {
    cells += '<td class="day" data-day="' + d + '">' + d + '</td>';
    if ((first + d) % 7 === 0) cells += '</tr><tr>';
  }
  $('#picker').innerHTML = '<div class="bar"><button class="prev" aria-label="Previous month">' + arrow('M9 2 L4 7 L9 12') + '</button>'
    + '<strong>' + MONTHS[shown.month] + ' ' + shown.year + '</strong>'
    + '<button class="next" aria-label="Next month">' + arrow('M5 2 L10 7 L5 12') + '</button></div>'
    + '<table class="days"><tr>' + cells + '</tr></table>';
  $('#picker .prev').addEventListener('click', () => move(-1));
  $('#picker .next').addEventListener('click', () => move(1));
  $$('#picker td.day').forEach((td) => td.addEventListener('click', () => pick(Number(td.dataset.day))));
}`,
    ),
  }),
);

const selects = datePickerTask(
  { id: 'datepicker-selects', category: 'date pickers', summary: 'month and year as unlabelled selects (short month names), days as links', maxOffset: 14 },
  (spec) => ({
    body: FIELD,
    style: jqueryStyle,
    script: pickerScript(
      spec,
      `function draw() {
  const first = new Date(shown.year, shown.month, 1).getDay();
  let cells = '';
  for (let i = 0; i < first; i++) cells += '<td></td>';
  for (let d = 1; d <= daysIn(shown.year, shown.month); d++) {
    cells += '<td><a href="#" data-day="' + d + '">' + d + '</a></td>';
    if ((first + d) % 7 === 0) cells += '</tr><tr>';
  }
  const years = [];
  for (let y = ${spec.start.year - 3}; y <= ${spec.start.year + 3}; y++) years.push(y);
  $('#picker').innerHTML = '<div class="ui-datepicker-header">'
    + '<select class="month">' + MONTHS.map((m, i) => '<option value="' + i + '"' + (i === shown.month ? ' selected' : '') + '>' + m.slice(0, 3) + '</option>').join('') + '</select> '
    + '<select class="year">' + years.map((y) => '<option' + (y === shown.year ? ' selected' : '') + '>' + y + '</option>').join('') + '</select></div>'
    + '<table class="ui-datepicker-calendar"><tbody><tr>' + cells + '</tr></tbody></table>';
  $('#picker .month').addEventListener('change', (e) => { shown.month = Number(e.target.value); draw(); });
  $('#picker .year').addEventListener('change', (e) => { shown.year = Number(e.target.value); draw(); });
  $$('#picker a[data-day]').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); pick(Number(a.dataset.day)); }));
}`,
    ),
  }),
);

export const DATEPICKER_TASKS: TaskDef[] = [jqueryUi, iconButtons, selects];
