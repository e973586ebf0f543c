/** Every policy by name; a task names the policy that solves it. */
import { autocomplete } from './autocomplete.js';
import { calendar } from './calendar.js';
import { captcha } from './captcha.js';
import type { Policy } from './common.js';
import { datepicker } from './datepicker.js';
import { confirmAction, modalConfirm, promptRename } from './dialogs.js';
import { booking, checkboxes, fillFields, radio, selectOption, textareaEdit, validation } from './forms.js';
import { rowIcon } from './icons.js';
import { loginSettings, wizard } from './multistep.js';
import { clickText, readCode } from './reading.js';
import { editorType } from './editor.js';
import { fileUpload, fileValue } from './files.js';
import { slider } from './slider.js';
import { dragBefore } from './sortable.js';
import { tableCount, tableLookup, tableRowAction, tableSort } from './tables.js';
import { menu, panelCode } from './tabs.js';
import { tree } from './tree.js';
import { apiCall, modalForm, pickOption, selectRow, toggleSwitches } from './widgets.js';

export const POLICIES: Record<string, Policy> = {
  fillFields, selectOption, checkboxes, radio, textareaEdit, validation, booking,
  tableLookup, tableRowAction, tableSort, tableCount,
  datepicker, autocomplete, tree, panelCode, menu, readCode, clickText, captcha, slider, rowIcon,
  confirmAction, promptRename, modalConfirm, loginSettings, wizard,
  dragBefore, editorType, toggleSwitches, pickOption, selectRow, calendar, modalForm, apiCall,
  fileValue, fileUpload,
};
