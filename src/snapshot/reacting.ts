/**
 * Reacting elements: elements that are no control but react (a handler of their own, a tabindex, a pointer
 * cursor), and controls wrapped in other controls. Which elements react is facts.ts's finding; this module
 * works out, for the survey (survey.ts), what the outline makes of each: one line with a label, a card with its
 * content below, a widget serving its parts, or a wrapper naming both refs. It reads the tree and the facts of
 * the nodes below (already surveyed), under a claim: the box key of a clickable above that took its box's facts.
 */
import type { AriaNode, ElementFacts } from './tree.js';
import type { NodeFacts, Part, Reaction } from './nodeFacts.js';
import { LEAF_CONTROLS } from './roles.js';
import { collectText } from './textPieces.js';

type Nodes = Map<AriaNode, NodeFacts>;

/** A clickable whose text runs longer than this is a container (a card, a panel): a header, then its lines. */
const LABEL_LIMIT = 150;

/** Facts of a node that are its own (nodeFacts.ts), unless a clickable above with the same box claimed them. */
function ownFacts(node: AriaNode, claim: string | undefined, nodes: Nodes): ElementFacts | undefined {
  const known = nodes.get(node)!;
  return known.key === claim ? undefined : known.facts;
}

/**
 * A node listed on its own inside a clickable: a control, an element with a handler of its own, or one with
 * a pointer cursor (reported only where it starts, so never merely inherited from the clickable).
 */
function listedInside(node: AriaNode, claim: string | undefined, nodes: Nodes): boolean {
  return nodes.get(node)!.listed || !!ownFacts(node, claim, nodes)?.clickable;
}

/** A clickable row holds a few controls of its own (a mail row's star and trash); more make it a widget. */
const ROW_CONTROLS = 3;

/** How many listed elements are below `node`, counting no further than ROW_CONTROLS + 1. */
function listedCount(node: AriaNode, claim: string | undefined, nodes: Nodes, limit = ROW_CONTROLS + 1): number {
  let count = 0;
  for (const child of node.children ?? []) {
    if (typeof child === 'string') continue;
    count += listedInside(child, claim, nodes) ? 1 : listedCount(child, claim, nodes, limit - count);
    if (count >= limit) break;
  }
  return count;
}

/** Whether something listed sits below `node`: by role or cursor, or by facts that the claim leaves it. */
function hasListedDescendant(known: NodeFacts, claim: string | undefined): boolean {
  return known.below.listed || known.below.keys.some((key) => key !== claim);
}

/**
 * Elements that are no control but react: a handler of their own (facts: onclick, listener, tabindex,
 * draggable) or a pointer cursor. Undefined when the node is better walked as a container.
 */
export function reaction(node: AriaNode, outer: string | undefined, nodes: Nodes, holdsParts: boolean): Reaction | undefined {
  const known = nodes.get(node)!;
  const facts = ownFacts(node, outer, nodes);
  const hinted = facts?.clickable;
  const pointer = node.cursor === 'pointer';
  if (!hinted && !pointer) return undefined;
  // From here on its facts are this node's: a child with the same box does not react on its own.
  const claims = hinted ? known.key : undefined;
  const claim = claims ?? outer;
  const kind = hinted === 'drag' ? 'draggable' : hinted === 'drop' ? 'dropzone' : facts?.slider ? 'slider' : 'clickable';
  if (hinted && holdsParts) return { form: 'parts', kind, claims };
  const inside = hasListedDescendant(known, claim);
  // A pointer cursor is inherited by everything in a clickable area; with controls inside, they are the targets.
  if (!hinted && inside) return undefined;
  let label = labelOf(node, inside, claim, nodes);
  // An element showing no text was named by its icon hint for the capture (facts.ts): say it is a guess.
  if (facts?.icon && label === facts.icon) label = '';
  // The label shown around a field inside it (a web component's label and input) is the field's name: said once.
  if (inside && label && namesControlInside(node, label)) label = '';
  if (!label && !facts?.icon && inside && hinted) return { form: 'wrapper', kind, claims };
  if (!label && !facts?.icon && (inside || !hinted)) return undefined; // nothing to say
  if (label.length > LABEL_LIMIT || (inside && listedCount(node, claim, nodes) > ROW_CONTROLS)) return { form: 'card', kind, claims };
  return { form: 'line', kind, claims, label, facts, inside };
}

/**
 * What a reacting element shows to be named by: its name, else its text without the parts listed on their own.
 * A name that is only its tooltip (`title`) gives way to the text it shows, which is what a person reads and asks for.
 */
function labelOf(node: AriaNode, inside: boolean, claim: string | undefined, nodes: Nodes): string {
  const name = nodes.get(node)!.facts?.titled ? '' : node.name;
  const shown = () => (inside ? collectText(node, (child) => listedInside(child, claim, nodes)) : node.text || collectText(node));
  return (name || shown() || node.name || '').trim();
}

/**
 * An item of a widget that serves its parts (a sortable list's item, a board's card): a target of its own,
 * with the controls it holds listed below it. Undefined when it shows nothing to name it by.
 */
export function asPart(node: AriaNode, claim: string | undefined, nodes: Nodes): Part {
  const inside = hasListedDescendant(nodes.get(node)!, claim);
  const label = labelOf(node, inside, claim, nodes);
  if (!label) return undefined;
  const facts = ownFacts(node, claim, nodes);
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
