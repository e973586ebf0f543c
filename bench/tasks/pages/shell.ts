/**
 * The frame every task page shares, MiniWoB-style: the instruction in a box at the top, the task below, and
 * a `report(success, detail)` function the page calls once it can judge the outcome. The verdict is posted
 * to the local server (and kept in `window.__taskResult`); nothing about it is shown on the page, so the
 * agent gets no feedback it could use to retry.
 */

/** Escapes text for HTML content and attribute values. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A value as a JavaScript literal inside a <script> (safe against `</script>` in strings). */
export function js(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export interface ShellOptions {
  title: string;
  episode: string;
  /** The instruction, shown at the top. Omit on later pages of a multi-page task that repeat nothing. */
  instruction?: string;
  body: string;
  style?: string;
  /** Page logic; runs after the body, with `report`, `$` and `$$` defined. */
  script?: string;
}

const BASE_STYLE = `
  body { font: 15px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
  #query { background: #fff7d6; border: 1px solid #e0c870; padding: 8px 10px; margin-bottom: 14px; max-width: 720px; }
  #area { max-width: 720px; }
  label { display: block; margin: 6px 0; }
  button, input[type=submit] { margin: 6px 4px 6px 0; }
  table { border-collapse: collapse; margin: 8px 0; }
  td, th { border: 1px solid #bbb; padding: 3px 8px; text-align: left; }
`;

export function shell(options: ShellOptions): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(options.title)}</title>
<style>${BASE_STYLE}${options.style ?? ''}</style></head>
<body>
${options.instruction ? `<div id="query">${esc(options.instruction)}</div>` : ''}
<div id="area">
${options.body}
</div>
<script>
const EPISODE = ${js(options.episode)};
const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];
function report(success, detail) {
  if (window.__taskResult) return;
  window.__taskResult = { success: !!success, detail: String(detail || '') };
  fetch('/task-result', { method: 'POST', keepalive: true, body: JSON.stringify({ episode: EPISODE, success: !!success, detail: String(detail || '') }) });
}
${options.script ?? ''}
</script>
</body></html>`;
}

/** A field for the task's answer and its Submit button, for tasks whose answer is read off the page or a file. */
export function answerForm(label: string): string {
  return `<label for="answer">${esc(label)}</label><input id="answer" autocomplete="off">
<div><button id="go">Submit</button></div>`;
}

/** Reports whether the answer given equals the expected one. */
export function answerScript(expected: string): string {
  return `$('#go').addEventListener('click', () => {
  const given = $('#answer').value.trim();
  report(given === ${js(expected)}, 'entered ' + JSON.stringify(given));
});`;
}
