/**
 * Trees and file browsers: open folders along a path and select a file. The same file name also sits in
 * another folder, and some folders start open, so the path and the open/closed state both matter.
 */
import { WORDS, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { esc, js, shell } from './shell.js';

interface Folder {
  name: string;
  folders: Folder[];
  files: string[];
}

interface TreeSpec {
  roots: Folder[];
  path: string[];
  file: string;
  /** Folders open when the page loads. */
  open: string[];
}

const FOLDER_NAMES = ['Projects', 'Archive', 'Photos', 'Invoices', 'Drafts', 'Music', 'Reports', 'Backups', 'Shared', 'Templates', 'Recipes', 'Travel', 'Letters', 'Budgets'];
const EXTENSIONS = ['txt', 'pdf', 'png', 'csv', 'doc'];

function generateTree(rng: Rng): TreeSpec {
  const names = rng.shuffle(FOLDER_NAMES);
  const file = () => `${rng.pick(WORDS)}.${rng.pick(EXTENSIONS)}`;
  const roots: Folder[] = Array.from({ length: rng.int(3, 4) }, () => ({
    name: names.pop()!,
    folders: Array.from({ length: rng.int(1, 2) }, () => ({ name: names.pop()!, folders: [], files: Array.from({ length: rng.int(2, 4) }, file) })),
    files: Array.from({ length: rng.int(1, 2) }, file),
  }));
  const root = rng.pick(roots);
  const sub = rng.pick(root.folders);
  const target = `${rng.pick(WORDS)}-final.${rng.pick(EXTENSIONS)}`;
  sub.files.splice(rng.int(0, sub.files.length), 0, target);
  // The same name in another folder: the path decides which one is meant.
  const decoy = rng.pick(roots.filter((r) => r !== root).flatMap((r) => r.folders));
  decoy.files.splice(rng.int(0, decoy.files.length), 0, target);
  const open = rng.sample([root.name, decoy.name, ...roots.map((r) => r.name)], rng.int(0, 2));
  return { roots, path: [root.name, sub.name], file: target, open: [...new Set(open)] };
}

function instruction(spec: TreeSpec): string {
  return `Select the file "${spec.file}" in ${spec.path.join(' › ')}.`;
}

/** The check when a file is chosen: the file name and the folders it sits in. */
function selectScript(spec: TreeSpec): string {
  return `function chose(file, folders) {
  report(file === ${js(spec.file)} && folders.join('/') === ${js(spec.path.join('/'))}, 'chose ' + folders.concat(file).join('/'));
}`;
}

const treeStyle = `
ul.tree, ul.tree ul { list-style: none; padding-left: 18px; margin: 2px 0; }
.folder::before { content: ''; display: inline-block; width: 12px; height: 9px; background: #e6b800; margin-right: 5px; }
.file::before { content: ''; display: inline-block; width: 8px; height: 10px; border: 1px solid #777; margin-right: 5px; }
`;

function scriptTree(folder: Folder, open: string[]): string {
  return `<li><span class="folder">${esc(folder.name)}</span><ul${open.includes(folder.name) ? '' : ' hidden'}>
${folder.folders.map((f) => scriptTree(f, open)).join('')}${folder.files.map((f) => `<li><span class="file">${esc(f)}</span></li>`).join('')}</ul></li>`;
}

const scripted: TaskDef<TreeSpec> = {
  id: 'tree-script',
  category: 'trees',
  policy: 'tree',
  summary: 'nested lists, folders and files are <span>s with click listeners, no roles or states',
  generate: generateTree,
  render: (spec, { episode }) =>
    shell({
      title: 'Files',
      episode,
      instruction: instruction(spec),
      body: `<ul class="tree">${spec.roots.map((r) => scriptTree(r, spec.open)).join('')}</ul>`,
      style: treeStyle,
      script: `${selectScript(spec)}
$$('.folder').forEach((span) => span.addEventListener('click', () => { const list = span.nextElementSibling; list.hidden = !list.hidden; }));
$$('.file').forEach((span) => span.addEventListener('click', () => {
  const folders = [];
  for (let li = span.parentElement.parentElement.closest('li'); li; li = li.parentElement.closest('li')) folders.unshift(li.querySelector(':scope > .folder').textContent);
  chose(span.textContent, folders);
}));`,
    }),
};

function ariaTree(folder: Folder, open: string[], labelled: boolean, id: { n: number }): string {
  const n = id.n++;
  const isOpen = open.includes(folder.name);
  const labelAttr = labelled ? ` aria-labelledby="l${n}"` : '';
  const state = labelled ? ` aria-expanded="${isOpen}"` : '';
  return `<li role="treeitem"${state}${labelAttr} data-name="${esc(folder.name)}"><span id="l${n}" class="folder">${esc(folder.name)}</span>${
    isOpen || labelled
      ? `<ul role="group"${isOpen ? '' : ' hidden'}>${folder.folders.map((f) => ariaTree(f, open, labelled, id)).join('')}${folder.files.map((f) => `<li role="treeitem" class="leaf"><span class="file">${esc(f)}</span></li>`).join('')}</ul>`
      : ''
  }</li>`;
}

/** Tree logic for the ARIA builds: one listener on the tree; lazy builds create a folder's children on first open. */
function ariaScript(spec: TreeSpec, lazy: boolean): string {
  return `${selectScript(spec)}
const contents = ${js(Object.fromEntries(spec.roots.flatMap((r) => [r, ...r.folders]).map((f) => [f.name, { folders: f.folders.map((s) => s.name), files: f.files }])))};
function childrenHtml(name) {
  const c = contents[name];
  return '<ul role="group">' + c.folders.map((f) => '<li role="treeitem" data-name="' + f + '"><span class="folder">' + f + '</span></li>').join('')
    + c.files.map((f) => '<li role="treeitem" class="leaf"><span class="file">' + f + '</span></li>').join('') + '</ul>';
}
$('[role=tree]').addEventListener('click', (event) => {
  const item = event.target.closest('[role=treeitem]');
  if (!item) return;
  if (item.classList.contains('leaf')) {
    const folders = [];
    for (let li = item.parentElement.closest('[role=treeitem]'); li; li = li.parentElement.closest('[role=treeitem]')) folders.unshift(li.dataset.name);
    item.setAttribute('aria-selected', 'true');
    chose(item.textContent, folders);
    return;
  }
  ${
    lazy
      ? `const group = item.querySelector(':scope > [role=group]');
  if (group) group.remove(); else item.insertAdjacentHTML('beforeend', childrenHtml(item.dataset.name));`
      : `const open = item.getAttribute('aria-expanded') === 'true';
  item.setAttribute('aria-expanded', String(!open));
  item.querySelector(':scope > [role=group]').hidden = open;`
  }
});`;
}

const aria: TaskDef<TreeSpec> = {
  id: 'tree-aria',
  category: 'trees',
  policy: 'tree',
  summary: 'an ARIA tree: treeitems with aria-expanded and aria-labelledby, one delegated listener',
  generate: generateTree,
  render: (spec, { episode }) => {
    const id = { n: 0 };
    return shell({
      title: 'Files',
      episode,
      instruction: instruction(spec),
      body: `<ul class="tree" role="tree" aria-label="Files">${spec.roots.map((r) => ariaTree(r, spec.open, true, id)).join('')}</ul>`,
      style: treeStyle,
      script: ariaScript(spec, false),
    });
  },
};

const lazy: TaskDef<TreeSpec> = {
  id: 'tree-lazy-nostate',
  category: 'trees',
  policy: 'tree',
  summary: 'treeitems without aria-expanded or labels; children are created on first open and removed on close',
  generate: generateTree,
  render: (spec, { episode }) => {
    const id = { n: 100 };
    return shell({
      title: 'Files',
      episode,
      instruction: instruction(spec),
      body: `<ul class="tree" role="tree" aria-label="Files">${spec.roots.map((r) => ariaTree(r, spec.open, false, id)).join('')}</ul>`,
      style: treeStyle,
      script: ariaScript(spec, true),
    });
  },
};

export const TREE_TASKS: TaskDef[] = [scripted, aria, lazy];
