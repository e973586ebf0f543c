/**
 * Scrolling: an answer deep in a long article, at the end of a scrollable box, and an entry of a list that
 * loads more items as the page scrolls down.
 */
import { ANIMALS, CITIES, WORDS, capitalize, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { esc, js, shell } from './shell.js';

/** A paragraph of 150–250 characters of plausible filler. */
function paragraph(rng: Rng): string {
  const sentences = Array.from({ length: rng.int(3, 4) }, () => {
    const [a, b, c] = rng.sample(WORDS, 3);
    return `The ${a} near ${rng.pick(CITIES)} was moved to the ${b} after the ${rng.pick(ANIMALS)} season, and the ${c} stayed where it was.`;
  });
  return sentences.join(' ').slice(0, rng.int(150, 250)).replace(/\s\S*$/, '.');
}

interface ArticleSpec {
  paragraphs: string[];
  /** Index of the paragraph that holds the code, in the middle of its text. */
  at: number;
  code: string;
}

function generateArticle(rng: Rng, count: number, at: number): ArticleSpec {
  const paragraphs = Array.from({ length: count }, () => paragraph(rng));
  const code = `${rng.code(3)}-${rng.int(100, 999)}`;
  const words = paragraphs[at]!.split(' ');
  const middle = Math.floor(words.length / 2);
  paragraphs[at] = [...words.slice(0, middle), `(the access code is ${code})`, ...words.slice(middle)].join(' ');
  return { paragraphs, at, code };
}

const ANSWER = `<label for="answer">Answer</label><input id="answer" autocomplete="off"> <button id="go">Submit</button>`;
const answerCheck = (code: string) =>
  `$('#go').addEventListener('click', () => report($('#answer').value.trim() === ${js(code)}, 'entered ' + JSON.stringify($('#answer').value)));`;

const article: TaskDef<ArticleSpec> = {
  id: 'scroll-article',
  category: 'scrolling',
  policy: 'readCode',
  summary: 'the code is in the middle of a long paragraph two screens down',
  generate: (rng) => generateArticle(rng, 16, rng.int(11, 14)),
  render: (spec, { episode }) =>
    shell({
      title: 'Field notes',
      episode,
      instruction: 'Find the access code in the text below and type it into the Answer field, then press Submit.',
      body: `${ANSWER}<article><h1>Field notes</h1>${spec.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n')}</article>`,
      style: 'article p { margin: 0 0 28px; }',
      script: answerCheck(spec.code),
    }),
};

const innerBox: TaskDef<ArticleSpec> = {
  id: 'scroll-inner-box',
  category: 'scrolling',
  policy: 'readCode',
  summary: 'the code is in the last paragraph of a 160px-high scrollable terms box',
  generate: (rng) => generateArticle(rng, 8, 7),
  render: (spec, { episode }) =>
    shell({
      title: 'Terms',
      episode,
      instruction: 'Find the access code in the box below and type it into the Answer field, then press Submit.',
      body: `<div id="terms" style="height:160px; overflow-y:auto; border:1px solid #999; padding:6px">${spec.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n')}</div>
${ANSWER}`,
      script: answerCheck(spec.code),
    }),
};

interface LazySpec {
  items: string[];
  target: number;
}

const lazyList: TaskDef<LazySpec> = {
  id: 'scroll-lazy-list',
  category: 'scrolling',
  policy: 'clickText',
  summary: 'a list that loads 10 more links each time the page is scrolled to the bottom; the wanted one is in the third or fourth batch',
  generate: (rng) => {
    const items = new Set<string>();
    while (items.size < 40) items.add(`${capitalize(rng.pick(WORDS))} ${rng.pick(CITIES)}`);
    return { items: [...items], target: rng.int(22, 39) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Listings',
      episode,
      instruction: `Click "${spec.items[spec.target]}". The list loads more entries as you scroll down.`,
      body: `<ul id="list"></ul><p id="status">Loading more when you reach the bottom…</p>`,
      style: '#list li { height: 70px; }',
      script: `const items = ${js(spec.items)};
let shown = 0;
function more() {
  const next = items.slice(shown, shown + 10);
  $('#list').insertAdjacentHTML('beforeend', next.map((item, i) => '<li><a href="#" data-i="' + (shown + i) + '">' + item + '</a></li>').join(''));
  shown += next.length;
  if (shown >= items.length) $('#status').textContent = 'End of the list.';
}
$('#list').addEventListener('click', (e) => {
  const a = e.target.closest('a');
  if (!a) return;
  e.preventDefault();
  report(Number(a.dataset.i) === ${spec.target}, 'clicked ' + a.textContent);
});
addEventListener('scroll', () => { if (innerHeight + scrollY >= document.documentElement.scrollHeight - 150 && shown < items.length) more(); });
more();`,
    }),
};

export const SCROLLING_TASKS: TaskDef[] = [article, innerBox, lazyList];
