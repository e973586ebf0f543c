/**
 * When a page is usable: the one surface the session, the tools and the provider load pages through. Nothing
 * here knows of sessions or tools: the tab (its page, what loading keeps of it, its dialogs and downloads), the
 * deadline and the settle policy are handed in, and what a load came to is handed back as data.
 */
// What loading keeps of a tab: its owner makes one per tab.
export { TabLoading, type LoadingTab } from './tabLoading.js';
// Opening an address: every load of a page goes through here.
export { openAddress } from './open.js';
export type { Opened } from './outcome.js';
export type { WaitUntil } from './arrive.js';
// An action, what it causes, and when the page is usable after it.
export { runAction, type ActionRun } from './action.js';
export { settle } from './settle.js';
export { settleAction } from './quiet.js';
export { untilFrameRenders } from './frameWait.js';
// Moves in a tab's history, over the empty page a fresh frame leaves there.
export { historyTarget, isBetweenPages, moveInHistory } from './historyMoves.js';
// A tab that a load or a script wedged.
export { closeHung, rescueTab } from './rescue.js';
