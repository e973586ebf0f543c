/**
 * Line text: writes each entry of the outline as its line of the snapshot format (docs/snapshot-format.md):
 * a control's ref, role, name (or icon hint), value, states and link target; a reacting element's label; a
 * section's header; a table's rows of cells; text within its limit. Which element each line is for, its facts
 * and its place were decided by the outline (outline.ts); here is how it reads.
 */
import { boxKey, type AriaNode, type ElementFacts } from './tree.js';
import type { CellSay, ControlSay, Entry, Priority, ReactingSay, Say } from './entry.js';
import { linkTarget, shortUrl, siteUrl, urlName, type LinkTargets } from './links.js';
import { VALUE_ROLES } from './roles.js';
import { quote, shownWhole, truncate } from './textLimits.js';
import { collectText } from './textPieces.js';

/** One line of the snapshot: its text, what it is worth, and where it sits on the page. */
export interface Line {
  text: string;
  depth: number;
  priority: Priority;
  /** Role, for the "what was cut or is off screen" summaries. */
  kind: string;
  ref?: string;
  /** Vertical extent in page coordinates (for viewport selection); undefined when unknown. */
  top?: number;
  bottom?: number;
  left?: number;
  right?: number;
  /** Section headers are kept only when something inside them is kept: the index after their last line. */
  sectionEnd?: number;
  /** A table's header row: kept whenever a row of its table is. */
  header?: boolean;
  /** The element's box in its own frame, to match facts collected in the page. */
  boxKey?: string;
  /** Ref of the nearest enclosing element that has one, for "expand with ref" hints. */
  container?: string;
}

/** How the lines of one snapshot are written. */
export interface Wording {
  /** The page's address: links on its site are written as paths. */
  pageUrl: URL | undefined;
  /** Characters of text and values shown before the rest is counted (Infinity in a `ref` snapshot). */
  textLimit: number;
  nameLimit: number;
  /** Refs first seen in this snapshot: marked `new`. */
  newRefs?: Set<string>;
  linkTargets?: LinkTargets;
  /** Link names used by more than one link on the page. */
  repeatedLinkNames?: Set<string>;
}

/** The lines of an outline, in its order. */
export function writeLines(entries: Entry[], wording: Wording): Line[] {
  return entries.map((entry) => placed(entry, textOf(entry.say, wording)));
}

/** A line with its text, placed on the page: a box in a frame is moved by the frame's offset. */
function placed({ depth, priority, kind, ref, sectionEnd, header, box, at }: Entry, text: string): Line {
  const line: Line = { text, depth, priority, kind, ref, sectionEnd, header, container: at.container };
  if (!box || (box.width === 0 && box.height === 0)) return line;
  line.left = box.x + at.offsetX;
  line.top = box.y + at.offsetY;
  line.right = line.left + box.width;
  line.bottom = line.top + box.height;
  line.boxKey = boxKey(box);
  return line;
}

function textOf(say: Say, wording: Wording): string {
  switch (say.as) {
    case 'text': {
      const { shown, rest } = shownWhole(say.text, wording.textLimit, say.ref);
      return `${say.prefix}${shown}${rest ? ` ${rest}` : ''}`;
    }
    case 'control':
      return `${controlText(say, wording)}${say.holds ? ':' : ''}`;
    case 'reacting':
      return reactingText(say, wording);
    case 'holder':
      return `${say.ref} ${say.kind}:`;
    case 'around':
      return `${say.ref} ${say.kind} > ${textOf(say.inner, wording)}`;
    case 'section':
      return `${say.ref ? `${say.ref} ` : ''}${say.role}${say.name ? ` ${quote(truncate(say.name, wording.nameLimit))}` : ''}:`;
    case 'img':
      return `img ${quote(truncate(say.name, wording.nameLimit))}`;
    case 'grid':
      return `| ${say.cells.map((cell) => [cell.node.ref, quote(truncate(cell.label, wording.nameLimit)), ...states(cell.node, cell.facts, wording)].join(' ')).join(' | ')} |`;
    case 'table': {
      const grips = say.grips.length ? `, resize grips ${say.grips.join(' ')}` : '';
      return `${say.ref ? `${say.ref} ` : ''}${say.role}${say.name ? ` ${quote(say.name)}` : ''} (${say.columns} col${say.columns === 1 ? '' : 's'}${grips}):`;
    }
    case 'row':
      return `${say.ref ? `${say.ref} ` : ''}| ${say.cells.map((cell) => cellText(cell, wording)).join(' | ')} |`;
  }
}

/** The states of a node as words, in a fixed order. */
function states(node: AriaNode, facts: ElementFacts | undefined, wording: Wording): string[] {
  const out: string[] = [];
  if (node.checked === true) out.push('checked');
  if (node.checked === 'mixed') out.push('mixed');
  if (node.pressed === true) out.push('pressed');
  if (node.selected) out.push('selected');
  const expanded = node.expanded ?? facts?.expanded;
  if (expanded === true) out.push('expanded');
  if (expanded === false) out.push('collapsed');
  if (facts?.multiline && VALUE_ROLES.has(node.role)) out.push('multiline');
  if (node.disabled) out.push('disabled');
  for (const word of facts?.state ?? []) if (!out.includes(word)) out.push(word);
  if (facts?.required) out.push('required');
  if (facts?.readonly) out.push('readonly');
  if (facts?.password) out.push('password');
  if (node.active) out.push('focused');
  if (node.ref && wording.newRefs?.has(node.ref)) out.push('new');
  return out;
}

function selectedOptions(node: AriaNode): string[] {
  const out: string[] = [];
  const visit = (n: AriaNode) => {
    for (const child of n.children ?? []) {
      if (typeof child === 'string') continue;
      if (child.role === 'option' && child.selected) out.push(child.name ?? child.text ?? '');
      else visit(child);
    }
  };
  visit(node);
  return out;
}

function countOptions(node: AriaNode): number {
  let count = 0;
  for (const child of node.children ?? []) {
    if (typeof child === 'string') continue;
    count += child.role === 'option' ? 1 : countOptions(child);
  }
  return count;
}

/** A control's line: its ref, role, name (or icon hint), value, states and link target. */
function controlText({ node, facts, masked }: ControlSay, wording: Wording): string {
  let name = node.name ?? '';
  let value: string | undefined;
  if (VALUE_ROLES.has(node.role)) {
    // An editable surface's text, or a text area's with its line breaks, comes from the page (editables.ts).
    value = facts?.text ?? node.text;
  } else if (node.role === 'combobox') {
    const selected = selectedOptions(node);
    value = selected.length ? selected.join(', ') : node.text;
  } else if (!name) {
    // Playwright leaves the name out when the children spell it (an image's alt, a heading inside a link).
    name = node.text || collectText(node);
  }
  const target = node.role === 'link' && node.url ? shortUrl(node.url, wording.pageUrl, wording.textLimit === Infinity) : undefined;
  if (!name && !facts?.icon && target) name = urlName(siteUrl(node.url!, wording.pageUrl));

  const parts = [node.ref ?? '', node.role];
  if (name) parts.push(quote(truncate(name, wording.nameLimit)));
  else if (facts?.icon) parts.push(`icon=${quote(facts.icon)}`);
  let rest = '';
  if (value) {
    if (masked) parts.push('value="••••••"');
    else {
      // A field's value is content the agent may have to read to the end: whole, or counted with the call that shows it.
      const whole = shownWhole(value, wording.textLimit, node.ref, !!facts?.multiline);
      parts.push(`value=${quote(whole.shown)}`);
      rest = whole.rest;
    }
  }
  if (node.role === 'combobox' && !node.text) {
    const options = countOptions(node);
    if (options) parts.push(`options=${options}`);
  }
  parts.push(...states(node, facts, wording));
  const shown = target ? linkTarget(name, node.url!, target, wording) : undefined;
  if (shown) parts.push(`-> ${shown}`);
  if (rest) parts.push(rest);
  return parts.join(' ');
}

const TOGGLES = new Set(['checkbox', 'switch', 'radio']);

/**
 * The one checkbox, switch or radio inside a clickable that has no ref of its own: a web component hides its
 * input from the pointer behind a label that takes the clicks (Shoelace's switch). The label is then that
 * control, with its state; a click on it toggles it.
 */
function hiddenToggle(node: AriaNode): AriaNode | undefined {
  const found: AriaNode[] = [];
  const visit = (n: AriaNode) => {
    for (const child of n.children ?? []) {
      if (typeof child === 'string' || found.length > 1) continue;
      if (TOGGLES.has(child.role)) {
        if (!child.ref) found.push(child);
      } else visit(child);
    }
  };
  visit(node);
  return found.length === 1 ? found[0] : undefined;
}

/** An element that is no control but reacts (`clickable`, `draggable`): its label, or its icon hint. */
function reactingText({ node, kind, label, facts }: ReactingSay, wording: Wording): string {
  const toggle = kind === 'clickable' ? hiddenToggle(node) : undefined;
  const parts = [node.ref!, toggle?.role ?? kind];
  if (label) parts.push(quote(truncate(label, wording.nameLimit)));
  else if (facts?.icon) parts.push(`icon=${quote(facts.icon)}`);
  const shown = toggle ? { ...node, checked: toggle.checked, disabled: toggle.disabled } : node;
  parts.push(...states({ ...shown, expanded: node.expanded ?? facts?.expanded }, facts && { state: facts.state }, wording));
  return parts.join(' ');
}

/** A cell's content: its text and its controls as in their own lines; a cell that reacts starts with its ref, label and states. */
function cellText({ ref, own, parts }: CellSay, wording: Wording): string {
  const shown = parts.map((part) => (typeof part === 'string' ? part : part.as === 'control' ? controlText(part, wording) : reactingText(part, wording)));
  const content = shown.join(' ').replace(/\s+/g, ' ').replace(/\|/g, '¦').trim();
  if (own) {
    const said = [ref, quote(own.label), ...states(own.node, own.facts, wording)].join(' ');
    return `${said}${content ? ` ${shownWhole(content, wording.textLimit, ref).shown}` : ''}`;
  }
  return shownWhole(content, wording.textLimit, ref).shown;
}
