/** The tasks on real widget libraries, one file per family. */
import type { TaskDef } from '../../types.js';
import { REAL_DATEPICKER_TASKS } from './datepickers.js';
import { SORTABLE_TASKS } from './sortable.js';

export const WIDGET_TASKS: TaskDef[] = [...REAL_DATEPICKER_TASKS, ...SORTABLE_TASKS];
