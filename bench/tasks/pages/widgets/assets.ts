/**
 * Tags that load an installed library from the task server's `/modules/` route, and the date helpers the
 * widget pages share. Library tags go in the page body, before the shell's script, so plain scripts have
 * run when the page logic starts; ES modules run later, and the page logic waits for their elements.
 */
import { esc } from '../shell.js';

export const css = (path: string) => `<link rel="stylesheet" href="/modules/${esc(path)}">`;
export const script = (path: string) => `<script src="/modules/${esc(path)}"></script>`;
export const moduleScript = (path: string) => `<script type="module" src="/modules/${esc(path)}"></script>`;
