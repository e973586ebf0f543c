/**
 * Script-bound controls: spans, divs and href-less anchors that react to clicks through addEventListener or
 * an `onclick` property, with no role and no pointer cursor; and sliders moved by keys (a jQuery-UI-like
 * handle span with tabindex, and a native range input).
 */
import { CITIES, COLORS, FRUITS, people, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { esc, js, shell } from './shell.js';

interface WordsSpec {
  words: string[];
  target: number;
}

const pickWords = (rng: Rng, pool: string[], count: number): WordsSpec => {
  const words = rng.sample(pool, count);
  return { words, target: rng.int(0, count - 1) };
};

const clickCheck = (spec: WordsSpec, selector: string, how: 'listener' | 'property') =>
  `const words = ${js(spec.words)};
$$(${js(selector)}).forEach((el, i) => {
  const handler = () => report(i === ${spec.target}, 'clicked ' + words[i]);
  ${how === 'listener' ? "el.addEventListener('click', handler);" : 'el.onclick = handler;'}
});`;

const spans: TaskDef<WordsSpec> = {
  id: 'span-buttons',
  category: 'script-bound',
  policy: 'clickText',
  summary: 'a toolbar of <span>s with click listeners: no role, no tabindex, no pointer cursor',
  generate: (rng) => pickWords(rng, ['Approve', 'Reject', 'Hold', 'Escalate', 'Forward', 'Snooze', 'Flag', 'Assign'], rng.int(5, 7)),
  render: (spec, { episode }) =>
    shell({
      title: 'Review',
      episode,
      instruction: `Click "${spec.words[spec.target]}".`,
      body: `<div class="toolbar">${spec.words.map((w) => `<span class="act">${esc(w)}</span>`).join(' ')}</div>`,
      style: '.act { display: inline-block; padding: 3px 10px; margin-right: 6px; border: 1px solid #999; border-radius: 3px; background: #f4f4f4; }',
      script: clickCheck(spec, '.act', 'listener'),
    }),
};

const anchors: TaskDef<WordsSpec> = {
  id: 'inline-anchors',
  category: 'script-bound',
  policy: 'clickText',
  summary: 'href-less <a>s inside a sentence, bound with addEventListener',
  generate: (rng) => pickWords(rng, [...COLORS, ...FRUITS], 6),
  render: (spec, { episode }) =>
    shell({
      title: 'Filters',
      episode,
      instruction: `Click "${spec.words[spec.target]}".`,
      body: `<p>Show only items tagged ${spec.words.map((w) => `<a class="tag">${esc(w)}</a>`).join(', ')}, or clear the filter.</p>`,
      style: '.tag { color: #04c; text-decoration: underline; }',
      script: clickCheck(spec, '.tag', 'listener'),
    }),
};

interface CardsSpec {
  names: string[];
  cities: string[];
  target: number;
}

const cards: TaskDef<CardsSpec> = {
  id: 'div-cards',
  category: 'script-bound',
  policy: 'clickText',
  summary: 'person cards (<div>s) bound through the onclick property, no role or cursor',
  generate: (rng) => {
    const names = people(rng, rng.int(4, 6));
    return { names, cities: names.map(() => rng.pick(CITIES)), target: rng.int(0, names.length - 1) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'People',
      episode,
      instruction: `Click the card of ${spec.names[spec.target]}.`,
      body: `<div class="cards">${spec.names.map((n, i) => `<div class="card"><div class="name">${esc(n)}</div><div class="city">${esc(spec.cities[i]!)}</div></div>`).join('')}</div>`,
      style: '.cards { display: flex; flex-wrap: wrap; gap: 8px; } .card { border: 1px solid #aaa; padding: 8px; width: 140px; } .name { font-weight: bold; }',
      script: clickCheck({ words: spec.names, target: spec.target }, '.card', 'property'),
    }),
};

interface SliderSpec {
  label: string;
  start: number;
  target: number;
}

function generateSlider(rng: Rng): SliderSpec {
  const start = rng.int(2, 18) * 5;
  let target = start;
  while (target === start) target = Math.min(100, Math.max(0, start + rng.pick([-1, 1]) * rng.int(1, 6) * 5));
  return { label: rng.pick(['Volume', 'Brightness', 'Opacity', 'Contrast']), start, target };
}

const sliderInstruction = (spec: SliderSpec) => `Set the ${spec.label} slider to ${spec.target} and press Submit.`;

const handle: TaskDef<SliderSpec> = {
  id: 'slider-handle',
  category: 'script-bound',
  policy: 'slider',
  summary: 'a jQuery-UI-like slider: a handle <span tabindex=0> with key listeners (arrows ±5, Home, End); the value is shown as text',
  generate: generateSlider,
  render: (spec, { episode }) =>
    shell({
      title: 'Settings',
      episode,
      instruction: sliderInstruction(spec),
      body: `<div>${esc(spec.label)}: <span id="val">${spec.start}</span></div>
<div class="ui-slider" id="track"><span class="ui-slider-handle" tabindex="0"></span></div>
<div><button id="go">Submit</button></div>`,
      style: `.ui-slider { position: relative; width: 300px; height: 10px; background: #ddd; margin: 14px 8px; border-radius: 4px; }
.ui-slider-handle { position: absolute; top: -5px; width: 16px; height: 18px; margin-left: -8px; background: #468; border-radius: 3px; }`,
      script: `let value = ${spec.start};
const handle = $('.ui-slider-handle');
function set(v) { value = Math.max(0, Math.min(100, Math.round(v / 5) * 5)); handle.style.left = value + '%'; $('#val').textContent = value; }
handle.addEventListener('keydown', (e) => {
  const moves = { ArrowRight: value + 5, ArrowUp: value + 5, ArrowLeft: value - 5, ArrowDown: value - 5, PageUp: value + 20, PageDown: value - 20, Home: 0, End: 100 };
  if (e.key in moves) { e.preventDefault(); set(moves[e.key]); }
});
// A click on the track jumps there; a click on the handle itself only focuses it.
$('#track').addEventListener('mousedown', (e) => {
  if (e.target === handle) return;
  const box = $('#track').getBoundingClientRect();
  set(((e.clientX - box.left) / box.width) * 100);
});
set(value);
$('#go').addEventListener('click', () => report(value === ${spec.target}, 'value ' + value));`,
    }),
};

const range: TaskDef<SliderSpec> = {
  id: 'slider-range',
  category: 'script-bound',
  policy: 'slider',
  summary: 'a native <input type=range> (step 5) with a label',
  generate: generateSlider,
  render: (spec, { episode }) =>
    shell({
      title: 'Settings',
      episode,
      instruction: sliderInstruction(spec),
      body: `<label for="r">${esc(spec.label)}</label><input type="range" id="r" min="0" max="100" step="5" value="${spec.start}"> <output id="out">${spec.start}</output>
<div><button id="go">Submit</button></div>`,
      script: `$('#r').addEventListener('input', () => ($('#out').textContent = $('#r').value));
$('#go').addEventListener('click', () => report(Number($('#r').value) === ${spec.target}, 'value ' + $('#r').value));`,
    }),
};

export const SCRIPTED_TASKS: TaskDef[] = [spans, anchors, cards, handle, range];
