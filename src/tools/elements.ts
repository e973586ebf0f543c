/**
 * A result's elements as data, for programs: a Code Mode program (`createCodeMode({ tools: browser.tools })`),
 * a workflow step, any caller of `execute()`. The model reads refs in the snapshot's text; a program would have
 * to parse that text, so each result that shows refs (a snapshot, an action's changes) also lists them as
 * `{ ref, role, name, value?, states? }`, in the order the text shows them. The list is read off the text the
 * model would read, so it holds nothing the text does not (passwords stay masked); the role and the whole name
 * come from the refs the session handed out. modelText.ts leaves the list out of what the model reads.
 */
import { z } from 'zod';
import type { Tab } from '../session/tab.js';

export const elementsSchema = z
  .array(
    z.object({
      ref: z.string(),
      role: z.string(),
      name: z.string(),
      value: z.string().optional(),
      states: z.array(z.string()).optional(),
    }),
  )
  .optional()
  .describe('For programs: the elements with a ref in this result, in the order of its text.');

export type ResultElement = NonNullable<z.infer<typeof elementsSchema>>[number];

/** The role and name the session knows a ref by. */
export type RefLookup = (ref: string) => { role: string; name: string } | undefined;

const REF = /(?:^|(?<=[\s|>,(]))((?:f\d+)?e\d+)(?=[\s,:]|$)/g;
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
/** After a ref: its role, then its name (or a cell's label). */
const HEAD = new RegExp(`^(?:f\\d+)?e\\d+(?: ([a-z][\\w-]*))?(?: (${QUOTED}))?`);
const VALUE = new RegExp(` value=(${QUOTED})`);
const STATES = ['checked', 'mixed', 'password', 'new', 'pressed', 'selected', 'expanded', 'collapsed', 'multiline', 'disabled', 'required', 'readonly', 'focused', 'today', 'in range', 'range start', 'range end', 'other month', 'sorted ascending', 'sorted descending'];
const STATE_WORDS = new RegExp(`(?<= )(${STATES.join('|')})(?= |$)`, 'g');

function parsed(quoted: string | undefined): string | undefined {
  if (quoted === undefined) return undefined;
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * The elements a text of refs shows (a snapshot, or changes with `+`/`~`/`-` in front; gone ones are left out).
 * A word that looks like a ref but names no element the session handed out is text, not a ref.
 */
export function elementsIn(text: string, lookup: RefLookup, into = new Map<string, ResultElement>()): Map<string, ResultElement> {
  for (const raw of text.split('\n')) {
    if (/^- (?:f\d+)?e\d+ /.test(raw)) continue; // a change line: gone from the page
    const line = raw.replace(/^[+~] /, '');
    const starts = [...line.matchAll(REF)].map((m) => m.index!);
    const segments = starts.map((start, i) => line.slice(start, starts[i + 1] ?? line.length));
    // `e5, e9 button "Share"`: twins read the same, so each takes the words of the one after it.
    for (let i = segments.length - 2; i >= 0; i--) {
      const twin = /^((?:f\d+)?e\d+), $/.exec(segments[i]!);
      if (twin) segments[i] = twin[1]! + segments[i + 1]!.replace(/^(?:f\d+)?e\d+/, '');
    }
    for (const segment of segments) {
      const ref = /^(?:f\d+)?e\d+/.exec(segment)![0];
      const known = lookup(ref);
      if (!known || into.has(ref)) continue;
      const head = HEAD.exec(segment);
      // The whole name when the text shows it (a long one is cut there); never one the text does not show.
      const name = known.name && line.includes(JSON.stringify(known.name)) ? known.name : (parsed(head?.[2]) ?? '');
      const element: ResultElement = { ref, role: known.role, name };
      const value = parsed(VALUE.exec(segment)?.[1]);
      if (value !== undefined) element.value = value;
      const states = [...segment.replace(new RegExp(QUOTED, 'g'), '""').matchAll(STATE_WORDS)].map((m) => m[1]!);
      if (states.length) element.states = [...new Set(states)];
      into.set(ref, element);
    }
  }
  return into;
}

/** The `elements` of a result: those its snapshot and changes show, when they show any. */
export function resultElements(data: Record<string, unknown>, lookup: RefLookup): { elements?: ResultElement[] } {
  const found = new Map<string, ResultElement>();
  for (const key of ['changes', 'snapshot']) {
    const text = data[key];
    if (typeof text === 'string' && text) elementsIn(text, lookup, found);
  }
  return found.size ? { elements: [...found.values()] } : {};
}

/** Looks a ref up among those the session handed out for its tabs' pages, the active tab's first. */
export function sessionRefs(tabs: Array<Pick<Tab, 'refs'> | undefined>): RefLookup {
  let known: Array<Map<string, { role: string; name: string }>> | undefined;
  return (ref) => {
    known ??= [...new Set(tabs)].flatMap((tab) => {
      const listed = tab?.refs.handedOut();
      return listed ? [new Map(listed.refs.map(([r, role, name]) => [r, { role, name }]))] : [];
    });
    for (const map of known) {
      const found = map.get(ref);
      if (found) return found;
    }
    return undefined;
  };
}
