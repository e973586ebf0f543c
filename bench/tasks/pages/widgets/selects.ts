/**
 * Searchable selects: Tom Select on a single and on a multiple <select>, and jQuery UI's autocomplete.
 * Typing filters the options; the wanted one must be clicked. Verdicts read the library's value (Tom
 * Select's getValue()) or the item jQuery UI reported in its select event.
 */
import { COUNTRIES, TOWNS } from '../../random.js';
import type { TaskDef } from '../../types.js';
import { generate, type AutocompleteSpec } from '../autocomplete.js';
import { esc, js, shell } from '../shell.js';
import { css, script } from './assets.js';

const instruction = (spec: AutocompleteSpec) =>
  `Type "${spec.prefix}" into the ${spec.label} field, choose "${spec.answer}" from the suggestions and press Submit.`;

const TOM_SELECT = `${css('tom-select/dist/css/tom-select.css')}${script('tom-select/dist/js/tom-select.complete.min.js')}`;
const options = (choices: string[]) => choices.map((c) => `<option value="${esc(c)}">${esc(c)}</option>`).join('');

const tomSelect: TaskDef<AutocompleteSpec> = {
  id: 'real-tomselect',
  category: 'searchable selects',
  policy: 'autocomplete',
  summary: 'Tom Select 2 on a single <select> of 150 countries: a combobox input that filters a listbox of options',
  generate: (rng) => ({ ...generate(rng, COUNTRIES, 3, false, 10, [2]), label: 'Country' }),
  render: (spec, { episode }) =>
    shell({
      title: 'Shipping',
      episode,
      instruction: instruction(spec),
      body: `${TOM_SELECT}
<label for="country">Country</label>
<select id="country" placeholder="Pick a country…"><option value=""></option>${options(spec.choices)}</select>
<div><button id="go">Submit</button></div>`,
      script: `
const select = new TomSelect('#country', {});
$('#go').addEventListener('click', () => report(select.getValue() === ${js(spec.answer)}, 'value ' + JSON.stringify(select.getValue())));`,
    }),
};

const tomSelectMulti: TaskDef<AutocompleteSpec & { preset: string }> = {
  id: 'real-tomselect-multi',
  category: 'searchable selects',
  policy: 'autocomplete',
  summary: 'Tom Select 2 on a multiple <select> with one tag chosen already, the remove-button plugin and closeAfterSelect: add one more',
  generate: (rng) => {
    const spec = { ...generate(rng, TOWNS, 3, false, 10, [1, 2]), label: 'Cities' };
    return { ...spec, preset: rng.pick(spec.choices.filter((c) => !c.startsWith(spec.prefix))) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Trip',
      episode,
      instruction: instruction(spec),
      body: `${TOM_SELECT}
<label for="cities">Cities</label>
<select id="cities" multiple placeholder="Add cities…">${options(spec.choices)}</select>
<div><button id="go">Submit</button></div>`,
      script: `
const select = new TomSelect('#cities', { plugins: ['remove_button'], items: [${js(spec.preset)}], closeAfterSelect: true });
$('#go').addEventListener('click', () => {
  const value = select.getValue();
  const wanted = [${js(spec.preset)}, ${js(spec.answer)}];
  report(value.length === 2 && wanted.every((w) => value.includes(w)), 'value ' + value.join(', '));
});`,
    }),
};

const jqueryUiAutocomplete: TaskDef<AutocompleteSpec> = {
  id: 'real-jqueryui-autocomplete',
  category: 'searchable selects',
  policy: 'autocomplete',
  summary: "jQuery UI 1.14 autocomplete on a text field: a menu of list items appended to the body; verdict from its select event",
  generate: (rng) => ({ ...generate(rng, TOWNS, 3, false, 10, [2]), label: 'City' }),
  render: (spec, { episode }) =>
    shell({
      title: 'Trip',
      episode,
      instruction: instruction(spec),
      body: `${css('jquery-ui/dist/themes/base/jquery-ui.min.css')}${script('jquery/dist/jquery.min.js')}${script('jquery-ui/dist/jquery-ui.min.js')}
<label for="city">City</label><input id="city">
<div><button id="go">Submit</button></div>`,
      script: `
let chosen = null;
jQuery('#city').autocomplete({ source: ${js(spec.choices)}, select: (event, ui) => { chosen = ui.item.value; } });
$('#go').addEventListener('click', () => report(chosen === ${js(spec.answer)} && $('#city').value === chosen, 'chose ' + JSON.stringify(chosen)));`,
    }),
};

export const SELECT_TASKS: TaskDef[] = [tomSelect, tomSelectMulti, jqueryUiAutocomplete];
