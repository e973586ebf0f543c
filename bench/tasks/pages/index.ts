/** Every task, in report order. */
import type { TaskDef } from '../types.js';
import { FORM_TASKS } from './forms.js';
import { TABLE_TASKS } from './tables.js';

export const TASKS: TaskDef[] = [...FORM_TASKS, ...TABLE_TASKS];
