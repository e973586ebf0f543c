/**
 * Roles: the ARIA roles the snapshot treats alike. The outline decides by them what an element is (a control,
 * a section, a table, an item of a widget); format keeps open dialogs in view by them.
 */

/** Roles an agent acts on directly; their own children are not listed (their text is the name). */
export const LEAF_CONTROLS = new Set([
  'button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton',
  'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'gridcell', 'columnheader', 'rowheader', 'scrollbar',
]);

/** Interactive roles that hold other interactive elements: listed, then their children. */
export const COMPOSITE_CONTROLS = new Set(['treeitem', 'listbox']);

/** Containers worth a header line so the model knows where a control sits. */
export const SECTIONS = new Set([
  'dialog', 'alertdialog', 'iframe', 'navigation', 'form', 'search', 'menu', 'menubar', 'tablist', 'tree', 'table', 'grid', 'treegrid', 'banner', 'contentinfo', 'complementary', 'region',
]);

/** Sections that block the page while open: listed first, and always shown. */
export const MODAL_ROLES = new Set(['dialog', 'alertdialog']);

/** Roles of a table: one of data is written as rows of cells (table.ts). */
export const TABLE_ROLES = new Set(['table', 'grid', 'treegrid']);

/** Roles of the items a list-like widget repeats (parts.ts). */
export const ITEM_ROLES = new Set(['listitem', 'option', 'row', 'treeitem', 'tab', 'menuitem', 'article']);

/** Controls whose line shows a value: what is typed or set in them. */
export const VALUE_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'slider']);
