/** The tasks on real widget libraries, one file per family. */
import type { TaskDef } from '../../types.js';
import { REAL_DATEPICKER_TASKS } from './datepickers.js';
import { EDITOR_TASKS } from './editors.js';
import { GRID_TASKS } from './grids.js';
import { CALENDAR_TASKS } from './calendars.js';
import { API_TASKS } from './apiExplorer.js';
import { MODAL_TASKS } from './modals.js';
import { SELECT_TASKS } from './selects.js';
import { SORTABLE_TASKS } from './sortable.js';
import { WEB_COMPONENT_TASKS } from './webcomponents.js';

export const WIDGET_TASKS: TaskDef[] = [...REAL_DATEPICKER_TASKS, ...SORTABLE_TASKS, ...EDITOR_TASKS, ...WEB_COMPONENT_TASKS, ...GRID_TASKS, ...CALENDAR_TASKS, ...SELECT_TASKS, ...MODAL_TASKS, ...API_TASKS];
