/**
 * The common form of what a tool result shows of a page: a list of items (one per line of the system's
 * output), each with the ref the system gave it, if any. Adapters parse each system's text into this
 * form; policies only ever look at it, so the same policy runs on every system.
 */

export interface Item {
  index: number;
  /** The ref exactly as this system wants it back; undefined when the line has none. */
  ref?: string;
  /** ARIA role as printed (`button`, `cell`, `generic`, `clickable`), `text` for plain text, `meta` for headers. */
  role: string;
  /** The accessible name ('' when none). */
  name: string;
  /** Text shown with the item besides its name (inline text of a generic, a list item's words). */
  text: string;
  /** A field's value, when the system shows one. */
  value?: string;
  /** expanded, collapsed, checked, selected, disabled, ... (normalised across systems). */
  states: string[];
  /** A system's guess at an unnamed control's icon (ours: `icon="trash"`). */
  icon?: string;
  depth: number;
  /** Index of the enclosing item (by indentation), if any. */
  parent?: number;
}

export class View {
  constructor(
    readonly items: Item[],
    /** How the view was obtained, for traces: "snapshot", "changes", "read", ... */
    readonly source: string,
    /** True when the view shows only part of the page (changes after an action, a subtree, find). */
    readonly partial = false,
  ) {}

  /** What a reader takes as the item's words: its name, else its text. */
  static label(item: Item): string {
    return (item.name || item.text).trim();
  }

  /** All the words of the view, one item per line, for instruction and value regexes. */
  get text(): string {
    return this.items
      .map((item) => [item.name, item.text, item.value].filter(Boolean).join(' '))
      .filter(Boolean)
      .join('\n');
  }

  descendants(item: Item): Item[] {
    const out: Item[] = [];
    for (let i = item.index + 1; i < this.items.length; i++) {
      const other = this.items[i]!;
      if (other.depth <= item.depth) break;
      out.push(other);
    }
    return out;
  }

  /** The item and its descendants as words, e.g. a table row "Ada Smith ada@x.org Paris". */
  wordsOf(item: Item): string {
    return [item, ...this.descendants(item)].map((i) => [i.name, i.text].filter(Boolean).join(' ')).join(' ');
  }

  ancestors(item: Item): Item[] {
    const out: Item[] = [];
    let parent = item.parent;
    while (parent !== undefined) {
      const p = this.items[parent]!;
      out.push(p);
      parent = p.parent;
    }
    return out;
  }

  find(predicate: (item: Item) => boolean): Item | undefined {
    return this.items.find(predicate);
  }

  filter(predicate: (item: Item) => boolean): Item[] {
    return this.items.filter(predicate);
  }

  /** The first regex match over the view's words. */
  match(pattern: RegExp): RegExpMatchArray | undefined {
    return pattern.exec(this.text) ?? undefined;
  }
}

/** Builds items from lines with depth, linking each to the nearest shallower item before it. */
export function linkParents(items: Omit<Item, 'index' | 'parent'>[]): Item[] {
  const out: Item[] = [];
  const stack: Item[] = [];
  for (const raw of items) {
    const item: Item = { ...raw, index: out.length };
    while (stack.length && stack[stack.length - 1]!.depth >= item.depth) stack.pop();
    if (stack.length) item.parent = stack[stack.length - 1]!.index;
    stack.push(item);
    out.push(item);
  }
  return out;
}

/** A view of plain text (a read result): one text item per non-empty line. */
export function textView(text: string, source: string): View {
  const items = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => ({ role: 'text', name: '', text: line, states: [], depth: 0 }));
  return new View(linkParents(items), source, true);
}

export function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Name equality as a reader judges it: case, spacing and a trailing `*` or `:` do not matter. */
export function sameName(a: string, b: string): boolean {
  const clean = (s: string) => normalize(s).replace(/[\s*:]+$/, '');
  return clean(a) === clean(b);
}
