/**
 * What the snapshot offers the layers above it, the one way into snapshot/: a page read (capture), written as the
 * text the model reads (format), the changes an action caused (diff), and what the load policy needs to read a
 * page while it loads. Only re-exports: the snapshot's own modules say how.
 */
// Reading a page, and the text the model reads of it.
export { capturePage, currentDocumentId, INTERACTIVE_ROLES, type AriaNode, type Capture, type CaptureOptions, type CaptureScope } from './capture.js';
export { formatSnapshot, type FormatOptions, type FormattedSnapshot, type SnapshotScope } from './format.js';
export { indexRefs } from './lines.js';
export { bandMargin, bandSpan } from './region.js';
export { diffCaptures, type SnapshotDiff } from './diff.js';
export { countTokens } from './tokens.js';
// The page line's address and title as the model reads them (a result's url and title fields keep them whole).
export { addressShown, titleShown } from './pageLine.js';
// Quoting a text cut to fit, for what is read besides pages (files/).
export { quote } from './textLimits.js';
// The wall a page puts up (walls.ts), said in one line (browser_handoff reports whether it is gone).
export { wallLine } from './wallLine.js';
// Set up once per context and per tab.
export { LISTENERS_INIT_SCRIPT } from './listeners.js';
export { warmCapture, warmUpCaptures } from './warmUp.js';
// A page read while it loads or navigates (the load policy's).
export { holdIfLooping, isMainFrame, markHeld, type DocumentHolds, type Loop } from './navigating.js';
export { changedSinceWatch, watchChanges } from './changes.js';
export { frameInView } from './frameInView.js';
export { markAddressed } from './addressed.js';
export { copyWithoutHiddenText, hideHiddenText, releaseHiddenText, type HiddenTextCopyArgs } from './hiddenText.js';
export { sight } from './sight.js';
export { LISTENERS_KEY } from './listeners.js';
