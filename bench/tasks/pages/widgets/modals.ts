/**
 * Modal forms from libraries: a jQuery UI dialog (buttons made by the library, an overlay over the page)
 * and a Shoelace <sl-dialog> with <sl-input>s in shadow roots. The verdict on Save reads the fields the
 * dialog holds (the inputs' values, the sl-inputs' `value`).
 */
import { CITIES, fullName, type Rng } from '../../random.js';
import type { TaskDef } from '../../types.js';
import { esc, js, shell } from '../shell.js';
import { css, moduleScript, script } from './assets.js';

export interface ProfileSpec {
  old: { name: string; city: string };
  wanted: { name: string; city: string };
  /** Which fields the task changes (one or both). */
  fields: Array<'Name' | 'City'>;
}

function generate(rng: Rng): ProfileSpec {
  const old = { name: fullName(rng), city: rng.pick(CITIES) };
  const wanted = { name: fullName(rng), city: rng.pick(CITIES.filter((c) => c !== old.city)) };
  return { old, wanted, fields: rng.pick([['Name', 'City'], ['City', 'Name'], ['Name'], ['City']] as Array<ProfileSpec['fields']>) };
}

function instruction(spec: ProfileSpec): string {
  const value = (field: 'Name' | 'City') => `"${field === 'Name' ? spec.wanted.name : spec.wanted.city}" as ${field}`;
  return `Open "Edit profile", enter ${spec.fields.map(value).join(' and ')}, then press Save.`;
}

/** What the fields must hold on Save: the wanted values where the task changes them, the old ones elsewhere. */
function expected(spec: ProfileSpec) {
  return { name: spec.fields.includes('Name') ? spec.wanted.name : spec.old.name, city: spec.fields.includes('City') ? spec.wanted.city : spec.old.city };
}

const verdict = (spec: ProfileSpec) => `
const EXPECTED = ${js(expected(spec))};
function judge(name, city) {
  report(name.trim() === EXPECTED.name && city.trim() === EXPECTED.city, 'name ' + JSON.stringify(name) + ', city ' + JSON.stringify(city));
}`;

const PROFILE = (spec: ProfileSpec) => `<h3>Profile</h3><p>${esc(spec.old.name)}, ${esc(spec.old.city)}</p>`;

const jqueryUiDialog: TaskDef<ProfileSpec> = {
  id: 'real-jqueryui-dialog',
  category: 'modal forms',
  policy: 'modalForm',
  summary: 'jQuery UI 1.14 modal dialog with a form; its Save and Cancel buttons are made by the library',
  generate,
  render: (spec, { episode }) =>
    shell({
      title: 'Profile',
      episode,
      instruction: instruction(spec),
      body: `${css('jquery-ui/dist/themes/base/jquery-ui.min.css')}${script('jquery/dist/jquery.min.js')}${script('jquery-ui/dist/jquery-ui.min.js')}
${PROFILE(spec)}
<button id="open">Edit profile</button>
<div id="dialog" title="Edit profile">
  <label for="name">Name</label><input id="name" value="${esc(spec.old.name)}">
  <label for="city">City</label><input id="city" value="${esc(spec.old.city)}">
</div>`,
      script: `${verdict(spec)}
jQuery('#dialog').dialog({
  autoOpen: false, modal: true, width: 360,
  buttons: { Save: () => judge($('#name').value, $('#city').value), Cancel: () => jQuery('#dialog').dialog('close') },
});
$('#open').addEventListener('click', () => jQuery('#dialog').dialog('open'));`,
    }),
};

const shoelaceDialog: TaskDef<ProfileSpec> = {
  id: 'real-shoelace-dialog',
  category: 'modal forms',
  policy: 'modalForm',
  summary: 'Shoelace 2 <sl-dialog> with <sl-input> fields (inputs in shadow roots) and <sl-button>s',
  generate,
  render: (spec, { episode }) =>
    shell({
      title: 'Profile',
      episode,
      instruction: instruction(spec),
      body: `${css('@shoelace-style/shoelace/cdn/themes/light.css')}${moduleScript('@shoelace-style/shoelace/cdn/shoelace.js')}
${PROFILE(spec)}
<sl-button id="open">Edit profile</sl-button>
<sl-dialog id="dialog" label="Edit profile">
  <sl-input id="name" label="Name" value="${esc(spec.old.name)}"></sl-input>
  <sl-input id="city" label="City" value="${esc(spec.old.city)}"></sl-input>
  <sl-button slot="footer" id="cancel">Cancel</sl-button>
  <sl-button slot="footer" id="save" variant="primary">Save</sl-button>
</sl-dialog>`,
      script: `${verdict(spec)}
$('#open').addEventListener('click', () => $('#dialog').show());
$('#cancel').addEventListener('click', () => $('#dialog').hide());
$('#save').addEventListener('click', () => judge($('#name').value, $('#city').value));`,
    }),
};

export const MODAL_TASKS: TaskDef[] = [jqueryUiDialog, shoelaceDialog];
