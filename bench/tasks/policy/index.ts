/** Every policy by name; a task names the policy that solves it. */
import type { Policy } from './common.js';
import { checkboxes, copyValue, fillFields, radio, selectOption, textareaEdit, validation } from './forms.js';
import { tableCount, tableLookup, tableRowAction, tableSort } from './tables.js';

export const POLICIES: Record<string, Policy> = {
  fillFields,
  selectOption,
  checkboxes,
  radio,
  textareaEdit,
  validation,
  copyValue,
  tableLookup,
  tableRowAction,
  tableSort,
  tableCount,
};
