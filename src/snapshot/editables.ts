/**
 * Editable surfaces: an element a person types into that is no form field: a `contenteditable` element (Quill's
 * editor) or the body of a frame in design mode or made editable (TinyMCE's iframe). Playwright gives such an
 * element no role of its own, so it has no ref when unnamed, and it drops a text box's own text even when it
 * is one. For the time of the capture each editing host gets the role `textbox` (and, when it has no name, the
 * name a person would read for it: its placeholder, or its frame's title); its whole text is a fact beside it,
 * read the way it shows, with its line breaks. `releaseEditables` takes the marks out again.
 *
 * The main document's script also reaches the documents of its same-site frames; a frame of another site is
 * marked by a call of its own (`markFrameEditables`), beside the page's facts.
 */
import type { Frame, Page } from 'playwright-core';
import { evaluateInPage } from '../inPage.js';
import { within } from '../within.js';
import type { ElementFacts } from './facts.js';

export interface EditablesArgs {
  /** Symbol.for key under which the marks are kept until released. */
  markersKey: string;
  /** Mark the hosts (before a capture); without it, only their facts are read. */
  mark: boolean;
}

/** An editing host's box (x, y, width, height: in the document the script ran in, frames' offsets added) and facts. */
export type EditableFacts = [box: [number, number, number, number], facts: ElementFacts];

/**
 * The key of an editing host's facts: its box in the coordinates of the document the capture starts from, with
 * the offsets of the frames around it added (as lineText.ts places a frame's lines). Frames' own facts are keyed by
 * boxes in their own coordinates, where two frames' bodies often share one; this key tells them apart.
 */
export function editableKey(x: number, y: number, width: number, height: number): string {
  return `@${Math.round(x)},${Math.round(y)},${Math.round(width)},${Math.round(height)}`;
}

/** Runs in the page (and in a frame of another site). Self-contained so it survives serialisation. */
export function markEditables({ markersKey, mark }: EditablesArgs): EditableFacts[] {
  const facts: EditableFacts[] = [];
  const w = window as unknown as Record<symbol, Array<[Element, string]> | undefined>;
  const symbol = Symbol.for(markersKey);
  // Marks a late answer left behind (a capture that did not wait for this frame) go first: a role of ours must
  // not be taken for the page's own.
  for (const [el, attribute] of w[symbol] ?? []) el.removeAttribute(attribute);
  const markers: Array<[Element, string]> = [];
  const visit = (doc: Document, offsetX: number, offsetY: number) => {
    const hosts: HTMLElement[] = [];
    if (doc.body && (doc.designMode === 'on' || doc.body.isContentEditable)) hosts.push(doc.body);
    else {
      for (const el of doc.querySelectorAll<HTMLElement>('[contenteditable]:not([contenteditable="false"])')) {
        // The editing host only: the paragraphs inside an editor are editable too, but are not what a person types into.
        if (el.isContentEditable && !el.parentElement?.isContentEditable) hosts.push(el);
      }
    }
    for (const host of hosts) {
      const r = host.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      // Single-line only when the page says so (a search box drawn as a contenteditable span).
      const multiline = host.getAttribute('aria-multiline') !== 'false';
      // innerText sets paragraphs apart by a blank line; one line break says as much in half the characters.
      facts.push([[r.x + offsetX, r.y + offsetY, r.width, r.height], { multiline, text: (host.innerText ?? '').replace(/\n{2,}/g, '\n').replace(/\n+$/, '') }]);
      const role = host.getAttribute('role');
      if (!mark || (role && role !== 'textbox')) continue;
      if (!role) {
        host.setAttribute('role', 'textbox');
        markers.push([host, 'role']);
      }
      const named = host.getAttribute('aria-label') || host.getAttribute('aria-labelledby') || host.getAttribute('title');
      const frame = host === doc.body ? doc.defaultView?.frameElement : null;
      const name = named ? '' : host.getAttribute('aria-placeholder') || host.getAttribute('data-placeholder') || frame?.getAttribute('title') || frame?.getAttribute('aria-label') || '';
      if (name) {
        host.setAttribute('aria-label', name);
        markers.push([host, 'aria-label']);
      }
    }
    for (const frame of doc.querySelectorAll('iframe, frame')) {
      let inner: Document | null = null;
      try {
        inner = (frame as HTMLIFrameElement).contentDocument;
      } catch {
        inner = null; // another site's: marked by a call of its own
      }
      const r = frame.getBoundingClientRect();
      if (inner) visit(inner, offsetX + r.x, offsetY + r.y);
    }
  };
  visit(document, 0, 0);
  if (markers.length) w[symbol] = markers;
  else delete w[symbol];
  return facts;
}

/** Runs in the page after the capture: takes out the roles and names `markEditables` set. */
export function releaseEditables(markersKey: string): void {
  const w = window as unknown as Record<symbol, Array<[Element, string]> | undefined>;
  const symbol = Symbol.for(markersKey);
  for (const [el, attribute] of w[symbol] ?? []) el.removeAttribute(attribute);
  delete w[symbol];
}

/** The frames the page's own script cannot reach into: those of another origin than the frame around them. */
export function otherSiteFrames(page: Page, leftOut: Set<Frame>): Frame[] {
  const origin = (frame: Frame | null): string | undefined => {
    if (!frame) return undefined;
    try {
      const url = new URL(frame.url());
      // about:blank and srcdoc frames belong to their parent; a data: frame to no one.
      if (url.protocol === 'about:') return origin(frame.parentFrame());
      return url.origin === 'null' ? url.href : url.origin;
    } catch {
      return origin(frame.parentFrame());
    }
  };
  return page.frames().filter((frame) => {
    const parent = frame.parentFrame();
    if (!parent || leftOut.has(frame) || frame.isDetached()) return false;
    return origin(frame) !== origin(parent);
  });
}

/**
 * Marks the editing hosts of frames of other sites (editables.ts), each with a call of its own, all at once.
 * A frame that does not answer in time is captured unmarked: its editor shows as text, without a ref.
 */
export async function markFrameEditables(frames: Frame[], markersKey: string): Promise<Array<{ frame: Frame; offset?: { x: number; y: number }; entries: EditableFacts[] }>> {
  const marked = await Promise.all(
    frames.map(async (frame) => {
      try {
        const entries = await within(evaluateInPage(frame, markEditables, { markersKey, mark: true }), FRAME_MARK_TIMEOUT_MS);
        // Where the frame sits is asked only of frames that hold an editor: rare, and two more round trips.
        // A frame whose place cannot be told keeps its marks until released, but its facts match no line.
        return entries?.length ? { frame, offset: await frameOffsetInPage(frame).catch(() => undefined), entries } : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return marked.filter((m) => m !== undefined);
}

/** Where a frame's document sits in the page's coordinates: the boxes of the frame elements around it, added up. */
async function frameOffsetInPage(frame: Frame): Promise<{ x: number; y: number }> {
  const parent = frame.parentFrame();
  if (!parent) return { x: 0, y: 0 };
  const element = await frame.frameElement();
  try {
    const [own, outer] = await Promise.all([element.evaluate((el) => [(el as Element).getBoundingClientRect().x, (el as Element).getBoundingClientRect().y]), frameOffsetInPage(parent)]);
    return { x: own[0]! + outer.x, y: own[1]! + outer.y };
  } finally {
    void element.dispose();
  }
}

/**
 * How long a frame of another site is given to mark its editors before the capture goes on without them. The
 * calls run beside the page's facts, so a frame that answers at all answers well within it; one that does not
 * (a script holding its thread) would hold the capture up as long.
 */
const FRAME_MARK_TIMEOUT_MS = 150;
