/**
 * Parser for this package's snapshot lines (docs/snapshot-format.md):
 *
 *   e23 textbox "Notes" value="…" required
 *   e5 menuitem > e6 link "Home"
 *   e9 button icon="trash"
 *   e13 table:
 *   # Heading
 *   - list item text
 *
 * and for `changes`, the same lines behind `+` (appeared), `~` (changed) or `-` (gone; left out here).
 * It is deliberately lenient (unknown words after a control are taken as states), because the format is
 * being reworked while this benchmark measures it.
 */
import { linkParents, View, type Item } from '../policy/view.js';

const JSON_STRING = '"(?:[^"\\\\]|\\\\.)*"';
// `e5 button "Share"`, or `e5, e9 button "Share"` for two that read the same (the first ref serves).
const CONTROL = /^((?:f\d+)?e\d+)(?:, (?:f\d+)?e\d+)* ([a-z][\w-]*)(.*)$/;
// `e5 menuitem > e6 link "Home"`: a control wrapped in another that reacts.
const WRAPPER = /^((?:f\d+)?e\d+) ([a-z][\w-]*) > (.*)$/;
const SECTION_NO_REF = new RegExp(`^([a-z][\\w-]*)(?: (${JSON_STRING}))?:$`);
const META = /^(page |scroll: |whole page in view$|(above|below)( \d+px)?(:|$)|\[cut |! )/;
const SECTION_ROLES = new Set([
  'dialog', 'alertdialog', 'iframe', 'navigation', 'form', 'search', 'menu', 'menubar', 'tablist', 'tree', 'table',
  'grid', 'banner', 'contentinfo', 'complementary', 'region', 'list', 'group', 'main', 'article', 'row', 'rowgroup',
]);

function parseJson(text: string): string {
  try {
    return JSON.parse(text) as string;
  } catch {
    return text.slice(1, -1);
  }
}

/** The part of a control line after the role: name, icon, value, options, states, link target. */
function parseRest(rest: string): Pick<Item, 'name' | 'value' | 'icon' | 'states'> {
  let remaining = rest.replace(/:$/, '');
  const take = (pattern: RegExp): string | undefined => {
    const match = pattern.exec(remaining);
    if (!match) return undefined;
    remaining = remaining.slice(0, match.index) + remaining.slice(match.index + match[0].length);
    return match[1];
  };
  remaining = remaining.replace(/ -> \S+$/, '');
  const name = take(new RegExp(`^ (${JSON_STRING})`));
  const icon = take(new RegExp(` icon=(${JSON_STRING})`));
  const value = take(new RegExp(` value=(${JSON_STRING})`));
  take(/ options=(\d+)/);
  const states = remaining.split(' ').filter((word) => /^[a-z][\w-]*$/.test(word));
  return {
    name: name ? parseJson(name) : '',
    icon: icon ? parseJson(icon) : undefined,
    value: value !== undefined ? parseJson(value) : undefined,
    states,
  };
}

type RawItem = Omit<Item, 'index' | 'parent'>;

const CELL_STATES = 'sorted ascending|sorted descending|in range|range start|range end|other month|selected|disabled|today|checked|pressed|expanded|collapsed|focused|new';

/** One cell of a table row: text, control lines (`e16 button "Buy"`), or a cell that reacts (`e12 "15"`). */
function cellItems(cell: string, role: string, depth: number): RawItem[] {
  // A reacting cell may say its state after its label: `e12 "15" selected`, `e29 "Price" sorted descending`.
  const reacting = new RegExp(`^((?:f\\d+)?e\\d+) (${JSON_STRING})((?: (?:${CELL_STATES}))*)$`).exec(cell);
  if (reacting) {
    const states = reacting[3]!.trim() ? [...reacting[3]!.matchAll(new RegExp(CELL_STATES, 'g'))].map((m) => m[0]) : [];
    return [{ ref: reacting[1], role, name: parseJson(reacting[2]!), text: '', states, depth }];
  }
  // Where each control's line starts: a ref followed by a role word.
  const starts = [...cell.matchAll(/(?:^| )(?=(?:f\d+)?e\d+ [a-z])/g)].map((m) => m.index! + (m[0] ? 1 : 0));
  if (!starts.length) return [{ role, name: cell, text: '', states: [], depth }];
  const words = [cell.slice(0, starts[0]).trim()];
  const controls: RawItem[] = [];
  starts.forEach((start, i) => {
    const control = CONTROL.exec(cell.slice(start, starts[i + 1] ?? cell.length).trim());
    if (!control) return;
    const item = { ref: control[1], role: control[2]!, text: '', depth: depth + 1, ...parseRest(control[3]!) };
    controls.push(item);
    words.push(item.name);
  });
  // The cell reads as its text with each control by its name, as a reader sees it.
  return [{ role, name: words.filter(Boolean).join(' '), text: '', states: [], depth }, ...controls];
}

/**
 * A table row as written (docs/snapshot-format.md): `| Kettle | 24.90 | e16 button "Buy" |`, with the row's
 * ref in front when the row reacts. The first row after a `table (N cols):` line is taken as the header.
 */
function rowItems(body: string, depth: number, header: boolean): RawItem[] | undefined {
  const match = /^(?:((?:f\d+)?e\d+) )?\| (.*) \|$/.exec(body);
  if (!match) return undefined;
  const cells = match[2]!.split(' | ').map((cell) => cell.trim());
  const row: RawItem = { ref: match[1], role: 'row', name: '', text: '', states: [], depth };
  return [row, ...cells.flatMap((cell) => cellItems(cell, header ? 'columnheader' : 'cell', depth + 1))];
}

/** `partial`: the view shows part of the page; `diff`: its lines are a diff's (`+`, `~`, `-`). */
export function parseOurs(text: string, source: string, partial = false, diff = partial): View {
  const raw: RawItem[] = [];
  let tableStarts = false;
  for (let line of text.split('\n')) {
    if (diff) {
      const op = line[0];
      if (op === '-') continue; // gone from the page
      if (op === '+' || op === '~') line = line.slice(2);
    }
    if (!line.trim()) continue;
    const depth = line.length - line.trimStart().length;
    const body = line.trim();
    if (depth === 0 && META.test(body)) {
      raw.push({ role: 'meta', name: '', text: body, states: [], depth });
      continue;
    }
    const row = body.startsWith('|') || /^(?:f\d+)?e\d+ \| /.test(body) ? rowItems(body, depth, tableStarts) : undefined;
    tableStarts = / \(\d+ cols?(?:, [^)]*)?\):$/.test(body);
    if (row) {
      raw.push(...row);
      continue;
    }
    const wrapper = WRAPPER.exec(body);
    const inner = wrapper && CONTROL.exec(wrapper[3]!);
    if (wrapper && inner) {
      raw.push({ ref: wrapper[1], role: wrapper[2]!, name: '', text: '', states: [], depth });
      raw.push({ ref: inner[1], role: inner[2]!, text: '', depth: depth + 1, ...parseRest(inner[3]!) });
      continue;
    }
    const control = CONTROL.exec(body);
    if (control) {
      raw.push({ ref: control[1], role: control[2]!, text: '', depth, ...parseRest(control[3]!) });
      continue;
    }
    const section = SECTION_NO_REF.exec(body);
    if (section && SECTION_ROLES.has(section[1]!)) {
      raw.push({ role: section[1]!, name: section[2] ? parseJson(section[2]) : '', text: '', states: [], depth });
      continue;
    }
    const heading = /^#{1,6} (.*)$/.exec(body);
    if (heading) {
      raw.push({ role: 'heading', name: heading[1]!, text: '', states: [], depth });
      continue;
    }
    const listItem = /^- (.*)$/.exec(body);
    if (listItem) {
      // "- … 12 more items (browser_snapshot ref e40 lists them)" is a hint, not page text.
      const hint = /^… \d+ more/.test(listItem[1]!);
      raw.push({ role: hint ? 'meta' : 'listitem', name: '', text: listItem[1]!, states: [], depth });
      continue;
    }
    raw.push({ role: body.startsWith('…') ? 'meta' : 'text', name: '', text: body, states: [], depth });
  }
  return new View(linkParents(raw), source, partial);
}
