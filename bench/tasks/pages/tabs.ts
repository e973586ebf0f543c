/**
 * Tabs, accordions and menus: content that appears only after the right tab or section is opened, and
 * long menus (14–24 entries) where the wanted entry comes late.
 */
import { ANIMALS, COLORS, WORDS, capitalize, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { esc, js, shell } from './shell.js';

interface PanelSpec {
  titles: string[];
  codes: string[];
  target: number;
  /** The panel open when the page loads (never the target). */
  initial: number;
  filler: string[];
}

function generatePanels(rng: Rng): PanelSpec {
  const titles = rng.sample(['Billing', 'Shipping', 'Profile', 'Security', 'Alerts', 'Devices', 'Privacy', 'Team'], rng.int(4, 5));
  const target = rng.int(1, titles.length - 1);
  return {
    titles,
    codes: titles.map(() => rng.code(6)),
    target,
    initial: 0,
    filler: titles.map(() => `Settings for ${rng.pick(ANIMALS)} accounts and ${rng.pick(WORDS)} plans.`),
  };
}

function codeInstruction(spec: PanelSpec, kind: 'tab' | 'section'): string {
  return `${kind === 'tab' ? 'Open' : 'Expand'} the ${spec.titles[spec.target]} ${kind} and enter the code shown there into the Code field, then press Submit.`;
}

const CODE_FORM = `<label for="code">Code</label><input id="code" autocomplete="off"><div><button id="go">Submit</button></div>`;
const codeCheck = (spec: PanelSpec) =>
  `$('#go').addEventListener('click', () => report($('#code').value.trim() === ${js(spec.codes[spec.target])}, 'entered ' + JSON.stringify($('#code').value)));`;

function panel(spec: PanelSpec, i: number): string {
  return `<p>${esc(spec.filler[i]!)}</p><p>Your code is ${spec.codes[i]}.</p>`;
}

const ariaTabs: TaskDef<PanelSpec> = {
  id: 'tabs-aria',
  category: 'tabs & menus',
  policy: 'panelCode',
  summary: 'ARIA tabs (tablist, tab, tabpanel); the code is in a hidden panel',
  generate: generatePanels,
  render: (spec, { episode }) =>
    shell({
      title: 'Account',
      episode,
      instruction: codeInstruction(spec, 'tab'),
      body: `<div role="tablist">${spec.titles.map((t, i) => `<button role="tab" id="t${i}" aria-selected="${i === spec.initial}" aria-controls="p${i}">${esc(t)}</button>`).join('')}</div>
${spec.titles.map((_, i) => `<div role="tabpanel" id="p${i}" aria-labelledby="t${i}"${i === spec.initial ? '' : ' hidden'}>${panel(spec, i)}</div>`).join('\n')}
${CODE_FORM}`,
      script: `$$('[role=tab]').forEach((tab, i) => tab.addEventListener('click', () => {
  $$('[role=tab]').forEach((t, j) => t.setAttribute('aria-selected', String(i === j)));
  $$('[role=tabpanel]').forEach((p, j) => (p.hidden = i !== j));
}));
${codeCheck(spec)}`,
    }),
};

const linkTabs: TaskDef<PanelSpec> = {
  id: 'tabs-links',
  category: 'tabs & menus',
  policy: 'panelCode',
  summary: 'jQuery-UI-like tabs: a list of in-page links, panels shown and hidden by script, no ARIA',
  generate: generatePanels,
  render: (spec, { episode }) =>
    shell({
      title: 'Account',
      episode,
      instruction: codeInstruction(spec, 'tab'),
      body: `<div id="tabs"><ul class="nav">${spec.titles.map((t, i) => `<li><a href="#tabs-${i}">${esc(t)}</a></li>`).join('')}</ul>
${spec.titles.map((_, i) => `<div id="tabs-${i}" class="panel"${i === spec.initial ? '' : ' style="display:none"'}>${panel(spec, i)}</div>`).join('\n')}</div>
${CODE_FORM}`,
      style: '.nav { list-style: none; padding: 0; display: flex; gap: 4px; } .nav a { display: block; padding: 4px 10px; border: 1px solid #aaa; }',
      script: `$$('.nav a').forEach((a, i) => a.addEventListener('click', (e) => {
  e.preventDefault();
  $$('.panel').forEach((p, j) => (p.style.display = i === j ? '' : 'none'));
}));
${codeCheck(spec)}`,
    }),
};

const accordion: TaskDef<PanelSpec> = {
  id: 'accordion-script',
  category: 'tabs & menus',
  policy: 'panelCode',
  summary: 'an accordion of <h3> headers with click listeners (no roles, no states); one section open at a time',
  generate: generatePanels,
  render: (spec, { episode }) =>
    shell({
      title: 'Account',
      episode,
      instruction: codeInstruction(spec, 'section'),
      body: `<div class="accordion">${spec.titles.map((t, i) => `<h3 class="header">${esc(t)}</h3><div class="section"${i === spec.initial ? '' : ' hidden'}>${panel(spec, i)}</div>`).join('\n')}</div>
${CODE_FORM}`,
      style: '.header { margin: 2px 0; padding: 4px 8px; background: #eee; font-size: 15px; }',
      script: `$$('.header').forEach((h, i) => h.addEventListener('click', () => $$('.section').forEach((s, j) => (s.hidden = i !== j))));
${codeCheck(spec)}`,
    }),
};

interface MenuSpec {
  menu: string;
  items: string[];
  target: number;
}

function generateMenu(rng: Rng): MenuSpec {
  const verbs = ['Export', 'Import', 'Share', 'Rename', 'Duplicate', 'Archive', 'Print', 'Move', 'Copy', 'Tag', 'Sort', 'Merge', 'Split', 'Lock', 'Publish', 'Restore', 'Compare', 'Convert', 'Sync', 'Pin'];
  const count = rng.int(14, 20);
  const items = rng.sample(verbs, count).map((verb) => `${verb} ${rng.pick([...COLORS, ...ANIMALS.map(capitalize)]).toLowerCase()}`);
  return { menu: rng.pick(['Actions', 'More', 'Tools']), items, target: rng.int(count - 5, count - 1) };
}

function menuInstruction(spec: MenuSpec): string {
  return `Open the ${spec.menu} menu and choose "${spec.items[spec.target]}".`;
}

function menuScript(spec: MenuSpec, itemSelector: string): string {
  return `const items = ${js(spec.items)};
$$(${js(itemSelector)}).forEach((el, i) => el.addEventListener('click', (e) => { e.preventDefault(); report(i === ${spec.target}, 'chose ' + items[i]); }));`;
}

const linkMenu: TaskDef<MenuSpec> = {
  id: 'menu-long-links',
  category: 'tabs & menus',
  policy: 'menu',
  summary: 'a button that unfolds a plain list of 14–20 links; the wanted one is among the last five',
  generate: generateMenu,
  render: (spec, { episode }) =>
    shell({
      title: 'Document',
      episode,
      instruction: menuInstruction(spec),
      body: `<nav><button id="open">${esc(spec.menu)}</button>
<ul id="m" hidden>${spec.items.map((item) => `<li><a href="#">${esc(item)}</a></li>`).join('')}</ul></nav>`,
      script: `$('#open').addEventListener('click', () => ($('#m').hidden = !$('#m').hidden));
${menuScript(spec, '#m a')}`,
    }),
};

export const TAB_TASKS: TaskDef[] = [ariaTabs, linkTabs, accordion, linkMenu];
