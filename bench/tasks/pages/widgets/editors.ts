/**
 * Real rich-text editors: Quill (a contenteditable in the page) and TinyMCE (a contenteditable body in an
 * iframe), each under a visible "Notes" label with the library's default toolbar. The verdict on Save
 * reads the text from the editor's API (Quill's getText(), TinyMCE's getContent()).
 */
import { capitalize, WORDS, type Rng } from '../../random.js';
import type { TaskDef } from '../../types.js';
import { js, shell } from '../shell.js';
import { css, script } from './assets.js';

export interface EditorSpec {
  sentence: string;
}

function generate(rng: Rng): EditorSpec {
  const [a, b, c] = rng.sample(WORDS, 3);
  return { sentence: `${capitalize(a!)} near the ${b} by the ${c}.` };
}

/** `setup` creates the editor in #notes and defines `editorText()`, the editor's plain text. */
function editorPage(id: string, summary: string, assets: string, field: string, setup: string): TaskDef<EditorSpec> {
  return {
    id,
    category: 'editors',
    policy: 'editorType',
    summary,
    generate,
    render: (spec, { episode }) =>
      shell({
        title: 'Write a note',
        episode,
        instruction: `Type "${spec.sentence}" into the Notes editor, then press Save.`,
        body: `${assets}
<label for="notes">Notes</label>
${field}
<button id="save">Save</button>`,
        script: `
const EXPECTED = ${js(spec.sentence)};
${setup}
$('#save').addEventListener('click', () => {
  const text = editorText().replace(/\\s+/g, ' ').trim();
  report(text === EXPECTED, 'text ' + JSON.stringify(text));
});`,
      }),
  };
}

const quillTask = editorPage(
  'real-quill',
  'Quill 2 (snow theme): a contenteditable div with an icon toolbar; text from getText()',
  `${css('quill/dist/quill.snow.css')}${script('quill/dist/quill.js')}`,
  '<div id="notes" style="height: 120px"></div>',
  `const quill = new Quill('#notes', { theme: 'snow' });
const editorText = () => quill.getText();`,
);

const tinymceTask = editorPage(
  'real-tinymce',
  'TinyMCE 8, self-hosted: the editable body is inside an iframe, with menus and a toolbar; text from getContent()',
  script('tinymce/tinymce.min.js'),
  '<textarea id="notes"></textarea>',
  `tinymce.init({ selector: '#notes', base_url: '/modules/tinymce', suffix: '.min', license_key: 'gpl', height: 220, promotion: false });
const editorText = () => tinymce.get('notes')?.getContent({ format: 'text' }) ?? '';`,
);

export const EDITOR_TASKS: TaskDef[] = [quillTask, tinymceTask];
