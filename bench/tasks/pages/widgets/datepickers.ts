/**
 * Real date-picker libraries: flatpickr, Pikaday, vanillajs-datepicker, Air Datepicker and jQuery UI's
 * datepicker, each on a labelled Date field with the library's defaults. The verdict on Submit reads the
 * date from the library's own state (selectedDates, getDate()), not from the field's text.
 */
import { MONTHS } from '../../random.js';
import type { TaskDef } from '../../types.js';
import { datePickerTask, type DateSpec } from '../datepickers.js';
import { js } from '../shell.js';
import { css, script } from './assets.js';

/** Submit sits beside the field: pickers that stay open after a pick (autohide off by default) open below it. */
const FIELD = `<label for="date">Date</label><input id="date" autocomplete="off" placeholder="mm/dd/yyyy"> <button id="go">Submit</button>`;

/**
 * Page logic shared by the libraries: `setup` creates the picker on #date (with `START`, the month it
 * opens on) and defines `chosen()`, the library's selected Date or null.
 */
function pickerPage(id: string, summary: string, assets: string, setup: string): TaskDef<DateSpec> {
  return datePickerTask({ id, category: 'date pickers (real)', summary }, (spec) => ({
    body: `${assets}\n${FIELD}`,
    script: `
const START = new Date(${spec.start.year}, ${spec.start.month}, 15);
const TARGET = ${js(spec.target)};
${setup}
$('#go').addEventListener('click', () => {
  const date = chosen();
  const ok = !!date && date.getFullYear() === TARGET.year && date.getMonth() === TARGET.month && date.getDate() === TARGET.day;
  report(ok, 'picked ' + (date ? date.toDateString() : 'nothing'));
});`,
  }));
}

const flatpickrTask = pickerPage(
  'real-flatpickr',
  'flatpickr 4: month as a select, year as a number field, arrows as SVG-only spans, days with full-date aria-labels',
  `${css('flatpickr/dist/flatpickr.min.css')}${script('flatpickr/dist/flatpickr.min.js')}`,
  `const picker = flatpickr('#date', { now: START });
const chosen = () => picker.selectedDates[0] ?? null;`,
);

const pikadayTask = pickerPage(
  'real-pikaday',
  'Pikaday 1.8: month and year as selects behind their labels, "Previous Month"/"Next Month" buttons, days as buttons',
  `${css('pikaday/css/pikaday.css')}${script('pikaday/pikaday.js')}`,
  `const picker = new Pikaday({ field: $('#date'), defaultDate: START });
const chosen = () => picker.getDate();`,
);

const vanillaTask = pickerPage(
  'real-vanillajs-datepicker',
  'vanillajs-datepicker 1.3: «/» arrow buttons, a "Month Year" switch button, day cells as spans',
  `${css('vanillajs-datepicker/dist/css/datepicker.min.css')}${script('vanillajs-datepicker/dist/js/datepicker.min.js')}`,
  `const picker = new Datepicker($('#date'), { defaultViewDate: START });
const chosen = () => picker.getDate() ?? null;`,
);

/** Air Datepicker's default language is Russian; a page in English passes its English names. */
const AIR_ENGLISH = {
  days: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  daysShort: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  daysMin: ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'],
  months: MONTHS,
  monthsShort: MONTHS.map((m) => m.slice(0, 3)),
  today: 'Today',
  clear: 'Clear',
  dateFormat: 'MM/dd/yyyy',
  timeFormat: 'hh:mm aa',
  firstDay: 0,
};

const airTask = pickerPage(
  'real-air-datepicker',
  'Air Datepicker 3: arrows are SVG-only divs, the title reads "March, 2024", days are divs',
  `${css('air-datepicker/air-datepicker.css')}${script('air-datepicker/air-datepicker.js')}`,
  `const picker = new AirDatepicker('#date', { startDate: START, locale: ${js(AIR_ENGLISH)} });
const chosen = () => picker.selectedDates[0] ?? null;`,
);

const jqueryUiTask = pickerPage(
  'real-jqueryui-datepicker',
  'jQuery UI 1.14 datepicker: href-less Prev/Next anchors with hidden text, days as links in a table',
  `${css('jquery-ui/dist/themes/base/jquery-ui.min.css')}${script('jquery/dist/jquery.min.js')}${script('jquery-ui/dist/jquery-ui.min.js')}`,
  `jQuery('#date').datepicker({ defaultDate: START });
const chosen = () => jQuery('#date').datepicker('getDate');`,
);

export const REAL_DATEPICKER_TASKS: TaskDef[] = [flatpickrTask, pikadayTask, vanillaTask, airTask, jqueryUiTask];
