/**
 * Letter-by-letter text, captcha-like: each character in its own inline-block span, skewed or shifted,
 * not selectable. The characters are plain text in the DOM; only their layout is unusual.
 */
import { WORDS, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { esc, js, shell } from './shell.js';

interface CaptchaSpec {
  text: string;
  /** Per character: skew in degrees and vertical shift in px. */
  styles: Array<{ skew: number; shift: number }>;
}

function generate(rng: Rng, text: string): CaptchaSpec {
  return { text, styles: [...text].map(() => ({ skew: rng.int(-25, 25), shift: rng.int(-6, 6) })) };
}

function page(spec: CaptchaSpec, episode: string, kind: 'word' | 'code'): string {
  const letters = [...spec.text]
    .map((char, i) => `<span class="ch" style="transform: skewX(${spec.styles[i]!.skew}deg) translateY(${spec.styles[i]!.shift}px)">${esc(char)}</span>`)
    .join('');
  return shell({
    title: 'Security check',
    episode,
    instruction: 'Type the characters shown in the box below into the Answer field and press Submit.',
    body: `<div class="box" aria-hidden="false">${kind === 'code' ? '<div class="noise"></div>' : ''}${letters}</div>
<label for="answer">Answer</label><input id="answer" autocomplete="off">
<div><button id="go">Submit</button></div>`,
    style: `.box { position: relative; display: inline-block; padding: 10px 16px; background: #eef; border: 1px solid #99a; user-select: none; font: 28px Georgia, serif; letter-spacing: 4px; }
.ch { display: inline-block; user-select: none; }
.noise { position: absolute; left: 0; right: 0; top: 50%; border-top: 2px solid #778; }`,
    script: `$('#go').addEventListener('click', () => report($('#answer').value.trim() === ${js(spec.text)}, 'typed ' + JSON.stringify($('#answer').value)));`,
  });
}

const word: TaskDef<CaptchaSpec> = {
  id: 'captcha-word',
  category: 'letters',
  policy: 'captcha',
  summary: 'a lower-case word, one skewed inline-block span per letter',
  generate: (rng) => generate(rng, rng.pick(WORDS)),
  render: (spec, { episode }) => page(spec, episode, 'word'),
};

const code: TaskDef<CaptchaSpec> = {
  id: 'captcha-code',
  category: 'letters',
  policy: 'captcha',
  summary: 'six mixed-case letters and digits, shifted spans over a noise line',
  generate: (rng) => {
    const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
    return generate(rng, Array.from({ length: 6 }, () => rng.pick([...alphabet])).join(''));
  },
  render: (spec, { episode }) => page(spec, episode, 'code'),
};

export const LETTER_TASKS: TaskDef[] = [word, code];
