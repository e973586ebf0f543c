/**
 * Controls whose name is not visible text: fields named only by aria-label, icon links
 * named only by `title`, buttons whose text is in a visually-hidden span, and links whose text is pushed
 * off screen by text-indent (image replacement).
 */
import { type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { fieldsPage, generateFields, type FieldsSpec } from './forms.js';
import { esc, js, shell } from './shell.js';

const ariaFields: TaskDef<FieldsSpec> = {
  id: 'aria-label-fields',
  category: 'hidden labels',
  policy: 'fillFields',
  summary: 'text fields named only by aria-label (the placeholder is an example, not the name)',
  generate: (rng) => generateFields(rng, 3),
  render: (spec, { episode }) => fieldsPage(spec, episode, 'Contact form', 'aria-label'),
};

interface IconsSpec {
  names: string[];
  target: number;
}

const ACTIONS = ['Settings', 'Notifications', 'Messages', 'Calendar', 'Search', 'Help', 'Profile', 'Bookmarks', 'History', 'Downloads'];

function generateIcons(rng: Rng): IconsSpec {
  const names = rng.sample(ACTIONS, rng.int(5, 7));
  return { names, target: rng.int(0, names.length - 1) };
}

const clickScript = (spec: IconsSpec, selector: string) => `const names = ${js(spec.names)};
$$(${js(selector)}).forEach((el, i) => el.addEventListener('click', (e) => { e.preventDefault(); report(i === ${spec.target}, 'clicked ' + names[i]); }));`;

const ICON = '<svg width="18" height="18" viewBox="0 0 18 18"><circle cx="9" cy="9" r="7" fill="none" stroke="#444"/></svg>';

const titleLinks: TaskDef<IconsSpec> = {
  id: 'title-only-links',
  category: 'hidden labels',
  policy: 'clickText',
  summary: 'a toolbar of icon links (an SVG each) named only by their title attribute',
  generate: generateIcons,
  render: (spec, { episode }) =>
    shell({
      title: 'Toolbar',
      episode,
      instruction: `Click "${spec.names[spec.target]}".`,
      body: `<div class="bar">${spec.names.map((n) => `<a href="#" class="tool" title="${esc(n)}">${ICON}</a>`).join(' ')}</div>`,
      script: clickScript(spec, '.tool'),
    }),
};

const srOnly: TaskDef<IconsSpec> = {
  id: 'visually-hidden-text',
  category: 'hidden labels',
  policy: 'clickText',
  summary: 'icon buttons whose text sits in a visually-hidden (clipped, 1px) span',
  generate: generateIcons,
  render: (spec, { episode }) =>
    shell({
      title: 'Toolbar',
      episode,
      instruction: `Click "${spec.names[spec.target]}".`,
      body: `<div class="bar">${spec.names.map((n) => `<button class="tool">${ICON}<span class="sr-only">${esc(n)}</span></button>`).join(' ')}</div>`,
      style: '.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }',
      script: clickScript(spec, '.tool'),
    }),
};

const textIndent: TaskDef<IconsSpec> = {
  id: 'text-indent-links',
  category: 'hidden labels',
  policy: 'clickText',
  summary: 'image-replacement links: the text is pushed off screen with text-indent, a CSS shape shows instead',
  generate: generateIcons,
  render: (spec, { episode }) =>
    shell({
      title: 'Toolbar',
      episode,
      instruction: `Click "${spec.names[spec.target]}".`,
      body: `<div class="bar">${spec.names.map((n) => `<a href="#" class="ir">${esc(n)}</a>`).join('')}</div>`,
      style: '.ir { display: inline-block; width: 24px; height: 24px; margin-right: 8px; text-indent: -9999px; overflow: hidden; background: radial-gradient(circle, #468 45%, transparent 47%); }',
      script: clickScript(spec, '.ir'),
    }),
};

export const HIDDEN_TASKS: TaskDef[] = [ariaFields, titleLinks, srOnly, textIndent];
