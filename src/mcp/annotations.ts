import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserToolId } from '../toolset.js';

type Row = [title: string, readOnly: boolean, destructive: boolean, idempotent: boolean, openWorld: boolean];

/**
 * What each tool may do, for MCP clients that decide which calls to confirm with the user. One row per tool, so
 * a new tool does not compile until someone decides. The columns, as MCP defines them:
 * - readOnly: changes nothing, not even the page's state.
 * - destructive: may overwrite or throw away something that cannot be got back: a field's text, a form sent,
 *   a tab closed, a confirm() accepted.
 * - idempotent: the same call again has no further effect.
 * - openWorld: may reach beyond the page already loaded: opens URLs, or sends forms and requests to websites.
 */
const TABLE: Record<BrowserToolId, Row> = {
  //                   title                               readOnly destructive idempotent openWorld
  browser_navigate:   ['Open a URL',                        false,   false,      true,      true],
  browser_snapshot:   ['Read the page as text',             true,    false,      true,      false],
  browser_click:      ['Click an element',                  false,   true,       false,     true], // may submit, buy, delete
  browser_type:       ['Type into a field',                 false,   true,       false,     true], // replaces the text; submit sends
  browser_select:     ['Choose an option',                  false,   false,      true,      false],
  browser_select_text: ['Select words in a text',           false,   false,      true,      false],
  browser_check:      ['Check or uncheck',                  false,   false,      true,      false],
  browser_press:      ['Press a key',                       false,   true,       false,     true], // Enter submits
  browser_scroll:     ['Scroll',                            false,   false,      false,     false],
  browser_hover:      ['Hover an element',                  false,   false,      true,      false],
  browser_drag:       ['Drag and drop',                     false,   false,      false,     false],
  browser_history:    ['Back, forward or reload',           false,   false,      false,     true],
  browser_tabs:       ['List, open, switch or close tabs',  false,   true,       false,     true], // close loses a tab; new opens a URL
  browser_wait:       ['Wait for the page',                 true,    false,      true,      false],
  browser_dialog:     ['Answer a dialog',                   false,   true,       false,     true], // accepting a confirm() may delete
  browser_handoff:    ['Hand the page to a person',         false,   false,      false,     false], // the person acts, not the tool
  browser_read:       ['Read the main content',             true,    false,      true,      false],
  browser_screenshot: ['Take a screenshot',                 true,    false,      true,      false],
  browser_upload:     ['Attach files to a field',           false,   false,      true,      false], // sent only with the form
  browser_evaluate:   ['Run JavaScript in the page',        false,   true,       false,     true],
};

export function annotationsOf(id: BrowserToolId): ToolAnnotations {
  const [title, readOnly, destructive, idempotent, openWorld] = TABLE[id];
  // MCP ignores destructive and idempotent for read-only tools; leaving them out says so.
  return readOnly
    ? { title, readOnlyHint: true, openWorldHint: openWorld }
    : { title, readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: openWorld };
}
