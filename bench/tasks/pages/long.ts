/**
 * Long instructions (130–220 characters) that name several things to do: a snapshot that cuts text short
 * loses the end of the list.
 */
import { CITIES, FIRST_NAMES, LAST_NAMES, WORDS, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { checkboxPage, fieldsPage, generateCheckboxes, generateFields, type CheckboxSpec, type FieldsSpec } from './forms.js';
import { js, shell } from './shell.js';

const longCheckboxes: TaskDef<CheckboxSpec> = {
  id: 'long-checkboxes',
  category: 'long instructions',
  policy: 'checkboxes',
  summary: 'tick 5–6 of 12 boxes named in a ~190-character instruction',
  generate: (rng) => generateCheckboxes(rng, 12, rng.int(5, 6)),
  render: (spec, { episode }) => checkboxPage(spec, episode, true),
};

const longForm: TaskDef<FieldsSpec> = {
  id: 'long-form',
  category: 'long instructions',
  policy: 'fillFields',
  summary: 'five text fields named in one instruction of 130–170 characters',
  generate: (rng) => generateFields(rng, 5),
  render: (spec, { episode }) => fieldsPage(spec, episode, 'Registration', 'label'),
};

interface BookingSpec {
  guests: number;
  day: string;
  time: string;
  area: string;
  name: string;
  note: string;
}

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const TIMES = ['18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00'];
const AREAS = ['Terrace', 'Garden', 'Main hall', 'Bar', 'Window side'];

const booking: TaskDef<BookingSpec> = {
  id: 'long-booking',
  category: 'long instructions',
  policy: 'booking',
  summary: 'six controls of four kinds (selects, radios, text field, textarea) named in one ~200-character instruction',
  generate: (rng: Rng) => ({
    guests: rng.int(2, 8),
    day: rng.pick(DAYS),
    time: rng.pick(TIMES),
    area: rng.pick(AREAS),
    name: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
    note: `${rng.pick(WORDS)} cake for ${rng.pick(CITIES)}`,
  }),
  render: (spec, { episode }) =>
    shell({
      title: 'Book a table',
      episode,
      instruction: `Book a table for ${spec.guests} guests on ${spec.day} at ${spec.time}, seated in the ${spec.area} area, under the name "${spec.name}", with the note "${spec.note}", then press Book.`,
      body: `<label>Guests <select id="guests">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option>${n}</option>`).join('')}</select></label>
<label>Day <select id="day">${DAYS.map((d) => `<option>${d}</option>`).join('')}</select></label>
<fieldset><legend>Time</legend>${TIMES.map((t) => `<label><input type="radio" name="time" value="${t}"> ${t}</label>`).join('')}</fieldset>
<label>Area <select id="seat">${AREAS.map((a) => `<option>${a}</option>`).join('')}</select></label>
<label for="name">Name</label><input id="name">
<label for="note">Note</label><textarea id="note" rows="2"></textarea>
<div><button id="go">Book</button></div>`,
      style: 'fieldset label { display: inline-block; margin-right: 8px; }',
      script: `const wanted = ${js({ guests: String(spec.guests), day: spec.day, time: spec.time, area: spec.area, name: spec.name, note: spec.note })};
$('#go').addEventListener('click', () => {
  const time = $('input[name=time]:checked');
  const got = { guests: $('#guests').value, day: $('#day').value, time: time ? time.value : '', area: $('#seat').value, name: $('#name').value.trim(), note: $('#note').value.trim() };
  const wrong = Object.keys(wanted).filter((k) => got[k] !== wanted[k]);
  report(!wrong.length, wrong.length ? 'wrong ' + wrong.map((k) => k + '=' + JSON.stringify(got[k])).join(', ') : 'booked');
});`,
    }),
};

export const LONG_TASKS: TaskDef[] = [longCheckboxes, longForm, booking];
