/**
 * Forms: text fields, selects, checkboxes, radios, a textarea whose long value must be read and edited,
 * and a validation message to act on.
 */
import { CITIES, COLORS, FIRST_NAMES, FRUITS, LAST_NAMES, WORDS, capitalize, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { esc, js, shell } from './shell.js';

const FIELD_LABELS = ['First name', 'Last name', 'City', 'Company', 'Street', 'Zip code', 'Nickname', 'Job title', 'Team', 'Pet name'];

function valueFor(label: string, rng: Rng): string {
  switch (label) {
    case 'First name':
      return rng.pick(FIRST_NAMES);
    case 'Last name':
      return rng.pick(LAST_NAMES);
    case 'City':
      return rng.pick(CITIES);
    case 'Zip code':
      return String(rng.int(10000, 99999));
    default:
      return `${capitalize(rng.pick(WORDS))} ${rng.int(2, 99)}`;
  }
}

export interface FieldsSpec {
  fields: Array<{ label: string; value: string }>;
  /** Fields on the page, in page order; those not in `fields` must stay empty. */
  order: string[];
  submit: string;
}

/** "Enter "a" as X, "b" as Y and "c" as Z, then press Submit." over labelled, aria-labelled or placeholder-only fields. */
export function generateFields(rng: Rng, count: number): FieldsSpec {
  const labels = rng.sample(FIELD_LABELS, count + 2);
  const fields = labels.slice(0, count).map((label) => ({ label, value: valueFor(label, rng) }));
  return { fields, order: rng.shuffle(labels), submit: rng.pick(['Submit', 'Send', 'Save', 'Continue']) };
}

export function fieldsInstruction(spec: FieldsSpec): string {
  const parts = spec.fields.map((f) => `"${f.value}" as ${f.label}`);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return `Enter ${list}, then press ${spec.submit}.`;
}

/** The check every fields page runs on its submit button: wanted values in, other fields empty. */
export function fieldsScript(spec: FieldsSpec): string {
  return `
const wanted = ${js(Object.fromEntries(spec.fields.map((f) => [f.label, f.value])))};
$('#go').addEventListener('click', () => {
  const wrong = $$('input[data-label]').filter((input) => input.value.trim() !== (wanted[input.dataset.label] || ''));
  report(!wrong.length, wrong.map((input) => input.dataset.label + '=' + JSON.stringify(input.value)).join(', ') || 'all fields right');
});`;
}

/**
 * How a field is named: a visible <label>, only an aria-label (with an example as placeholder), or only a
 * placeholder.
 */
export type FieldNaming = 'label' | 'aria-label' | 'placeholder';

function fieldHtml(label: string, i: number, naming: FieldNaming): string {
  const data = `id="f${i}" data-label="${esc(label)}" autocomplete="off"`;
  if (naming === 'label') return `<label for="f${i}">${esc(label)}</label><input ${data}>`;
  if (naming === 'aria-label') return `<div><input ${data} aria-label="${esc(label)}" placeholder="e.g. ${esc(label === 'City' ? 'Springfield' : 'something')}"></div>`;
  return `<div><input ${data} placeholder="${esc(label)}"></div>`;
}

export function fieldsPage(spec: FieldsSpec, episode: string, title: string, naming: FieldNaming): string {
  return shell({
    title,
    episode,
    instruction: fieldsInstruction(spec),
    body: `${spec.order.map((label, i) => fieldHtml(label, i, naming)).join('\n')}
<div><button id="go">${esc(spec.submit)}</button></div>`,
    style: 'input { margin: 4px 0; }',
    script: fieldsScript(spec),
  });
}

const formFields: TaskDef<FieldsSpec> = {
  id: 'form-fields',
  category: 'forms',
  policy: 'fillFields',
  summary: 'three labelled text fields among five, in random order',
  generate: (rng) => generateFields(rng, 3),
  render: (spec, { episode }) => fieldsPage(spec, episode, 'Contact form', 'label'),
};

interface SelectSpec {
  label: string;
  options: string[];
  answer: string;
  other: { label: string; options: string[] };
}

const formSelect: TaskDef<SelectSpec> = {
  id: 'form-select',
  category: 'forms',
  policy: 'selectOption',
  summary: 'a native select among two, 6–12 options',
  generate: (rng) => {
    const [label, otherLabel] = rng.sample(['Favourite colour', 'Shipping method', 'Fruit basket', 'Home city', 'Paint'], 2) as [string, string];
    const pool = rng.pick([COLORS, FRUITS, CITIES]);
    const options = rng.sample(pool, rng.int(6, 12));
    return { label, options, answer: rng.pick(options.slice(1)), other: { label: otherLabel, options: rng.sample(pool, 5) } };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Preferences',
      episode,
      instruction: `Select "${spec.answer}" in the ${spec.label} list and press Submit.`,
      body: `<label>${esc(spec.other.label)} <select id="other">${spec.other.options.map((o) => `<option>${esc(o)}</option>`).join('')}</select></label>
<label>${esc(spec.label)} <select id="pick">${spec.options.map((o) => `<option>${esc(o)}</option>`).join('')}</select></label>
<button id="go">Submit</button>`,
      script: `$('#go').addEventListener('click', () => report($('#pick').value === ${js(spec.answer)}, 'picked ' + $('#pick').value));`,
    }),
};

export interface CheckboxSpec {
  boxes: string[];
  wanted: string[];
  prechecked: string[];
}

export function checkboxInstruction(spec: CheckboxSpec, long: boolean): string {
  const quoted = spec.wanted.map((w) => `"${w}"`);
  const list = `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
  return long
    ? `Update the delivery preferences so that exactly these ${spec.wanted.length} options are ticked: ${list}. Untick every other option, even if it was ticked before, then press Submit.`
    : `Tick only ${list}, untick everything else, then press Submit.`;
}

export function checkboxPage(spec: CheckboxSpec, episode: string, long: boolean): string {
  return shell({
    title: 'Options',
    episode,
    instruction: checkboxInstruction(spec, long),
    body: `${spec.boxes.map((box, i) => `<label><input type="checkbox" id="c${i}" value="${esc(box)}"${spec.prechecked.includes(box) ? ' checked' : ''}> ${esc(box)}</label>`).join('\n')}
<button id="go">Submit</button>`,
    script: `
const wanted = ${js([...spec.wanted].sort())};
$('#go').addEventListener('click', () => {
  const ticked = $$('input[type=checkbox]').filter((c) => c.checked).map((c) => c.value).sort();
  report(JSON.stringify(ticked) === JSON.stringify(wanted), 'ticked ' + ticked.join(', '));
});`,
  });
}

export function generateCheckboxes(rng: Rng, boxes: number, wanted: number): CheckboxSpec {
  const labels = rng.sample([...FRUITS, ...COLORS], boxes);
  const chosen = rng.sample(labels, wanted);
  // Some wrong boxes start ticked, so "nothing else" needs the states read from the page.
  const prechecked = rng.sample(labels, rng.int(1, 3));
  return { boxes: labels, wanted: chosen, prechecked };
}

const formCheckboxes: TaskDef<CheckboxSpec> = {
  id: 'form-checkboxes',
  category: 'forms',
  policy: 'checkboxes',
  summary: 'tick 2–3 of 7 boxes, some wrong ones pre-ticked',
  generate: (rng) => generateCheckboxes(rng, 7, rng.int(2, 3)),
  render: (spec, { episode }) => checkboxPage(spec, episode, false),
};

interface RadioSpec {
  groups: Array<{ legend: string; options: string[] }>;
  group: number;
  answer: string;
}

const formRadio: TaskDef<RadioSpec> = {
  id: 'form-radio',
  category: 'forms',
  policy: 'radio',
  summary: 'one radio in the right one of two groups',
  generate: (rng) => {
    const options = rng.sample([...COLORS, ...FRUITS], 10);
    const groups = [
      { legend: 'Frame', options: options.slice(0, 5) },
      { legend: 'Cover', options: options.slice(5) },
    ];
    const group = rng.int(0, 1);
    return { groups, group, answer: rng.pick(groups[group]!.options) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Choose a style',
      episode,
      instruction: `Choose "${spec.answer}" for the ${spec.groups[spec.group]!.legend.toLowerCase()}, then press Submit.`,
      body: `${spec.groups
        .map((g, gi) => `<fieldset><legend>${esc(g.legend)}</legend>${g.options.map((o) => `<label><input type="radio" name="g${gi}" value="${esc(o)}"> ${esc(o)}</label>`).join('')}</fieldset>`)
        .join('\n')}
<button id="go">Submit</button>`,
      script: `$('#go').addEventListener('click', () => {
  const chosen = $('input[name=g${spec.group}]:checked');
  report(chosen && chosen.value === ${js(spec.answer)}, 'chose ' + (chosen ? chosen.value : 'nothing'));
});`,
    }),
};

interface TextareaSpec {
  label: string;
  text: string;
  from: string;
  to: string;
}

const formTextarea: TaskDef<TextareaSpec> = {
  id: 'form-textarea-edit',
  category: 'forms',
  policy: 'textareaEdit',
  summary: 'replace a word near the end of a 180–260 character textarea value',
  generate: (rng) => {
    const words = rng.sample(WORDS, 12);
    const from = words[10]!;
    const to = words[11]!;
    const lead = `Delivery notes for ${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}: leave parcels with the ${words[0]} by the ${words[1]}, never near the ${words[2]} or the ${words[3]}.`;
    const middle = ` Ring twice, wait for the ${words[4]}, then use the ${words[5]} behind the ${words[6]} gate.`;
    const tail = ` On weekends use the ${from} entrance instead.`;
    return { label: rng.pick(['Notes', 'Message', 'Instructions']), text: lead + middle + tail, from, to };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Edit notes',
      episode,
      instruction: `In the ${spec.label} box, replace the word "${spec.from}" with "${spec.to}" and press Save.`,
      body: `<label for="t">${esc(spec.label)}</label><textarea id="t" rows="5" cols="60">${esc(spec.text)}</textarea>
<div><button id="go">Save</button></div>`,
      script: `const expected = ${js(spec.text.replace(spec.from, spec.to))};
$('#go').addEventListener('click', () => {
  const value = $('#t').value.replace(/\\s+/g, ' ').trim();
  report(value === expected, value === expected ? 'edited' : 'value ' + JSON.stringify(value.slice(-80)));
});`,
    }),
};

interface ValidationSpec {
  username: string;
  password: string;
  suggestion: string;
}

const formValidation: TaskDef<ValidationSpec> = {
  id: 'form-validation',
  category: 'forms',
  policy: 'validation',
  summary: 'read a validation message after submitting and use its suggestion',
  generate: (rng) => {
    const username = `${rng.pick(FIRST_NAMES).toLowerCase()}.${rng.pick(LAST_NAMES).toLowerCase()}`;
    return { username, password: `${capitalize(rng.pick(WORDS))}-${rng.int(100, 999)}`, suggestion: `${username}${rng.int(2, 98)}` };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Sign up',
      episode,
      instruction: `Sign up with the username "${spec.username}" and the password "${spec.password}". If that username is taken, use the one the page suggests.`,
      body: `<label for="u">Username</label><input id="u" autocomplete="off"><div id="msg" class="error" aria-live="polite"></div>
<label for="p">Password</label><input id="p" type="password">
<div><button id="go">Sign up</button></div>`,
      style: '.error { color: #b00; font-size: 13px; }',
      script: `
let warned = false;
$('#go').addEventListener('click', () => {
  const user = $('#u').value.trim();
  const passwordRight = $('#p').value === ${js(spec.password)};
  if (user === ${js(spec.username)} && !warned) {
    warned = true;
    $('#u').setAttribute('aria-invalid', 'true');
    $('#msg').textContent = 'The username "' + user + '" is taken. Try "' + ${js(spec.suggestion)} + '".';
    return;
  }
  report(warned && user === ${js(spec.suggestion)} && passwordRight, 'signed up as ' + user + (passwordRight ? '' : ' with a wrong password'));
});`,
    }),
};

export const FORM_TASKS: TaskDef[] = [formFields, formSelect, formCheckboxes, formRadio, formTextarea, formValidation];
