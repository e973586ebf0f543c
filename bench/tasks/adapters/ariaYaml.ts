/**
 * Parser for Playwright-style aria snapshots, the YAML-like text both @playwright/mcp and
 * @mastra/agent-browser return:
 *
 *   - textbox "Notes" [ref=e23]: the value            (Playwright MCP)
 *   - cell "555-1234" @e2                              (agent-browser)
 *   - text: plain words
 *   - link "Next" [ref=e33] [cursor=pointer]:
 *     - /url: "#"
 */
import { linkParents, View, type Item } from '../policy/view.js';

const FIELD_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'slider']);

/** A double-quoted YAML/JSON string at the start of `text`: its value and length. */
function quoted(text: string): { value: string; length: number } | undefined {
  const match = /^"(?:[^"\\]|\\.)*"/.exec(text);
  if (!match) return undefined;
  try {
    return { value: JSON.parse(match[0]) as string, length: match[0].length };
  } catch {
    return { value: match[0].slice(1, -1), length: match[0].length };
  }
}

function unquote(text: string): string {
  const trimmed = text.trim();
  const q = quoted(trimmed);
  return q && q.length === trimmed.length ? q.value : trimmed;
}

function stateOf(attribute: string): string | undefined {
  const [key, value] = attribute.split('=');
  if (key === 'checked') return value === 'mixed' ? 'mixed' : value === 'false' ? undefined : 'checked';
  if (key === 'expanded') return value === 'false' ? 'collapsed' : 'expanded';
  if (key === 'pressed') return value === 'false' ? undefined : 'pressed';
  if (key === 'active') return 'focused';
  if (key === 'cursor') return 'pointer';
  if (key === 'selected' || key === 'disabled') return key;
  return undefined;
}

/**
 * An entry YAML had to single-quote (its text holds `{`, `: ` or the like): `'button "a: b" [ref=e5]':`
 * reads as `button "a: b" [ref=e5]:`.
 */
function singleQuoted(entry: string): string {
  const match = /^'((?:[^']|'')*)'(:?)/.exec(entry);
  return match ? `${match[1]!.replace(/''/g, "'")}${match[2]}${entry.slice(match[0].length)}` : entry;
}

export function parseAriaYaml(text: string, source: string, partial = false): View {
  const raw: Omit<Item, 'index' | 'parent'>[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\s*)- (.*)$/.exec(line);
    if (!match) continue;
    const depth = Math.floor(match[1]!.length / 2);
    let rest = singleQuoted(match[2]!);
    if (rest.startsWith('/')) continue; // properties such as /url and /placeholder
    if (rest.startsWith('text:')) {
      raw.push({ role: 'text', name: '', text: unquote(rest.slice(5)), states: [], depth });
      continue;
    }
    const roleMatch = /^[a-zA-Z][\w-]*/.exec(rest);
    if (!roleMatch) {
      raw.push({ role: 'text', name: '', text: unquote(rest.replace(/:$/, '')), states: [], depth });
      continue;
    }
    const role = roleMatch[0];
    rest = rest.slice(role.length);
    let name = '';
    if (rest.startsWith(' "')) {
      const q = quoted(rest.slice(1));
      if (q) {
        name = q.value;
        rest = rest.slice(1 + q.length);
      }
    }
    let ref: string | undefined;
    const states: string[] = [];
    for (;;) {
      const attribute = /^ \[([^\]]+)\]/.exec(rest);
      const atRef = /^ (@(?:f\d+)?e\d+)/.exec(rest);
      if (attribute) {
        const value = attribute[1]!;
        if (value.startsWith('ref=')) ref = value.slice(4);
        else {
          const state = stateOf(value);
          if (state) states.push(state);
        }
        rest = rest.slice(attribute[0].length);
      } else if (atRef) {
        ref = atRef[1];
        rest = rest.slice(atRef[0].length);
      } else break;
    }
    const inline = rest.startsWith(':') ? unquote(rest.slice(1)) : '';
    const item: Omit<Item, 'index' | 'parent'> = { ref, role, name, text: '', states, depth };
    if (FIELD_ROLES.has(role)) item.value = inline;
    else item.text = inline;
    raw.push(item);
  }
  const items = linkParents(raw);
  // A native select shows its options as children; its value is the selected one.
  for (const item of items) {
    if (item.role !== 'combobox' || item.value !== undefined) continue;
    const selected = items.find((option) => option.parent === item.index && option.role === 'option' && option.states.includes('selected'));
    if (selected) item.value = selected.name;
  }
  return new View(items, source, partial);
}
