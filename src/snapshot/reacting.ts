/**
 * Reacting elements: lines for elements that are no control but react (a handler of their own, a tabindex,
 * a pointer cursor), and for controls wrapped in other controls. Which elements react is facts.ts's finding;
 * this module decides how they read: one line with a label, a card with its content below, or a wrapper
 * line naming both refs.
 */
import { boxKey, type AriaNode, type ElementFacts } from './tree.js';
import { clickableLine, controlLine } from './controls.js';
import { LEAF_CONTROLS, placed, Priority, type Line, type WalkContext } from './line.js';
import { holdsParts } from './parts.js';
import { collectText } from './text.js';

/** A clickable whose text runs longer than this is a container (a card, a panel): a header, then its lines. */
const LABEL_LIMIT = 150;

/**
 * Facts of a node. Facts are found by box, so a parent and a child with the very same box share them: they
 * go to the child, unless the parent is one facts.ts gave the role "group" for the capture (a reacting
 * wrapper: a slideshow with a tabindex, a MathJax display formula), and not to a node inside a clickable
 * that already took them.
 */
export function ownFacts(node: AriaNode, ctx: WalkContext): ElementFacts | undefined {
  if (!node.ref || !node.box) return undefined;
  const key = boxKey(node.box);
  const facts = ctx.fields.get(key);
  if (!facts || ctx.claimed === key) return undefined;
  return (node.role === 'group' && facts.grouped) || !hasSameBoxChild(node) ? facts : undefined;
}

/**
 * A node listed on its own inside a clickable: a control, an element with a handler of its own, or one with
 * a pointer cursor (reported only where it starts, so never merely inherited from the clickable).
 */
function listedInside(node: AriaNode, ctx: WalkContext): boolean {
  return (!!node.ref && (LEAF_CONTROLS.has(node.role) || node.cursor === 'pointer')) || !!ownFacts(node, ctx)?.clickable;
}

/** A clickable row holds a few controls of its own (a mail row's star and trash); more make it a widget. */
const ROW_CONTROLS = 3;

/** How many listed elements are below `node`, counting no further than ROW_CONTROLS + 1. */
function listedCount(node: AriaNode, ctx: WalkContext, limit = ROW_CONTROLS + 1): number {
  let count = 0;
  for (const child of node.children ?? []) {
    if (typeof child === 'string') continue;
    count += listedInside(child, ctx) ? 1 : listedCount(child, ctx, limit - count);
    if (count >= limit) break;
  }
  return count;
}

const listedBelow = new WeakMap<AriaNode, boolean>();

/** Memoised: pointer cursors are inherited, so nested clickable candidates ask it of the same subtrees. */
export function hasListedDescendant(node: AriaNode, ctx: WalkContext): boolean {
  let known = listedBelow.get(node);
  if (known === undefined) {
    known = (node.children ?? []).some((c) => typeof c !== 'string' && (listedInside(c, ctx) || hasListedDescendant(c, ctx)));
    listedBelow.set(node, known);
  }
  return known;
}

/**
 * Elements that are no control but react: a handler of their own (facts: onclick, listener, tabindex,
 * draggable) or a pointer cursor. Writes their line, and the controls inside them, and returns true; returns
 * false when the node is better walked as a container.
 */
export function clickable(node: AriaNode, outer: WalkContext, out: Line[]): boolean {
  const facts = ownFacts(node, outer);
  const hinted = facts?.clickable;
  const pointer = node.cursor === 'pointer';
  if (!hinted && !pointer) return false;
  // From here on its facts are this node's: a child with the same box does not react on its own.
  const ctx: WalkContext = hinted ? { ...outer, claimed: boxKey(node.box!) } : outer;
  const kind = hinted === 'drag' ? 'draggable' : hinted === 'drop' ? 'dropzone' : facts?.slider ? 'slider' : 'clickable';
  if (hinted && holdsParts(node)) {
    // A widget serving its parts with one listener (a date picker's days, a sortable list's items): its ref
    // as a header, then each part as a target of its own.
    header(node, kind, { ...ctx, parts: true }, out);
    return true;
  }
  const inside = hasListedDescendant(node, ctx);
  // A pointer cursor is inherited by everything in a clickable area; with controls inside, they are the targets.
  if (!hinted && inside) return false;
  let label = labelOf(node, inside, ctx);
  // An element showing no text was named by its icon hint for the capture (facts.ts): say it is a guess.
  if (facts?.icon && label === facts.icon) label = '';
  // The label shown around a field inside it (a web component's label and input) is the field's name: said once.
  if (inside && label && namesControlInside(node, label)) label = '';
  // A focusable wrapper around one control (an `li tabindex` around its link): both refs on one line.
  if (!label && !facts?.icon && inside && hinted) return wrapper(node, kind, ctx, out, true);
  if (!label && !facts?.icon && (inside || !hinted)) return false; // nothing to say
  const ref = node.ref!;
  if (label.length > LABEL_LIMIT || (inside && listedCount(node, ctx) > ROW_CONTROLS)) {
    // A card or panel that reacts as a whole, or a widget with many controls: its ref as a header, then its
    // text, tables and controls as usual.
    header(node, kind, ctx, out);
    return true;
  }
  out.push(placed({ text: clickableLine(node, kind, label, facts, ctx), depth: ctx.depth, priority: Priority.Control, kind, ref }, node.box, ctx));
  // A row that opens on click and holds its own buttons (a mail row and its trash icon): those, indented.
  if (inside) ctx.walk(node.children ?? [], { ...ctx, depth: ctx.depth + 1, container: ref, inClickable: true, controlsOnly: true }, out, node.box);
  return true;
}

/** What a reacting element shows to be named by: its name, else its text without the parts listed on their own. */
function labelOf(node: AriaNode, inside: boolean, ctx: WalkContext): string {
  return (node.name || (inside ? collectText(node, (child) => listedInside(child, ctx)) : node.text || collectText(node))).trim();
}

/** A reacting element as a header line, with what it holds listed below it. */
function header(node: AriaNode, kind: string, ctx: WalkContext, out: Line[]): void {
  const ref = node.ref!;
  const index = out.length;
  out.push(placed({ text: `${ref} ${kind}:`, depth: ctx.depth, priority: Priority.Control, kind, ref }, node.box, ctx));
  ctx.walk(node.children ?? [], { ...ctx, depth: ctx.depth + 1, container: ref, inClickable: true }, out, node.box);
  out[index]!.sectionEnd = out.length;
}

/**
 * An item of a widget that serves its parts (a sortable list's item, a board's card): a target of its own,
 * with the controls it holds indented below. False when it shows nothing to name it by.
 */
export function part(node: AriaNode, outer: WalkContext, out: Line[]): boolean {
  const ctx: WalkContext = { ...outer, parts: false };
  const inside = hasListedDescendant(node, ctx);
  const label = labelOf(node, inside, ctx);
  if (!label) return false;
  const ref = node.ref!;
  const facts = ownFacts(node, ctx);
  const kind = facts?.clickable === 'drag' ? 'draggable' : 'clickable';
  out.push(placed({ text: clickableLine(node, kind, label, facts, ctx), depth: ctx.depth, priority: Priority.Control, kind, ref }, node.box, ctx));
  if (inside) ctx.walk(node.children ?? [], { ...ctx, depth: ctx.depth + 1, container: ref, inClickable: true, controlsOnly: true }, out, node.box);
  return true;
}

/**
 * A control around other controls (a menu item around its link, a link around a button, a focusable list
 * item): both are targets, so both keep their refs. Around one control: `e5 menuitem > e6 link "Home"`; around
 * several: the wrapper's line as a header, its controls indented below. With `onlyOne`, returns false (and
 * writes nothing) when there are several: the caller lists the node as a container.
 */
export function wrapper(node: AriaNode, kind: string, ctx: WalkContext, out: Line[], onlyOne = false): boolean {
  const inner: Line[] = [];
  ctx.walk(node.children ?? [], { ...ctx, container: node.ref, claimed: node.box && boxKey(node.box) }, inner, node.box);
  const prefix = `${node.ref} ${kind}`;
  const append = (lines: Line[], deeper: number) => {
    const offset = out.length;
    for (const line of lines) out.push({ ...line, depth: line.depth + deeper, sectionEnd: line.sectionEnd === undefined ? undefined : line.sectionEnd + offset });
  };
  if (inner.length === 1 && inner[0]!.ref && inner[0]!.priority === Priority.Control) {
    append([{ ...inner[0]!, text: `${prefix} > ${inner[0]!.text}` }], 0);
    return true;
  }
  if (onlyOne) return false;
  // A name made of what it holds (a calendar day named by its events) is said by the lines below it.
  const own = !inner.length || (node.name && !namedByContent(node)) ? controlLine(node, ctx) : prefix;
  const index = out.length;
  out.push(placed({ text: inner.length ? `${own}:` : own, depth: ctx.depth, priority: Priority.Control, kind, ref: node.ref }, node.box, ctx));
  append(inner, 1);
  if (inner.length) out[index]!.sectionEnd = out.length;
  return true;
}

function namedByContent(node: AriaNode): boolean {
  const bare = (text: string) => text.replace(/[\s·]+/g, '');
  return bare(node.name ?? '') === bare(collectText(node));
}

function namesControlInside(node: AriaNode, label: string): boolean {
  return (node.children ?? []).some((c) => typeof c !== 'string' && ((!!c.ref && LEAF_CONTROLS.has(c.role) && c.name === label) || namesControlInside(c, label)));
}

function hasSameBoxChild(node: AriaNode): boolean {
  const key = node.box && boxKey(node.box);
  return (node.children ?? []).some((child) => typeof child !== 'string' && !!child.box && boxKey(child.box) === key);
}
