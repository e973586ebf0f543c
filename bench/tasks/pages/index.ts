/** Every task, in report order (by category). */
import type { TaskDef } from '../types.js';
import { AUTOCOMPLETE_TASKS } from './autocomplete.js';
import { DATEPICKER_TASKS } from './datepickers.js';
import { DIALOG_TASKS } from './dialogs.js';
import { FILE_TASKS } from './files.js';
import { FORM_TASKS } from './forms.js';
import { HIDDEN_TASKS } from './hidden.js';
import { ICON_TASKS } from './icons.js';
import { LETTER_TASKS } from './letters.js';
import { LONG_TASKS } from './long.js';
import { MULTISTEP_TASKS } from './multistep.js';
import { SCRIPTED_TASKS } from './scripted.js';
import { SCROLLING_TASKS } from './scrolling.js';
import { TAB_TASKS } from './tabs.js';
import { TABLE_TASKS } from './tables.js';
import { TREE_TASKS } from './trees.js';
import { WIDGET_TASKS } from './widgets/index.js';

export const TASKS: TaskDef[] = [
  ...FORM_TASKS,
  ...TABLE_TASKS,
  ...DATEPICKER_TASKS,
  ...AUTOCOMPLETE_TASKS,
  ...TREE_TASKS,
  ...TAB_TASKS,
  ...SCROLLING_TASKS,
  ...LONG_TASKS,
  ...LETTER_TASKS,
  ...SCRIPTED_TASKS,
  ...ICON_TASKS,
  ...DIALOG_TASKS,
  ...MULTISTEP_TASKS,
  ...HIDDEN_TASKS,
  ...FILE_TASKS,
  ...WIDGET_TASKS,
];
