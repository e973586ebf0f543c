/**
 * Dialogs: a confirm() to accept, a prompt() to answer, and an HTML modal dialog. The page reports when
 * the dialog has been answered and the action done.
 */
import { WORDS, capitalize, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { esc, js, shell } from './shell.js';

interface FilesSpec {
  files: string[];
  target: number;
  newName: string;
}

function generateFiles(rng: Rng): FilesSpec {
  const files = rng.sample(WORDS, rng.int(4, 6)).map((w) => `${w}-${rng.int(10, 99)}.${rng.pick(['pdf', 'txt', 'xls'])}`);
  return { files, target: rng.int(0, files.length - 1), newName: `${rng.pick(WORDS)}-${rng.int(100, 999)}.txt` };
}

const fileList = (spec: FilesSpec, verb: string) =>
  `<ul class="files">${spec.files.map((f, i) => `<li data-i="${i}">${esc(f)} <button>${verb} ${esc(f)}</button></li>`).join('')}</ul>`;

const confirmDelete: TaskDef<FilesSpec> = {
  id: 'dialog-confirm',
  category: 'dialogs',
  policy: 'confirmAction',
  summary: 'a Delete button that asks confirm(); the file is deleted only when it is accepted',
  generate: generateFiles,
  render: (spec, { episode }) =>
    shell({
      title: 'Files',
      episode,
      instruction: `Delete the file "${spec.files[spec.target]}" and confirm when the page asks.`,
      body: fileList(spec, 'Delete'),
      script: `const files = ${js(spec.files)};
$$('.files button').forEach((b) => b.addEventListener('click', () => {
  const li = b.closest('li'); const i = Number(li.dataset.i);
  if (!confirm('Delete ' + files[i] + '? This cannot be undone.')) return;
  li.remove();
  report(i === ${spec.target}, 'deleted ' + files[i]);
}));`,
    }),
};

const promptRename: TaskDef<FilesSpec> = {
  id: 'dialog-prompt',
  category: 'dialogs',
  policy: 'promptRename',
  summary: 'a Rename button that asks for the new name with prompt()',
  generate: generateFiles,
  render: (spec, { episode }) =>
    shell({
      title: 'Files',
      episode,
      instruction: `Rename "${spec.files[spec.target]}" to "${spec.newName}". The page asks for the new name.`,
      body: fileList(spec, 'Rename'),
      script: `const files = ${js(spec.files)};
$$('.files button').forEach((b) => b.addEventListener('click', () => {
  const li = b.closest('li'); const i = Number(li.dataset.i);
  const name = prompt('New name for ' + files[i] + ':', files[i]);
  if (name === null) return;
  li.firstChild.textContent = name + ' ';
  report(i === ${spec.target} && name === ${js(spec.newName)}, 'renamed ' + files[i] + ' to ' + JSON.stringify(name));
}));`,
    }),
};

interface ProjectsSpec {
  projects: string[];
  target: number;
}

const modal: TaskDef<ProjectsSpec> = {
  id: 'dialog-html-modal',
  category: 'dialogs',
  policy: 'modalConfirm',
  summary: 'an HTML modal dialog (role=dialog, aria-modal) with Cancel and a confirm button',
  generate: (rng) => {
    const projects = rng.sample(WORDS, rng.int(4, 6)).map((w) => `${capitalize(w)} ${rng.pick(['site', 'app', 'study', 'plan'])}`);
    return { projects, target: rng.int(0, projects.length - 1) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Projects',
      episode,
      instruction: `Archive the project "${spec.projects[spec.target]}" and confirm in the dialog.`,
      body: `<ul class="projects">${spec.projects.map((p, i) => `<li data-i="${i}">${esc(p)} <button>Archive ${esc(p)}</button></li>`).join('')}</ul>
<div id="overlay" hidden><div role="dialog" aria-modal="true" aria-labelledby="dt"><h2 id="dt">Archive project?</h2><p id="dm"></p><button id="cancel">Cancel</button> <button id="ok">Archive</button></div></div>`,
      style: '#overlay { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; } #overlay[hidden] { display: none; } [role=dialog] { background: #fff; padding: 16px; width: 320px; }',
      script: `const projects = ${js(spec.projects)};
let pending = -1;
$$('.projects button').forEach((b) => b.addEventListener('click', () => { pending = Number(b.closest('li').dataset.i); $('#dm').textContent = projects[pending] + ' will be hidden from the team.'; $('#overlay').hidden = false; }));
$('#cancel').addEventListener('click', () => { $('#overlay').hidden = true; pending = -1; });
$('#ok').addEventListener('click', () => { $('#overlay').hidden = true; report(pending === ${spec.target}, 'archived ' + projects[pending]); });`,
    }),
};

export const DIALOG_TASKS: TaskDef[] = [confirmDelete, promptRename, modal];
