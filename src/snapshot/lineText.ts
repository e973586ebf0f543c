/**
 * Controls: the one line written for an element the agent acts on: ref, role, name (or icon hint), value,
 * states and link target.
 */
import { boxKey, type AriaNode, type ElementFacts } from './tree.js';
import { editableKey } from './editables.js';
import { collectText, quote, shownWhole, truncate } from './text.js';
import type { WalkContext } from './line.js';

const VALUE_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'slider']);
const URL_LIMIT = 60;
const URL_NAME_LIMIT = 45;

export function factsOf(node: AriaNode, ctx: WalkContext): ElementFacts | undefined {
  return node.box ? ctx.fields.get(boxKey(node.box)) : undefined;
}

/** An editing host's facts (editables.ts), keyed by its box in the page's coordinates: frames' bodies often share their own. */
function editableFacts(node: AriaNode, ctx: WalkContext): ElementFacts | undefined {
  return node.box && node.role === 'textbox' ? ctx.fields.get(editableKey(node.box.x + ctx.offsetX, node.box.y + ctx.offsetY, node.box.width, node.box.height)) : undefined;
}

/** A link target, cut at URL_LIMIT except in a `ref` snapshot (no text limit there): that is where it is read whole. */
function shortUrl(url: string, base: URL | undefined, whole: boolean): string {
  return whole ? siteUrl(url, base) : truncate(siteUrl(url, base), URL_LIMIT);
}

/** A URL as the model reads it: a path on this site, "#part" in this page, else without scheme and "www.". */
function siteUrl(url: string, base: URL | undefined): string {
  let shown = url;
  try {
    const resolved = new URL(url, base);
    // A link into this very page says only where in it ("#top"), or nothing for a bare "#" (a script's link).
    if (base && resolved.origin === base.origin && resolved.pathname === base.pathname && resolved.search === base.search) shown = resolved.hash.length > 1 ? resolved.hash : '';
    else if (base && resolved.origin === base.origin) shown = resolved.pathname + resolved.search + resolved.hash;
    else shown = /^https?:$/.test(resolved.protocol) ? resolved.href.replace(/^https?:\/\/(www\.)?/, '') : resolved.href;
  } catch {
    // keep what the page wrote
  }
  return shown;
}

/**
 * A link with no name is named by its target, told apart by host and file rather than by tracking
 * parameters: "medium.com/backchannel" for "medium.com/backchannel?source=logo-…", and the host and the last
 * segment of a long path ("1.bp.blogspot.com/…/greenpak.png"). Its `ref` snapshot prints the whole target.
 */
function urlName(target: string): string {
  const [path = '', query] = target.split(/[?#]/, 2);
  const base = query !== undefined && path && !/\/$/.test(path) ? path : target;
  if (base.length <= URL_NAME_LIMIT) return base;
  const parts = base.split('/').filter(Boolean);
  const last = parts[parts.length - 1] ?? '';
  return parts.length > 2 ? `${parts[0]}/…/${truncate(last, URL_NAME_LIMIT - parts[0]!.length - 3)}` : truncate(base, URL_NAME_LIMIT);
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
 * link apart (generic or repeated); nothing otherwise, not even for other sites (the name says where it goes
 * often enough, and `ref` snapshots print every target). `javascript:` targets say nothing and are never printed.
 */
function linkTarget(name: string, url: string, target: string, ctx: WalkContext): string | undefined {
  const mode = ctx.linkTargets ?? 'all';
  if (mode === 'none' || /^javascript:/i.test(url) || name === target) return undefined;
  if (!target || mode === 'all') return target || undefined;
  if (!name || GENERIC_LINK_NAMES.test(name.trim()) || ctx.repeatedLinkNames?.has(name)) return target;
  return undefined;
}

/** Link names shared by links that go to different places: there, the target tells them apart. */
export function repeatedLinkNames(nodes: Array<AriaNode | string>): Set<string> {
  const targets = new Map<string, string>();
  const repeated = new Set<string>();
  const visit = (list: Array<AriaNode | string>) => {
    for (const node of list) {
      if (typeof node === 'string') continue;
      if (node.role === 'link' && node.name) {
        const url = node.url ?? '';
        const seen = targets.get(node.name);
        if (seen !== undefined && seen !== url) repeated.add(node.name);
        targets.set(node.name, url);
      }
      if (node.children) visit(node.children);
    }
  };
  visit(nodes);
  return repeated;
}

/** The states of a node as words, in a fixed order. */
export function states(node: AriaNode, facts: ElementFacts | undefined, ctx: WalkContext): string[] {
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
  if (node.ref && ctx.newRefs?.has(node.ref)) out.push('new');
  return out;
}

export function controlLine(node: AriaNode, ctx: WalkContext): string {
  const editable = editableFacts(node, ctx);
  const facts = editable ? { ...factsOf(node, ctx), ...editable } : factsOf(node, ctx);
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
  const target = node.role === 'link' && node.url ? shortUrl(node.url, ctx.pageUrl, ctx.textLimit === Infinity) : undefined;
  if (!name && !facts?.icon && target) name = urlName(siteUrl(node.url!, ctx.pageUrl));

  const parts = [node.ref ?? '', node.role];
  if (name) parts.push(quote(truncate(name, ctx.nameLimit)));
  else if (facts?.icon) parts.push(`icon=${quote(facts.icon)}`);
  let rest = '';
  if (value) {
    if (facts?.password || facts?.secret || (!facts && ctx.maskUnknownValues)) parts.push('value="••••••"');
    else {
      // A field's value is content the agent may have to read to the end: whole, or counted with the call that shows it.
      const whole = shownWhole(value, ctx.textLimit, node.ref, !!facts?.multiline);
      parts.push(`value=${quote(whole.shown)}`);
      rest = whole.rest;
    }
  }
  if (node.role === 'combobox' && !node.text) {
    const options = countOptions(node);
    if (options) parts.push(`options=${options}`);
  }
  parts.push(...states(node, facts, ctx));
  const shown = target ? linkTarget(name, node.url!, target, ctx) : undefined;
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
export function clickableLine(node: AriaNode, kind: string, label: string, facts: ElementFacts | undefined, ctx: WalkContext): string {
  const toggle = kind === 'clickable' ? hiddenToggle(node) : undefined;
  const parts = [node.ref!, toggle?.role ?? kind];
  if (label) parts.push(quote(truncate(label, ctx.nameLimit)));
  else if (facts?.icon) parts.push(`icon=${quote(facts.icon)}`);
  const shown = toggle ? { ...node, checked: toggle.checked, disabled: toggle.disabled } : node;
  parts.push(...states({ ...shown, expanded: node.expanded ?? facts?.expanded }, facts && { state: facts.state }, ctx));
  return parts.join(' ');
}
