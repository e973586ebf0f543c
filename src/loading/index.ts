/**
 * When a page is usable: the one surface the session, the tools and the provider load pages through. Open an
 * address in a tab (`openAddress`: what came of it, as data), run an action and wait for what it causes
 * (`runAction`), let the page settle (`settle`, `settleAction`), move in a tab's history. Nothing here knows of
 * sessions or tools: the tab's page and requests, the deadline and the settle policy are handed in.
 */
export { openAddress, DOWNLOAD_EVENT_WAIT_MS, type Opened, type OpeningTab } from './outcome.js';
export { loadPage, type Loaded, type LoadOptions, type LoadingPage, type WaitUntil } from './open.js';
export { runAction, type ActionRun, type ActionOptions } from './action.js';
export { settle, settleAction, type Settled, type EarlySnapshot } from './settle.js';
export { historyTarget, isBetweenPages, moveInHistory } from './historyMoves.js';
export { untilFrameRenders } from './frameWait.js';
// What a tab keeps for the load policy, and the moves that keep a tab usable (the session's tab list uses them).
export { Traffic } from './traffic.js';
export { InstanceAge } from './freshFrame.js';
export { unholdFrames } from './frameRelease.js';
export { closeQuickly, hungBeforeMove, rendererAnswers, runsScript, stopLoading } from './rescue.js';
export { schemefulSiteOf } from './sites.js';
