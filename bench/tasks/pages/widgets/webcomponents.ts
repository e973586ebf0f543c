/**
 * Web-component libraries, whose controls live in shadow roots: Shoelace switches and select, Ionic
 * toggles and checkboxes. The verdict on Save reads each element's own properties (`checked`, `value`).
 */
import { COLORS, type Rng } from '../../random.js';
import type { TaskDef } from '../../types.js';
import { esc, js, shell } from '../shell.js';
import { css, moduleScript } from './assets.js';

const SHOELACE = `${css('@shoelace-style/shoelace/cdn/themes/light.css')}${moduleScript('@shoelace-style/shoelace/cdn/shoelace.js')}`;
const IONIC = `${css('@ionic/core/css/ionic.bundle.css')}${moduleScript('@ionic/core/dist/ionic/ionic.esm.js')}`;

const SETTINGS = ['Email alerts', 'Dark mode', 'Auto-save', 'Weekly digest', 'Sound effects', 'Location access', 'Two-step login', 'Read receipts'];

export interface ToggleSpec {
  settings: Array<{ name: string; on: boolean }>;
  /** The settings to change, with the state each must end in. */
  changes: Array<{ name: string; on: boolean }>;
}

/** Five settings, some on; the task flips one that is off and one that is on. */
function generateToggles(rng: Rng): ToggleSpec {
  const names = rng.sample(SETTINGS, 5);
  const settings = names.map((name, i) => ({ name, on: i % 2 === 1 }));
  const off = rng.pick(settings.filter((s) => !s.on));
  const on = rng.pick(settings.filter((s) => s.on));
  return { settings: rng.shuffle(settings), changes: rng.shuffle([{ name: off.name, on: true }, { name: on.name, on: false }]) };
}

function toggleInstruction(spec: ToggleSpec): string {
  const phrase = (change: { name: string; on: boolean }) => `turn ${change.on ? 'on' : 'off'} "${change.name}"`;
  const text = spec.changes.map(phrase).join(' and ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}, then press Save.`;
}

/** Page logic: on Save, every element must be in its wanted state (changed or left alone). */
function toggleScript(spec: ToggleSpec, selector: string): string {
  const wanted = Object.fromEntries(spec.settings.map((s) => [s.name, spec.changes.find((c) => c.name === s.name)?.on ?? s.on]));
  return `
const WANTED = ${js(wanted)};
$('#save').addEventListener('click', () => {
  const wrong = $$(${js(selector)}).filter((el) => el.checked !== WANTED[el.dataset.name]).map((el) => el.dataset.name);
  report(wrong.length === 0, wrong.length ? 'wrong: ' + wrong.join(', ') : 'all as wanted');
});`;
}

const shoelaceSwitches: TaskDef<ToggleSpec> = {
  id: 'real-shoelace-switch',
  category: 'web components',
  policy: 'toggleSwitches',
  summary: 'Shoelace 2 <sl-switch> elements (a role=switch input in a shadow root, label in a slot) and an <sl-button>',
  generate: generateToggles,
  render: (spec, { episode }) =>
    shell({
      title: 'Settings',
      episode,
      instruction: toggleInstruction(spec),
      body: `${SHOELACE}
<h3>Notifications and privacy</h3>
${spec.settings.map((s) => `<div style="margin: 8px 0"><sl-switch data-name="${esc(s.name)}"${s.on ? ' checked' : ''}>${esc(s.name)}</sl-switch></div>`).join('\n')}
<sl-button id="save" variant="primary">Save</sl-button>`,
      script: toggleScript(spec, 'sl-switch'),
    }),
};

const ionicToggles: TaskDef<ToggleSpec> = {
  id: 'real-ionic-toggle',
  category: 'web components',
  policy: 'toggleSwitches',
  summary: 'Ionic 8 <ion-toggle> elements in an <ion-list> (label in the element, input in a shadow root) and an <ion-button>',
  generate: generateToggles,
  render: (spec, { episode }) =>
    shell({
      title: 'Settings',
      episode,
      instruction: toggleInstruction(spec),
      body: `${IONIC}
<ion-list>
${spec.settings.map((s) => `<ion-item><ion-toggle data-name="${esc(s.name)}"${s.on ? ' checked' : ''}>${esc(s.name)}</ion-toggle></ion-item>`).join('\n')}
</ion-list>
<ion-button id="save">Save</ion-button>`,
      script: toggleScript(spec, 'ion-toggle'),
    }),
};

export interface TickSpec {
  options: Array<{ name: string; on: boolean }>;
  wanted: string[];
}

const ionicCheckboxes: TaskDef<TickSpec> = {
  id: 'real-ionic-checkbox',
  category: 'web components',
  policy: 'checkboxes',
  summary: 'Ionic 8 <ion-checkbox> elements, some ticked at first; the same policy as the plain checkbox task',
  generate: (rng) => {
    const names = rng.sample(COLORS, 6);
    return { options: names.map((name) => ({ name, on: rng.chance(0.4) })), wanted: rng.sample(names, 2) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Colours',
      episode,
      instruction: `Tick only ${spec.wanted.map((w) => `"${w}"`).join(' and ')}, untick everything else, then press Submit.`,
      body: `${IONIC}
<ion-list>
${spec.options.map((o) => `<ion-item><ion-checkbox data-name="${esc(o.name)}"${o.on ? ' checked' : ''}>${esc(o.name)}</ion-checkbox></ion-item>`).join('\n')}
</ion-list>
<ion-button id="go">Submit</ion-button>`,
      script: `
const WANTED = ${js(spec.wanted)};
$('#go').addEventListener('click', () => {
  const ticked = $$('ion-checkbox').filter((el) => el.checked).map((el) => el.dataset.name);
  report(ticked.length === WANTED.length && WANTED.every((w) => ticked.includes(w)), 'ticked ' + ticked.join(', '));
});`,
    }),
};

export interface ChoiceSpec {
  options: string[];
  answer: string;
}

const shoelaceSelect: TaskDef<ChoiceSpec> = {
  id: 'real-shoelace-select',
  category: 'web components',
  policy: 'pickOption',
  summary: 'Shoelace 2 <sl-select> with <sl-option>s: a combobox in a shadow root opening a listbox',
  generate: (rng) => {
    const options = rng.sample(COLORS, 8);
    return { options, answer: rng.pick(options.slice(1)) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Pick a colour',
      episode,
      instruction: `Choose "${spec.answer}" in the Colour list, then press Save.`,
      body: `${SHOELACE}
<sl-select id="colour" label="Colour" placeholder="Select one" style="max-width: 300px">
${spec.options.map((o) => `<sl-option value="${esc(o.toLowerCase())}">${esc(o)}</sl-option>`).join('\n')}
</sl-select>
<p><sl-button id="save" variant="primary">Save</sl-button></p>`,
      script: `
$('#save').addEventListener('click', () => {
  const value = $('#colour').value;
  report(value === ${js(spec.answer.toLowerCase())}, 'value ' + JSON.stringify(value));
});`,
    }),
};

export const WEB_COMPONENT_TASKS: TaskDef[] = [shoelaceSwitches, shoelaceSelect, ionicToggles, ionicCheckboxes];
