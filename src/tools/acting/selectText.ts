import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { defineBrowserTool } from '../defineTool.js';
import { effectsShape, observeAction } from '../helpers/observe.js';
import { ensureVisible } from '../helpers/preflight.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

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
 * collapsed; case only when no exact match exists. Written without inner named functions: bundlers may wrap
 * those in a helper the page does not have.
 */
function selectInElement(el: Element, { text, occurrence }: { text: string; occurrence: number }): Found {
  const wanted = text.replace(/\s+/g, ' ').trim();
  const field = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el : undefined;
  // The element's text with whitespace collapsed, and where each of its characters comes from: an offset in a
  // field's value, or a text node and offset. A block boundary reads as a space, as the snapshot writes it.
  let flat = '';
  const spots: number[] = [];
  const places: Array<[Text, number]> = [];
  if (field) {
    for (let i = 0; i < field.value.length; i++) {
      const space = /\s/.test(field.value[i]!);
      if (space && (flat.endsWith(' ') || !flat)) continue;
      flat += space ? ' ' : field.value[i];
      spots.push(i);
    }
  } else {
    let lastBlock: Element | null = null;
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode as Text;
      const value = node.nodeValue ?? '';
      if (!value) continue;
      let block: Element = el;
      for (let n = node.parentElement; n && n !== el; n = n.parentElement) {
        if (!/^inline/.test(getComputedStyle(n).display)) {
          block = n;
          break;
        }
      }
      if (lastBlock && block !== lastBlock && flat && !flat.endsWith(' ')) {
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
  }
  let starts: number[] = [];
  for (const fold of [false, true]) {
    const hay = fold ? flat.toLowerCase() : flat;
    const needle = fold ? wanted.toLowerCase() : wanted;
    for (let i = hay.indexOf(needle); i >= 0 && needle; i = hay.indexOf(needle, i + 1)) starts.push(i);
    if (starts.length) break;
  }
  const start = starts[occurrence - 1];
  if (start === undefined) return { found: false, selected: '', count: starts.length, begins: flat.slice(0, 80) };
  const end = start + wanted.length - 1;
  if (field) {
    field.focus();
    field.setSelectionRange(spots[start]!, spots[end]! + 1);
    return { found: true, selected: field.value.slice(spots[start]!, spots[end]! + 1), count: starts.length, begins: '' };
  }
  const [startNode, startOffset] = places[start]!;
  const [endNode, endOffset] = places[end]!;
  // The editing host takes the focus first: focusing it afterwards could move the caret off the selection.
  if ((el as HTMLElement).isContentEditable) ((startNode.parentElement?.closest('[contenteditable]') as HTMLElement | null) ?? (el as HTMLElement)).focus({ preventScroll: true });
  const range = el.ownerDocument.createRange();
  range.setStart(startNode, startOffset);
  range.setEnd(endNode, Math.min(endOffset + 1, endNode.length));
  const selection = el.ownerDocument.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  return { found: true, selected: range.toString(), count: starts.length, begins: '' };
}

export const selectTextTool = defineBrowserTool({
  id: 'browser_select_text',
  description:
    'Select a word or phrase inside a text field or a rich text editor (a multiline textbox) by ref, as a person does by dragging over it. Then click the editor\'s formatting button (Bold, Italic, a heading, a link) to apply it to just that text, or press a key on it (Backspace deletes it). Returns the selected text.',
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
      found = await target.locator.evaluate(selectInElement, { text, occurrence: which }, { timeout: call.deadline.forStep() });
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
