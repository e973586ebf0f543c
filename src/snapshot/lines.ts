/**
 * Lines: walks a captured aria tree and turns each element worth showing into one line of the snapshot
 * format (docs/snapshot-format.md), with its position, priority and kind. Choosing which lines to show, and
 * the budget, is format.ts's job.
 */
import { boxKey, type AriaNode, type Box, type Capture, type FieldFacts } from './capture.js';

/** Roles an agent acts on directly; their own children are not listed (their text is the name). */
export const LEAF_CONTROLS = new Set([
  'button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton',
  'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'gridcell', 'columnheader', 'rowheader',
]);
/** Interactive roles that hold other interactive elements: listed, then their children. */
const COMPOSITE_CONTROLS = new Set(['treeitem', 'listbox']);
/** Containers worth a header line so the model knows where a control sits. */
const SECTIONS = new Set([
  'dialog', 'alertdialog', 'iframe', 'navigation', 'form', 'search', 'menu', 'menubar', 'tablist', 'tree', 'table', 'grid', 'banner', 'contentinfo', 'complementary', 'region',
]);
export const MODAL_ROLES = new Set(['dialog', 'alertdialog']);
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'slider']);
const TEXT_LIMIT = 80;
const HEADING_LIMIT = 100;
export const NAME_LIMIT = 100;
const URL_LIMIT = 60;

/** Value of lines when the budget forces a cut: lower goes first. */
export const Priority = { Text: 0, Section: 1, Heading: 2, Control: 3 } as const;
export type Priority = (typeof Priority)[keyof typeof Priority];

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
  /** Section headers are kept only when something inside them is kept. */
  sectionEnd?: number;
  /** The element's box in its own frame, to match facts collected in the page. */
  boxKey?: string;
  /** Ref of the nearest enclosing element that has one, for "expand with ref" hints. */
  container?: string;
}

export interface WalkContext {
  depth: number;
  /** Offset from frame coordinates to page viewport coordinates. */
  offsetX: number;
  offsetY: number;
  /** Inside an element with cursor:pointer already listed as clickable. */
  inClickable: boolean;
  fields: Map<string, FieldFacts>;
  /** Frame-local boxes are matched against field facts; main-frame and frame boxes share the map. */
  pageUrl: URL | undefined;
  newRefs?: Set<string>;
  container?: string;
  /**
   * Which link targets to print. `all`: every one (subtrees, find). `useful`: where the name alone does not
   * tell links apart (generic or repeated names) or the link leaves the site. `none`: whole-page listings.
   */
  linkTargets?: 'all' | 'useful' | 'none';
  /** Link names used by more than one link on the page. */
  repeatedLinkNames?: Set<string>;
}

export function truncate(text: string, limit: number): string {
  // Normalise only what can be shown: page text can run to many kilobytes.
  const clean = (text.length > limit * 4 ? text.slice(0, limit * 4) : text).replace(/\s+/g, ' ').trim();
  return clean.length > limit ? `${clean.slice(0, limit - 1)}…` : clean;
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

function shortUrl(url: string, base: URL | undefined): string {
  let shown = url;
  try {
    const resolved = new URL(url, base);
    if (base && resolved.origin === base.origin) shown = resolved.pathname + resolved.search + resolved.hash;
    else shown = /^https?:$/.test(resolved.protocol) ? resolved.href.replace(/^https?:\/\/(www\.)?/, '') : resolved.href;
  } catch {
    // keep what the page wrote
  }
  return truncate(shown, URL_LIMIT);
}

const controlInside = new WeakMap<AriaNode, boolean>();

/** Whether a control with a ref sits somewhere below `node` (memoised: asked of many nested containers). */
function hasRefDescendant(node: AriaNode): boolean {
  const known = controlInside.get(node);
  if (known !== undefined) return known;
  let found = false;
  for (const child of node.children ?? []) {
    if (typeof child === 'string') continue;
    if ((child.ref && LEAF_CONTROLS.has(child.role)) || hasRefDescendant(child)) {
      found = true;
      break;
    }
  }
  controlInside.set(node, found);
  return found;
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

const GENERIC_LINK_NAMES = /^(more|read more|see more|learn more|more info|details|here|click here|link|next|previous|prev|back|continue|download|open|view|view all|see all|show all|edit|reply|share|comment|comments|\d+|\[\d+\]|»|›|→|…)$/i;

/**
 * The target to print after `->`, or undefined. In `useful` mode: the path when the name does not tell the
 * link apart (generic or repeated), the host alone when the link leaves the site, nothing otherwise.
 * `javascript:` targets say nothing and are never printed.
 */
function linkTarget(name: string, url: string, target: string, ctx: WalkContext): string | undefined {
  const mode = ctx.linkTargets ?? 'all';
  if (mode === 'none' || /^javascript:/i.test(url) || name === target) return undefined;
  if (mode === 'all') return target;
  if (!name || GENERIC_LINK_NAMES.test(name.trim()) || ctx.repeatedLinkNames?.has(name)) return target;
  try {
    const resolved = new URL(url, ctx.pageUrl);
    if (ctx.pageUrl && resolved.host !== ctx.pageUrl.host && /^https?:$/.test(resolved.protocol)) {
      return resolved.host.replace(/^www\./, '') + (resolved.pathname.length > 1 ? '/…' : '');
    }
  } catch {
    // an unparsable href: nothing useful to say
  }
  return undefined;
}

export function repeatedLinkNames(nodes: Array<AriaNode | string>): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  const visit = (list: Array<AriaNode | string>) => {
    for (const node of list) {
      if (typeof node === 'string') continue;
      if (node.role === 'link' && node.name) {
        if (seen.has(node.name)) repeated.add(node.name);
        seen.add(node.name);
      }
      if (node.children) visit(node.children);
    }
  };
  visit(nodes);
  return repeated;
}

function controlLine(node: AriaNode, ctx: WalkContext): string {
  const facts = node.box ? ctx.fields.get(boxKey(node.box)) : undefined;
  let name = node.name ?? '';
  let value: string | undefined;
  if (VALUE_ROLES.has(node.role)) {
    value = node.text;
  } else if (node.role === 'combobox') {
    const selected = selectedOptions(node);
    value = selected.length ? selected.join(', ') : node.text;
  } else if (!name) {
    // Playwright leaves the name out when the children spell it (an image's alt, a heading inside a link).
    name = node.text || collectText(node);
  }
  const target = node.role === 'link' && node.url ? shortUrl(node.url, ctx.pageUrl) : undefined;
  if (!name && !facts?.icon && target) name = target;

  const parts = [node.ref ?? '', node.role];
  if (name) parts.push(quote(truncate(name, NAME_LIMIT)));
  else if (facts?.icon) parts.push(`icon=${quote(facts.icon)}`);
  if (value) parts.push(`value=${quote(facts?.password || facts?.secret ? '••••••' : truncate(value, NAME_LIMIT))}`);
  if (node.role === 'combobox' && !node.text) {
    const options = countOptions(node);
    if (options) parts.push(`options=${options}`);
  }
  if (node.checked === true) parts.push('checked');
  if (node.checked === 'mixed') parts.push('mixed');
  if (node.pressed === true) parts.push('pressed');
  if (node.selected) parts.push('selected');
  const expanded = node.expanded ?? facts?.expanded;
  if (expanded === true) parts.push('expanded');
  if (expanded === false) parts.push('collapsed');
  if (node.disabled) parts.push('disabled');
  if (facts?.required) parts.push('required');
  if (facts?.readonly) parts.push('readonly');
  if (facts?.password) parts.push('password');
  if (node.active) parts.push('focused');
  if (node.ref && ctx.newRefs?.has(node.ref)) parts.push('new');
  const shown = target ? linkTarget(name, node.url!, target, ctx) : undefined;
  if (shown) parts.push(`-> ${shown}`);
  return parts.join(' ');
}

/** Gives a new line its position; mutates the fresh object rather than copying it (hot path on big pages). */
function placed(line: Line, box: Box | undefined, ctx: WalkContext): Line {
  line.container = ctx.container;
  if (!box || (box.width === 0 && box.height === 0)) return line;
  line.left = box.x + ctx.offsetX;
  line.top = box.y + ctx.offsetY;
  line.right = line.left + box.width;
  line.bottom = line.top + box.height;
  line.boxKey = `${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)},${Math.round(box.height)}`;
  return line;
}

export function walk(nodes: Array<AriaNode | string>, ctx: WalkContext, out: Line[], parentBox?: Box): void {
  let textRun = '';
  // Label text next to its control repeats the control's name: say it once.
  const siblingNames = new Set<string>();
  for (const node of nodes) if (typeof node !== 'string' && node.ref && LEAF_CONTROLS.has(node.role) && node.name) siblingNames.add(node.name);
  const flushText = () => {
    const text = truncate(textRun, TEXT_LIMIT);
    textRun = '';
    if (siblingNames.has(text)) return;
    if (text.length > 1) out.push(placed({ text, depth: ctx.depth, priority: Priority.Text, kind: 'text' }, parentBox, ctx));
  };

  for (const node of nodes) {
    if (typeof node === 'string') {
      textRun += ` ${node}`;
      continue;
    }
    flushText();
    const { role } = node;

    if (role === 'heading') {
      const level = Math.min(node.level ?? 2, 6);
      const name = node.name || node.text || '';
      if (name) out.push(placed({ text: `${'#'.repeat(level)} ${truncate(name, HEADING_LIMIT)}`, depth: ctx.depth, priority: Priority.Heading, kind: 'heading' }, node.box, ctx));
      // A heading can hold a link; list it so it stays reachable.
      if (hasRefDescendant(node)) walk(node.children ?? [], ctx, out, node.box);
      continue;
    }

    // A wrapper role (a menuitem around a link) with no name of its own: list what is inside instead.
    if (node.ref && LEAF_CONTROLS.has(role) && !node.name && hasRefDescendant(node)) {
      walk(node.children ?? [], { ...ctx, container: node.ref }, out, node.box);
      continue;
    }
    if (node.ref && (LEAF_CONTROLS.has(role) || COMPOSITE_CONTROLS.has(role))) {
      out.push(placed({ text: controlLine(node, ctx), depth: ctx.depth, priority: Priority.Control, kind: role, ref: node.ref }, node.box, ctx));
      if (COMPOSITE_CONTROLS.has(role)) walk(node.children ?? [], { ...ctx, depth: ctx.depth + 1 }, out, node.box);
      continue;
    }

    if (LEAF_CONTROLS.has(role) && !node.ref) continue; // not visible or not receiving pointer events

    if (role === 'iframe' || SECTIONS.has(role)) {
      // The ref lets the model expand the section (browser_snapshot ref) or scroll inside it.
      const header = `${node.ref ? `${node.ref} ` : ''}${role}${node.name ? ` ${quote(truncate(node.name, NAME_LIMIT))}` : ''}:`;
      const index = out.length;
      out.push(placed({ text: header, depth: ctx.depth, priority: MODAL_ROLES.has(role) ? Priority.Control : Priority.Section, kind: role, ref: node.ref }, node.box, ctx));
      const inner: WalkContext =
        role === 'iframe' && node.box
          ? { ...ctx, depth: ctx.depth + 1, offsetX: ctx.offsetX + node.box.x, offsetY: ctx.offsetY + node.box.y, container: node.ref ?? ctx.container }
          : { ...ctx, depth: ctx.depth + 1, container: node.ref ?? ctx.container };
      walk(node.children ?? [node.text ?? ''], inner, out, node.box);
      out[index]!.sectionEnd = out.length;
      continue;
    }

    // Elements that are not controls but look clickable (cursor:pointer) still get a ref,
    // unless something inside them is a real control or an ancestor was already listed.
    // Facts are keyed by box; a wrapper exactly as big as its child (a closed <details> around its <summary>)
    // leaves the fact to the child, which is the element it was collected from.
    const facts = node.ref && node.box && !hasSameBoxChild(node) ? ctx.fields.get(boxKey(node.box)) : undefined;
    const hinted = facts?.clickable;
    if (node.ref && (node.cursor === 'pointer' || hinted) && !ctx.inClickable && !hasRefDescendant(node)) {
      const label = node.name || node.text || collectText(node);
      if (label) {
        const kind = hinted === 'drag' ? 'draggable' : 'clickable';
        const state = facts?.expanded === undefined ? '' : facts.expanded ? ' expanded' : ' collapsed';
        out.push(placed({ text: `${node.ref} ${kind} ${quote(truncate(label, NAME_LIMIT))}${state}`, depth: ctx.depth, priority: Priority.Control, kind, ref: node.ref }, node.box, ctx));
        continue;
      }
    }

    if (role === 'img') {
      if (node.name) out.push(placed({ text: `img ${quote(truncate(node.name, NAME_LIMIT))}`, depth: ctx.depth, priority: Priority.Text, kind: 'img' }, node.box, ctx));
      continue;
    }

    if (node.text && !node.children?.length) {
      const text = truncate(node.text, TEXT_LIMIT);
      const prefix = role === 'listitem' ? '- ' : '';
      if (text.length > 1) out.push(placed({ text: prefix + text, depth: ctx.depth, priority: Priority.Text, kind: 'text' }, node.box, ctx));
      continue;
    }
    // cursor:pointer is inherited: below a clickable container, only real controls get a line.
    const inner = node.ref ? { ...ctx, container: node.ref } : ctx;
    walk(node.children ?? [], node.cursor === 'pointer' && node.ref ? { ...inner, inClickable: true } : inner, out, node.box);
  }
  flushText();
}

function hasSameBoxChild(node: AriaNode): boolean {
  const key = node.box && boxKey(node.box);
  return (node.children ?? []).some((child) => typeof child !== 'string' && !!child.box && boxKey(child.box) === key);
}

function collectText(node: AriaNode): string {
  const parts: string[] = [];
  // Logos often repeat the same alt text in several images; say it once.
  const push = (text: string) => {
    if (text.trim() && parts[parts.length - 1] !== text) parts.push(text);
  };
  const visit = (n: AriaNode | string) => {
    if (typeof n === 'string') push(n);
    else {
      if (n.name) push(n.name);
      else if (n.text) push(n.text);
      else (n.children ?? []).forEach(visit);
    }
  };
  (node.children ?? []).forEach(visit);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

export function findSubtree(nodes: Array<AriaNode | string>, ref: string): AriaNode | undefined {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref === ref) return node;
    const found = findSubtree(node.children ?? [], ref);
    if (found) return found;
  }
  return undefined;
}

/** Offset of a node inside iframes, so a subtree's boxes land in page coordinates. */
export function frameOffset(nodes: Array<AriaNode | string>, ref: string, x = 0, y = 0): { x: number; y: number } | undefined {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref === ref) return { x, y };
    const inner = node.role === 'iframe' && node.box ? { x: x + node.box.x, y: y + node.box.y } : { x, y };
    const found = frameOffset(node.children ?? [], ref, inner.x, inner.y);
    if (found) return found;
  }
  return undefined;
}

export function rootContext(capture: Capture): WalkContext {
  let pageUrl: URL | undefined;
  try {
    pageUrl = new URL(capture.url);
  } catch {
    pageUrl = undefined;
  }
  return { depth: 0, offsetX: 0, offsetY: 0, inClickable: false, fields: capture.fields, pageUrl };
}

/** Every line of the whole page, unindented, for comparing two captures of one document. */
export type PageLine = { text: string; ref?: string; kind: string };
const pageLinesOf = new WeakMap<Capture, PageLine[]>();

/** Memoised: each capture is the "after" of one action's diff and the "before" of the next. */
export function pageLines(capture: Capture): PageLine[] {
  let result = pageLinesOf.get(capture);
  if (!result) {
    const lines: Line[] = [];
    walk(capture.tree, rootContext(capture), lines);
    result = lines.filter((line) => line.sectionEnd === undefined || MODAL_ROLES.has(line.kind)).map(({ text, ref, kind }) => ({ text, ref, kind }));
    pageLinesOf.set(capture, result);
  }
  return result;
}

/** Every ref in the tree with its role and name, for resolving and re-finding elements. */
export function indexRefs(nodes: Array<AriaNode | string>, into = new Map<string, { role: string; name: string }>()) {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref) into.set(node.ref, { role: node.role, name: node.name || node.text || '' });
    indexRefs(node.children ?? [], into);
  }
  return into;
}

