/**
 * The list of tools: each one's file, by what it does (reading the page, acting on elements, navigation and tabs,
 * files, people). Adding a tool: docs/layout.md.
 */
import { checkTool } from './acting/check.js';
import { clickTool } from './acting/click.js';
import { dragTool } from './acting/drag.js';
import { hoverTool } from './acting/hover.js';
import { pressTool } from './acting/press.js';
import { selectTool } from './acting/select.js';
import { selectTextTool } from './acting/selectText.js';
import { typeTool } from './acting/type.js';
import { uploadTool } from './files/upload.js';
import { historyTool } from './navigation/history.js';
import { navigateTool } from './navigation/navigate.js';
import { tabsTool } from './navigation/tabs.js';
import { dialogTool } from './people/dialog.js';
import { handoffTool } from './people/handoff.js';
import { evaluateTool } from './reading/evaluate.js';
import { readTool } from './reading/read.js';
import { screenshotTool } from './reading/screenshot.js';
import { scrollTool } from './reading/scroll.js';
import { snapshotTool } from './reading/snapshot.js';
import { waitTool } from './reading/wait.js';

/** Every tool, by id, in the order the model sees them: the common ones first. */
export const TOOLS = {
  browser_navigate: navigateTool,
  browser_snapshot: snapshotTool,
  browser_click: clickTool,
  browser_type: typeTool,
  browser_select: selectTool,
  browser_select_text: selectTextTool,
  browser_check: checkTool,
  browser_press: pressTool,
  browser_scroll: scrollTool,
  browser_hover: hoverTool,
  browser_drag: dragTool,
  browser_history: historyTool,
  browser_tabs: tabsTool,
  browser_wait: waitTool,
  browser_dialog: dialogTool,
  browser_handoff: handoffTool,
  browser_read: readTool,
  browser_screenshot: screenshotTool,
  browser_upload: uploadTool,
  browser_evaluate: evaluateTool,
};
