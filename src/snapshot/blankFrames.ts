/**
 * Frames that show nothing are left out of a capture. Playwright's ai-mode snapshot enters every frame in its
 * tree, and entering one first builds Playwright's helper script in that frame's document: tens of milliseconds
 * of the renderer's time each, paid in turn, for an empty ad slot as for a form. A page with
 * a dozen empty ad slots and tracker frames of no size paid it a dozen times, and an empty frame's fallback
 * markup (the text inside `<iframe>`, which no browser shows) was read to the model as its content.
 *
 * A frame shows nothing when its box has no area, or when its document is one the page may read (its own
 * origin, or one it wrote itself) and has arrived, and its body holds no text and no element that renders.
 * For the time of the capture such a frame carries an attribute that a style sheet of ours hides
 * (`visibility: hidden`, which moves nothing, and Playwright does not enter a hidden frame); the release takes
 * both away. The page's own style attribute is never touched. A frame whose document has not come yet is left
 * to loadingFrames.ts, which names it as still loading. Runs in the page (inPage.ts): everything it uses is
 * declared inside or passed in as a helper.
 */

export interface BlankFramesArgs {
  /** The attribute that marks a frame hidden for the capture. */
  attribute: string;
  /** Symbol.for key under which the marks are kept until `showBlankFrames`. */
  key: string;
}

interface Marks {
  frames: Element[];
  sheets: Array<[Document, CSSStyleSheet]>;
}

/** Runs in the page: hides the frames of the document, and of the frames it may read, that show nothing. Returns how many. */
export function hideBlankFrames({ attribute, key }: BlankFramesArgs, helpers: { readableFrameDocuments: (root: Document) => Document[] }): number {
  // Elements that render nothing of their own in a frame's body.
  const silent = new Set(['SCRIPT', 'STYLE', 'LINK', 'META', 'NOSCRIPT', 'TEMPLATE', 'BR']);
  const marks: Marks = { frames: [], sheets: [] };
  const showsNothing = (element: Element, inner: Document): boolean => {
    const src = element.getAttribute('src')?.trim() ?? '';
    // Still the empty document a frame starts with, while the one it asks for is on its way: loadingFrames.ts's.
    const awaiting = inner.URL === 'about:blank' && !element.hasAttribute('srcdoc') && src !== '' && !/^(about:blank|javascript:)/i.test(src);
    if (awaiting || inner.readyState === 'loading') return false;
    const body = inner.body;
    if (!body) return !inner.documentElement;
    if (body.shadowRoot) return false; // a widget drawn in a shadow root of its body
    return [...body.childNodes].every((node) =>
      node.nodeType === Node.ELEMENT_NODE ? silent.has((node as Element).tagName) : node.nodeType !== Node.TEXT_NODE || !(node.textContent ?? '').trim(),
    );
  };
  const hide = (element: Element) => {
    try {
      const doc = element.ownerDocument;
      if (!marks.sheets.some(([d]) => d === doc)) {
        // A constructed sheet is adopted only by the document whose window made it.
        const sheet = new (doc.defaultView as typeof window).CSSStyleSheet();
        sheet.replaceSync(`[${attribute}] { visibility: hidden !important; }`);
        doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
        marks.sheets.push([doc, sheet]);
      }
      marks.frames.push(element);
      element.setAttribute(attribute, '');
    } catch {
      // the page changed what this relies on: the capture enters the frame, as it would without us
    }
  };
  for (const doc of [document, ...helpers.readableFrameDocuments(document)]) {
    for (const element of doc.querySelectorAll('iframe, frame')) {
      if (!element.getClientRects().length) continue; // not rendered at all: the capture leaves it out already
      const inner = (element as HTMLIFrameElement).contentDocument; // null for another origin's: only its size can tell
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || (inner && showsNothing(element, inner))) hide(element);
    }
  }
  if (marks.frames.length) (window as unknown as Record<symbol, Marks>)[Symbol.for(key)] = marks;
  return marks.frames.length;
}

/** Runs in the page: takes the marks and style sheets of `hideBlankFrames` away again. */
export function showBlankFrames({ attribute, key }: BlankFramesArgs): void {
  const w = window as unknown as Record<symbol, Marks | undefined>;
  const marks = w[Symbol.for(key)];
  delete w[Symbol.for(key)];
  const attempt = (work: () => void) => {
    try {
      work();
    } catch {
      // a frame's document replaced meanwhile: nothing of ours is left in it
    }
  };
  for (const element of marks?.frames ?? []) attempt(() => element.removeAttribute(attribute));
  for (const [doc, sheet] of marks?.sheets ?? []) attempt(() => (doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== sheet)));
}
