/**
 * Autocompletes: type a prefix, then choose a suggestion. A plain list whose items react to clicks through
 * script, an ARIA combobox with a listbox, and a long suggestion list where the wanted entry comes late.
 * Success needs the suggestion chosen from the list (typing the whole value does not count).
 */
import { COUNTRIES, TOWNS, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { js, shell } from './shell.js';

export interface AutocompleteSpec {
  label: string;
  choices: string[];
  prefix: string;
  answer: string;
}

/**
 * A prefix (of one of `lengths`) with at least `min` matches, and a target among the first `shown` of them
 * (the page lists no more), late in the list when `late`.
 */
export function generate(rng: Rng, choices: string[], min: number, late: boolean, shown: number, lengths = [1, 2]): AutocompleteSpec {
  const prefixes = new Map<string, string[]>();
  for (const choice of choices) {
    for (const length of lengths) {
      const prefix = choice.slice(0, length);
      prefixes.set(prefix, [...(prefixes.get(prefix) ?? []), choice]);
    }
  }
  const usable = [...prefixes].filter(([, matches]) => matches.length >= min);
  const [prefix, all] = rng.pick(usable);
  const matches = all.slice(0, shown);
  const answer = late ? matches[rng.int(Math.max(0, matches.length - 4), matches.length - 1)]! : rng.pick(matches);
  return { label: '', choices, prefix, answer };
}

function instruction(spec: AutocompleteSpec): string {
  return `Type "${spec.prefix}" into the ${spec.label} field, choose "${spec.answer}" from the suggestions and press Submit.`;
}

/** Shared logic: filter on input, choose sets the value and remembers that a suggestion was chosen. */
function script(spec: AutocompleteSpec, renderList: string, max: number): string {
  return `
const choices = ${js(spec.choices)};
let chosen = null;
const input = $('#ac');
function choose(value) { input.value = value; chosen = value; $('#list').innerHTML = ''; $('#list').hidden = true; input.setAttribute('aria-expanded', 'false'); }
input.addEventListener('input', () => {
  chosen = null;
  const typed = input.value.trim().toLowerCase();
  const matches = typed ? choices.filter((c) => c.toLowerCase().startsWith(typed)).slice(0, ${max}) : [];
  ${renderList}
});
$('#go').addEventListener('click', () => report(chosen === ${js(spec.answer)} && input.value === chosen, chosen ? 'chose ' + chosen : 'no suggestion chosen, value ' + JSON.stringify(input.value)));
`;
}

const plain: TaskDef<AutocompleteSpec> = {
  id: 'autocomplete-plain',
  category: 'autocomplete',
  policy: 'autocomplete',
  summary: 'suggestions in a plain <ul>, items bound by script (pointer cursor, no roles)',
  generate: (rng) => ({ ...generate(rng, COUNTRIES, 3, false, 10), label: 'Country' }),
  render: (spec, { episode }) =>
    shell({
      title: 'Shipping',
      episode,
      instruction: instruction(spec),
      body: `<label for="ac">${spec.label}</label><input id="ac" autocomplete="off">
<ul id="list" class="ui-menu" hidden></ul>
<div><button id="go">Submit</button></div>`,
      style: '.ui-menu { list-style: none; margin: 0; padding: 2px; border: 1px solid #aaa; width: 220px; } .ui-menu li { cursor: pointer; padding: 2px 4px; } .ui-menu li:hover { background: #ddd; }',
      script: script(
        spec,
        `$('#list').innerHTML = matches.map((m) => '<li class="ui-menu-item"><div>' + m + '</div></li>').join('');
  $('#list').hidden = !matches.length;
  $$('#list li').forEach((li) => li.addEventListener('click', () => choose(li.textContent)));`,
        10,
      ),
    }),
};

const aria: TaskDef<AutocompleteSpec> = {
  id: 'autocomplete-aria',
  category: 'autocomplete',
  policy: 'autocomplete',
  summary: 'an ARIA combobox with a listbox of options',
  generate: (rng) => ({ ...generate(rng, TOWNS, 3, false, 10, [2]), label: 'City' }),
  render: (spec, { episode }) =>
    shell({
      title: 'Travel',
      episode,
      instruction: instruction(spec),
      body: `<label for="ac">${spec.label}</label><input id="ac" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="list" autocomplete="off">
<ul id="list" role="listbox" hidden></ul>
<div><button id="go">Submit</button></div>`,
      style: '#list { list-style: none; margin: 0; padding: 2px; border: 1px solid #aaa; width: 220px; } #list li { padding: 2px 4px; }',
      script: script(
        spec,
        `$('#list').innerHTML = matches.map((m, i) => '<li role="option" id="opt' + i + '">' + m + '</li>').join('');
  $('#list').hidden = !matches.length;
  input.setAttribute('aria-expanded', String(!!matches.length));
  $$('#list li').forEach((li) => li.addEventListener('mousedown', (e) => { e.preventDefault(); choose(li.textContent); }));`,
        10,
      ),
    }),
};

const long: TaskDef<AutocompleteSpec> = {
  id: 'autocomplete-long',
  category: 'autocomplete',
  policy: 'autocomplete',
  summary: 'a one-letter prefix with 9–20 suggestions in a scrolling list; the wanted one is among the last',
  generate: (rng) => ({ ...generate(rng, COUNTRIES, 9, true, 20, [1]), label: 'Destination' }),
  render: (spec, { episode }) =>
    shell({
      title: 'Book a trip',
      episode,
      instruction: instruction(spec),
      body: `<label for="ac">${spec.label}</label><input id="ac" autocomplete="off">
<ul id="list" hidden></ul>
<div><button id="go">Submit</button></div>`,
      style: '#list { list-style: none; margin: 0; padding: 0; border: 1px solid #aaa; width: 220px; max-height: 150px; overflow-y: auto; } #list li a { display: block; padding: 2px 4px; color: #000; text-decoration: none; }',
      script: script(
        spec,
        `$('#list').innerHTML = matches.map((m) => '<li><a href="#">' + m + '</a></li>').join('');
  $('#list').hidden = !matches.length;
  $$('#list a').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); choose(a.textContent); }));`,
        20,
      ),
    }),
};

export const AUTOCOMPLETE_TASKS: TaskDef[] = [plain, aria, long];
