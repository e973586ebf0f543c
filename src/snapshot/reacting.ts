/**
 * Reacting elements: elements that are no control but react (a handler of their own, a tabindex, a pointer
 * cursor), and controls wrapped in other controls. Which elements react is facts.ts's finding; this module
 * decides what the outline makes of each: one line with a label, a card with its content below, a widget
 * serving its parts, or a wrapper naming both refs. It reads the tree and the facts; the outline lists.
 */
import { boxKey, type AriaNode, type ElementFacts } from './tree.js';
import type { OutlineContext } from './entry.js';
import { holdsParts } from './parts.js';
import { LEAF_CONTROLS } from './roles.js';
import { collectText } from './textPieces.js';

/** A clickable whose text runs longer than this is a container (a card, a panel): a header, then its lines. */
const LABEL_LIMIT = 150;

/**
 * Facts of a node. Facts are found by box, so a parent and a child with the very same box share them: they
 * go to the child, unless the parent is one facts.ts gave the role "group" for the capture (a reacting
 * wrapper: a slideshow with a tabindex, a MathJax display formula), and not to a node inside a clickable
 * that already took them.
 */
export function ownFacts(node: AriaNode, ctx: OutlineContext): ElementFacts | undefined {
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
function listedInside(node: AriaNode, ctx: OutlineContext): boolean {
  return (!!node.ref && (LEAF_CONTROLS.has(node.role) || node.cursor === 'pointer')) || !!ownFacts(node, ctx)?.clickable;
}

/** A clickable row holds a few controls of its own (a mail row's star and trash); more make it a widget. */
const ROW_CONTROLS = 3;

/** How many listed elements are below `node`, counting no further than ROW_CONTROLS + 1. */
function listedCount(node: AriaNode, ctx: OutlineContext, limit = ROW_CONTROLS + 1): number {
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
export function hasListedDescendant(node: AriaNode, ctx: OutlineContext): boolean {
  let known = listedBelow.get(node);
  if (known === undefined) {
    known = (node.children ?? []).some((c) => typeof c !== 'string' && (listedInside(c, ctx) || hasListedDescendant(c, ctx)));
    listedBelow.set(node, known);
  }
  return known;
}

/**
 * What a reacting element is listed as:
 * - `parts`: a widget serving its parts with one listener (a date picker's days, a sortable list's items): its
 *   ref as a header, then each part as a target of its own;
 * - `card`: a card or panel that reacts as a whole, or a widget with many controls: its ref as a header, then
 *   its text, tables and controls as usual;
 * - `wrapper`: a focusable wrapper around controls (an `li tabindex` around its link): both refs on one line
 *   when it wraps one control, else a container;
 * - `line`: one line with its label, and the controls inside it (a mail row's trash icon) indented below.
 * `claims` is its box key when its facts are its own: a child with the same box does not react on its own.
 */
export type Reaction =
  | { form: 'parts' | 'card' | 'wrapper'; kind: string; claims?: string }
  | { form: 'line'; kind: string; claims?: string; label: string; facts: ElementFacts | undefined; inside: boolean };

/**
 * Elements that are no control but react: a handler of their own (facts: onclick, listener, tabindex,
 * draggable) or a pointer cursor. Undefined when the node is better walked as a container.
 */
export function reaction(node: AriaNode, outer: OutlineContext): Reaction | undefined {
  const facts = ownFacts(node, outer);
  const hinted = facts?.clickable;
  const pointer = node.cursor === 'pointer';
  if (!hinted && !pointer) return undefined;
  // From here on its facts are this node's: a child with the same box does not react on its own.
  const claims = hinted ? boxKey(node.box!) : undefined;
  const ctx: OutlineContext = claims ? { ...outer, claimed: claims } : outer;
  const kind = hinted === 'drag' ? 'draggable' : hinted === 'drop' ? 'dropzone' : facts?.slider ? 'slider' : 'clickable';
  if (hinted && holdsParts(node)) return { form: 'parts', kind, claims };
  const inside = hasListedDescendant(node, ctx);
  // A pointer cursor is inherited by everything in a clickable area; with controls inside, they are the targets.
  if (!hinted && inside) return undefined;
  let label = labelOf(node, inside, ctx);
  // An element showing no text was named by its icon hint for the capture (facts.ts): say it is a guess.
  if (facts?.icon && label === facts.icon) label = '';
  // The label shown around a field inside it (a web component's label and input) is the field's name: said once.
  if (inside && label && namesControlInside(node, label)) label = '';
  if (!label && !facts?.icon && inside && hinted) return { form: 'wrapper', kind, claims };
  if (!label && !facts?.icon && (inside || !hinted)) return undefined; // nothing to say
  if (label.length > LABEL_LIMIT || (inside && listedCount(node, ctx) > ROW_CONTROLS)) return { form: 'card', kind, claims };
  return { form: 'line', kind, claims, label, facts, inside };
}

/** What a reacting element shows to be named by: its name, else its text without the parts listed on their own. */
function labelOf(node: AriaNode, inside: boolean, ctx: OutlineContext): string {
  return (node.name || (inside ? collectText(node, (child) => listedInside(child, ctx)) : node.text || collectText(node))).trim();
}

/**
 * An item of a widget that serves its parts (a sortable list's item, a board's card): a target of its own,
 * with the controls it holds listed below it. Undefined when it shows nothing to name it by.
 */
export function asPart(node: AriaNode, ctx: OutlineContext): { kind: string; label: string; facts: ElementFacts | undefined; inside: boolean } | undefined {
  const inside = hasListedDescendant(node, ctx);
  const label = labelOf(node, inside, ctx);
  if (!label) return undefined;
  const facts = ownFacts(node, ctx);
  return { kind: facts?.clickable === 'drag' ? 'draggable' : 'clickable', label, facts, inside };
}

/** A name made of what the element holds (a calendar day named by its events): the lines below it say it. */
export function namedByContent(node: AriaNode): boolean {
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
