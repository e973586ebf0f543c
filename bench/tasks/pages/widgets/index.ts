/** The tasks on real widget libraries, one file per family. */
import type { TaskDef } from '../../types.js';
import { REAL_DATEPICKER_TASKS } from './datepickers.js';

export const WIDGET_TASKS: TaskDef[] = [...REAL_DATEPICKER_TASKS];
