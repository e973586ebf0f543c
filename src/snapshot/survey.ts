/**
 * Survey: one pass over a capture's tree, before the outline reads it, that works out what each node is: the
 * facts that are its own (found by box), what is listed below it, whether it is a piece of a row of text, a
 * control's facts, a data table read (table.ts), how it is listed when it reacts or is a widget's part
 * (reacting.ts), the runs of alike cells among children (parts.ts), and the link names that several links
 * going to different places share (links.ts). The outline and the lines' text then only look these up.
 * Children are surveyed before their parent, since what a node is depends on what it holds.
 */
import { boxKey, type AriaNode, type Box, type ElementFacts } from './tree.js';
import { controlSay, type FrameAt } from './entry.js';
import type { Claimed, NodeFacts, Survey } from './nodeFacts.js';
import { cellLabel, cellRows, cellRun, holdsParts } from './parts.js';
import { asPart, namedByContent, reaction } from './reacting.js';
import { COMPOSITE_CONTROLS, ITEM_ROLES, LEAF_CONTROLS, TABLE_ROLES } from './roles.js';
import { readTable } from './table.js';
import { isTextLeaf } from './textPieces.js';

/** Facts of the page (`Capture.fields`), where the survey starts among frames, and whether some frame did not answer for its facts. */
export interface SurveyStart {
  fields: Map<string, ElementFacts>;
  at: FrameAt;
  unreadFrames?: boolean;
}

export function surveyTree(roots: Array<AriaNode | string>, { fields, at, unreadFrames }: SurveyStart): Survey {
  const survey: Survey = { nodes: new Map(), runs: new Map(), repeatedLinkNames: new Set() };
  const linkTargets = new Map<string, string>();
  const { nodes } = survey;
  // Elements above the node being surveyed that have a ref and a box: the clickables that may claim a box.
  const above: Array<{ known: NodeFacts; box: Box }> = [];
  // Facts are few: a box whose left edge no fact has is not looked up (its key is made only where needed).
  const lefts = new Set([...fields.keys()].map((key) => Number(key.slice(0, key.indexOf(',')))));
  /** An answer, and the answers under the claims that change it. */
  const claimed = <T>(known: NodeFacts, answer: (claim: string | undefined) => T): Claimed<T> => ({
    free: answer(undefined),
    under: known.claims && new Map([...known.claims].map((key) => [key, answer(key)])),
  });
  const addClaim = (known: NodeFacts, key: string) => (known.claims ??= new Set()).add(key);

  const surveyList = (list: Array<AriaNode | string>, frame: FrameAt, inReacting: boolean) => {
    for (const node of list) if (typeof node !== 'string') surveyNode(node, frame, inReacting);
    const cells = cellRun(list);
    if (!cells) return;
    survey.runs.set(list, { cells, rows: cellRows(cells), labels: new Map(cells.map((cell) => [cell, cellLabel(cell)])) });
    // A cell of a run is listed as a part when it is a target (outline.ts).
    for (const cell of cells) {
      const known = nodes.get(cell)!;
      known.part = claimed(known, (claim) => asPart(cell, claim, nodes));
    }
  };

  /** `inReacting`: below an element with a handler of its own, where items may be parts of a widget. */
  const surveyNode = (node: AriaNode, frame: FrameAt, inReacting: boolean) => {
    const { role } = node;
    const key = node.ref && node.box && lefts.has(Math.round(node.box.x)) ? boxKey(node.box) : undefined;
    const found = key ? fields.get(key) : undefined;
    const facts = found && ((role === 'group' && found.grouped) || !hasSameBoxChild(node, key!)) ? found : undefined;
    const known: NodeFacts = {
      key,
      facts,
      listed: !!node.ref && (LEAF_CONTROLS.has(role) || node.cursor === 'pointer'),
      below: { listed: false, keys: NONE },
      controlBelow: false,
      textLeaf: isTextLeaf(node),
      // Every field from the start: nodes of one shape are read fast.
      control: undefined,
      namedByContent: undefined,
      table: undefined,
      reaction: undefined,
      part: undefined,
      claims: undefined,
    };
    nodes.set(node, known);
    if (role === 'link' && node.name) {
      const url = node.url ?? '';
      const seen = linkTargets.get(node.name);
      if (seen !== undefined && seen !== url) survey.repeatedLinkNames.add(node.name);
      linkTargets.set(node.name, url);
    }
    // A clickable above with the same box, once listed, takes the facts: this node's answers, and those of
    // everything between, may then differ.
    if (facts && above.some((outer) => (outer.known.key ??= boxKey(outer.box)) === key)) {
      addClaim(known, key!);
      if (facts.clickable) for (const outer of above) addClaim(outer.known, key!);
    }
    const claims = !!node.ref && !!node.box;
    if (claims) above.push({ known, box: node.box! });
    const inner = role === 'iframe' && node.box ? { offsetX: frame.offsetX + node.box.x, offsetY: frame.offsetY + node.box.y, maskUnknownValues: unreadFrames } : frame;
    surveyList(node.children ?? [], inner, inReacting || !!facts?.clickable);
    if (claims) above.pop();

    for (const child of node.children ?? []) {
      if (typeof child === 'string') continue;
      const below = nodes.get(child)!;
      known.below.listed ||= below.listed || below.below.listed;
      if (below.facts?.clickable) addKey(known.below, below.key!);
      for (const key of below.below.keys) addKey(known.below, key);
      known.controlBelow ||= (!!child.ref && LEAF_CONTROLS.has(child.role)) || below.controlBelow;
    }
    if (node.ref && (LEAF_CONTROLS.has(role) || COMPOSITE_CONTROLS.has(role))) known.control = controlSay(node, fields, frame);
    // Asked only of a control around others (outline.ts's wrapper): one with something listed below it.
    if (node.ref && LEAF_CONTROLS.has(role) && node.name && (known.below.listed || known.below.keys.length)) known.namedByContent = namedByContent(node);
    if (TABLE_ROLES.has(role)) known.table = readTable(node, fields, nodes);
    if (node.ref && (facts?.clickable || node.cursor === 'pointer')) {
      const parts = !!facts?.clickable && holdsParts(node);
      known.reaction = claimed(known, (claim) => reaction(node, claim, nodes, parts));
    }
    if (node.ref && ITEM_ROLES.has(role) && inReacting) known.part = claimed(known, (claim) => asPart(node, claim, nodes));
  };

  surveyList(roots, at, false);
  return survey;
}

const NONE: string[] = [];

/** Box keys of what reacts below a node: two tell that one of them is left whatever the claim. */
function addKey(below: NodeFacts['below'], key: string): void {
  if (below.keys.length < 2 && !below.keys.includes(key)) below.keys = [...below.keys, key];
}

function hasSameBoxChild(node: AriaNode, key: string): boolean {
  return (node.children ?? []).some((child) => typeof child !== 'string' && !!child.box && boxKey(child.box) === key);
}
