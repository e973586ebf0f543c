import { z } from 'zod';
import { BrowserToolError } from '../errors.js';
import { defineBrowserTool } from './defineTool.js';
import { effectsShape, observeAction } from './observe.js';
import { ensureVisible } from './preflight.js';
import { refSchema, resolveTarget } from './shared.js';

interface Found {
  found: boolean;
  selected: string;
  /** How many times the text occurs, for the error when the occurrence asked for is not there. */
  count: number;
  /** The start of the element's text, for the error when the text is not in it. */
  begins: string;
}

/**
 * Runs in the element's frame: selects the `occurrence`-th match of `text` in a field's value, or across the
 * text nodes of any other element (an editor's paragraphs and bold runs alike), and gives the editing host the
 * focus, as a person's drag over the words would. Whitespace is matched loosely, as the snapshot shows it
 * collapsed; case only when no exact match exists.
 */
function selectInElement(el: Element, { text, occurrence }: { text: string; occurrence: number }): Found {
  const wanted = text.replace(/\s+/g, ' ').trim();
  const locate = (haystack: string) => {
    for (const fold of [false, true]) {
      const hay = fold ? haystack.toLowerCase() : haystack;
      const needle = fold ? wanted.toLowerCase() : wanted;
      const starts: number[] = [];
      for (let i = hay.indexOf(needle); i >= 0 && needle; i = hay.indexOf(needle, i + 1)) starts.push(i);
      if (starts.length) return starts;
    }
    return [];
  };
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    // Fields keep their whitespace: match on a copy collapsed position by position.
    const spots: number[] = [];
    let flat = '';
    for (let i = 0; i < el.value.length; i++) {
      const space = /\s/.test(el.value[i]!);
      if (space && flat.endsWith(' ')) continue;
      flat += space ? ' ' : el.value[i];
      spots.push(i);
    }
    const starts = locate(flat);
    const start = starts[occurrence - 1];
    if (start === undefined) return { found: false, selected: '', count: starts.length, begins: flat.slice(0, 80) };
    const from = spots[start]!;
    const to = spots[start + wanted.length - 1]! + 1;
    el.focus();
    el.setSelectionRange(from, to);
    return { found: true, selected: el.value.slice(from, to), count: starts.length, begins: '' };
  }
  // Each character of the element's text, with the text node and offset it comes from. A block boundary
  // reads as a space, as the snapshot writes it.
  const doc = el.ownerDocument;
  const places: Array<[Text, number]> = [];
  let flat = '';
  let lastBlock: Element | null = null;
  const walker = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const blockOf = (node: Node) => {
    for (let n = node.parentElement; n && n !== el; n = n.parentElement) if (!/^inline/.test(getComputedStyle(n).display)) return n;
    return el;
  };
  while (walker.nextNode()) {
    const node = walker.currentNode as Text;
    const value = node.nodeValue ?? '';
    if (!value) continue;
    const block = blockOf(node);
    if (lastBlock && block !== lastBlock && !flat.endsWith(' ')) {
      const last = places[places.length - 1]!;
      flat += ' ';
      places.push([last[0], last[1] + 1]);
    }
    lastBlock = block;
    for (let i = 0; i < value.length; i++) {
      const space = /\s/.test(value[i]!);
      if (space && (flat.endsWith(' ') || !flat)) continue;
      flat += space ? ' ' : value[i];
      places.push([node, i]);
    }
  }
  const starts = locate(flat);
  const start = starts[occurrence - 1];
  if (start === undefined) return { found: false, selected: '', count: starts.length, begins: flat.slice(0, 80) };
  const [startNode, startOffset] = places[start]!;
  const [endNode, endOffset] = places[start + wanted.length - 1]!;
  // The editing host takes the focus first: focusing it afterwards could move the caret off the selection.
  const host = (el as HTMLElement).isContentEditable ? ((startNode.parentElement?.closest('[contenteditable]') as HTMLElement | null) ?? (el as HTMLElement)) : null;
  host?.focus({ preventScroll: true });
  const range = doc.createRange();
  range.setStart(startNode, startOffset);
  range.setEnd(endNode, Math.min(endOffset + 1, endNode.length));
  const selection = doc.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  return { found: true, selected: range.toString(), count: starts.length, begins: '' };
}

/** Its source with a stand-in for the `__name` helper some bundlers wrap named functions in (inPage.ts). */
const IN_PAGE = `(el, arg) => { const __name = (f) => f; return (${selectInElement.toString()})(el, arg); }`;

export const selectTextTool = defineBrowserTool({
  id: 'browser_select_text',
  description:
    'Select a word or phrase inside a text field, an editable surface (a rich text editor) or any text by ref, as a person does by dragging over it. Then click the editor\'s formatting button (Bold, a heading, a link) to apply it to the selection, or press a key (Backspace deletes it; typing replaces it). Returns the selected text.',
  input: z.object({
    ref: refSchema,
    text: z.string().min(1).describe('The words to select, as they read in the snapshot.'),
    occurrence: z.number().int().min(1).optional().describe('Which match to select when the text occurs more than once; 1 (the first) by default.'),
  }),
  output: { selected: z.string().describe('The text now selected.'), in: z.string(), ...effectsShape },
  async handle({ ref, text, occurrence }, call) {
    const target = await resolveTarget(call, ref, 'select text in');
    await ensureVisible(target.locator, target.label);
    const which = occurrence ?? 1;
    let found: Found | undefined;
    const effects = await observeAction(call, async () => {
      found = (await target.locator.evaluate(IN_PAGE, { text, occurrence: which }, { timeout: call.deadline.forStep() })) as Found;
    });
    if (!found?.found) {
      throw new BrowserToolError(
        'invalid_input',
        found?.count
          ? `${target.label} holds ${JSON.stringify(text)} ${found.count} time${found.count === 1 ? '' : 's'}, not ${which}.`
          : `${target.label} does not hold ${JSON.stringify(text)}${found?.begins ? `; its text begins ${JSON.stringify(found.begins)}` : ''}.`,
        { hint: 'Pass words exactly as the snapshot shows them in this element, or the ref of the element that holds them.' },
      );
    }
    return { selected: found.selected, in: target.label, ...effects };
  },
});
