/**
 * Where a tool result's tokens go: each result the model reads is cut into lines, each line is put in one part
 * (the call's status, the page line, the scroll position, elements, text, changes, notices, loading lists,
 * errors, other fields), and each part's o200k tokens are counted. A line the model already read earlier in
 * the same episode is also counted as repeated: what a result could leave out without telling anything new.
 * One reader per system, since each writes its results its own way; none of them needs the system's code.
 * Lines are counted one by one with their line break; where their sum differs from the whole result's tokens (a
 * break merging with its neighbours, JSON escapes), the parts are scaled to add up to the whole.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

export const PARTS = ['status', 'page', 'position', 'elements', 'text', 'changes', 'notices', 'loading', 'error', 'other'] as const;
export type Part = (typeof PARTS)[number];

export const PART_LABELS: Record<Part, string> = {
  status: 'status: what the call did (clicked, typed, navigated, HTTP status, hints)',
  page: 'page line: title and URL',
  position: 'scroll position, counts above and below, cut notes',
  elements: 'elements: lines with a ref',
  text: 'text and structure: lines without a ref',
  changes: 'changes after an action (diff)',
  notices: 'notices (notes, console, events)',
  loading: 'loading lists (requests in flight)',
  error: 'errors and their hints',
  other: 'other fields (dialogs, downloads, tabs, file links)',
};

/**
 * Ways to cut ours' results that the breakdown can price on the text alone, tokens a result would save.
 * Each is an upper bound of what the cut saves, before what it must still say (see .planning/token-plan.md).
 */
export const CUTS = ['pageLineUnchanged', 'textRepeated', 'elementsRepeated', 'framePrefix', 'falseFields', 'callEcho'] as const;
export type Cut = (typeof CUTS)[number];

export const CUT_LABELS: Record<Cut, string> = {
  pageLineUnchanged: 'page line and `url:` when the address and title did not change since the last result',
  textRepeated: 'text lines the model already read in this episode',
  elementsRepeated: 'element lines the model already read in this episode, unchanged',
  framePrefix: 'the frame prefix of refs (`f3e12` written `e12`)',
  falseFields: 'fields that say no (`navigated: false`, `submitted: false`)',
  callEcho: 'the echo of the call (`clicked:`, `typedInto:`, `fieldValue:` equal to the typed text, `ref:`)',
};

export type Tally<K extends string> = Partial<Record<K, number>>;

/** One call as the breakdown keeps it: the tool (snapshots by kind), its tokens, and where they went. */
export interface CallTokens {
  tool: string;
  tokens: number;
  parts: Tally<Part>;
  /** Tokens of lines read before in the episode, by part. */
  repeated: Tally<Part>;
  /** Ours only: what each candidate cut would save on this result. */
  cuts?: Tally<Cut>;
}

interface Line {
  part: Part;
  text: string;
}

/** The tool as the reports name it: snapshots by kind (whole page, subtree, search, default). */
export function toolKey(call: string): string {
  const [tool = '', args = ''] = call.split(/ (.*)/);
  const kind = tool.endsWith('_snapshot')
    ? /"scope":"page"|"interactiveOnly":false|"ref"|"find"/.exec(args)?.[0]?.replace(/"/g, '')
    : /"key":"PageDown"/.test(args) ? 'PageDown' : undefined;
  return kind ? `${tool} {${kind}}` : tool;
}

const REF = /(?:^|[\s|>,(@\[=])(?:f\d+)?e\d+\b/;

// ---- this package: plain text from toModelOutput (src/tools/modelText.ts) ----------------------------------

/** Short fields of ours that name the page rather than the call. */
const OURS_PAGE_FIELDS = new Set(['url', 'title']);
const OURS_OTHER_FIELDS = new Set(['newTab', 'dialogs', 'downloads', 'invalidFields', 'tabs']);
/** Fields written as a block under their label: what part the block is. */
const OURS_BLOCKS: Record<string, Part> = {
  changes: 'changes',
  snapshot: 'elements',
  cameIntoView: 'elements',
  markdown: 'text',
  text: 'text',
  loading: 'loading',
  dialogs: 'other',
  downloads: 'other',
  invalidFields: 'other',
  tabs: 'other',
};
const OURS_POSITION = /^(scroll: |whole page in view$|(above|below)( \d+px)?(:|$)|beside: |still loading, |\[cut |! |- … \d+ more|… \d+ more)/;

function oursLines(sent: string): Line[] {
  const lines: Line[] = [];
  let block: Part | 'snapshot' | undefined;
  for (const text of sent.split('\n')) {
    if (block === undefined) {
      if (text.startsWith('note: ')) {
        lines.push({ part: 'notices', text });
        continue;
      }
      if (/^error [a-z_]+ \((not )?retryable\): /.test(text) || text.startsWith('hint: ')) {
        lines.push({ part: 'error', text });
        continue;
      }
    }
    // A snapshot's first line: `page "Title" URL` (or `page URL` for a page without a title).
    if (/^page ("|[a-z][\w+.-]*:)/.test(text)) {
      lines.push({ part: 'page', text });
      block = 'snapshot';
      continue;
    }
    const label = /^([A-Za-z]+):$/.exec(text);
    if (label && OURS_BLOCKS[label[1]!]) {
      const part = OURS_BLOCKS[label[1]!]!;
      block = part === 'elements' ? 'snapshot' : part;
      lines.push({ part: part === 'elements' ? 'page' : part, text });
      continue;
    }
    if (block === undefined) {
      const field = /^([A-Za-z]+): /.exec(text);
      if (field) {
        const key = field[1]!;
        lines.push({ part: OURS_PAGE_FIELDS.has(key) ? 'page' : key === 'loading' ? 'loading' : OURS_OTHER_FIELDS.has(key) ? 'other' : 'status', text });
        continue;
      }
      // An error's snapshot, or a result that is a snapshot alone.
      block = 'snapshot';
    }
    if (block === 'snapshot') {
      const body = text.trimStart();
      lines.push({ part: OURS_POSITION.test(body) ? 'position' : REF.test(` ${body}`) ? 'elements' : 'text', text });
    } else lines.push({ part: block, text });
  }
  return lines;
}

// ---- @playwright/mcp: markdown sections ---------------------------------------------------------------------

/** Roles a model acts on: a line of one of these with a ref counts as an element; other lines as text and structure. */
const CONTROL_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'tab', 'treeitem', 'slider', 'spinbutton', 'switch', 'gridcell', 'cell', 'row', 'columnheader', 'rowheader',
  'clickable', 'img', 'textarea', 'select',
]);

function yamlLinePart(text: string): Part {
  const role = /^\s*- (?:\/)?([a-z]+)/.exec(text)?.[1];
  const hasRef = /\[ref=[^\]]+\]|@e\d+\b|\[@?e\d+\]/.test(text);
  return hasRef && role && CONTROL_ROLES.has(role) ? 'elements' : 'text';
}

function pwLines(sent: string): Line[] {
  const lines: Line[] = [];
  let section = '';
  let inYaml = false;
  for (const text of sent.split('\n')) {
    const heading = /^### (.*)$/.exec(text);
    if (heading) {
      section = heading[1]!;
      inYaml = false;
    }
    let part: Part;
    switch (section) {
      case 'Ran Playwright code':
        part = 'status';
        break;
      case 'Page':
        part = /^- (Console|Console messages)/.test(text) ? 'notices' : heading ? 'page' : 'page';
        break;
      case 'Snapshot':
        if (text.startsWith('```yaml')) inYaml = true;
        else if (text.startsWith('```')) inYaml = false;
        part = inYaml && !text.startsWith('```') ? yamlLinePart(text) : /\[Snapshot\]\(/.test(text) ? 'other' : 'elements';
        break;
      case 'Events':
      case 'New console messages':
      case 'Console messages':
        part = 'notices';
        break;
      case 'Error':
        part = 'error';
        break;
      case 'Result':
        part = 'text';
        break;
      default:
        part = 'other';
    }
    lines.push({ part, text });
  }
  // A section's heading and fences count with what they frame.
  for (let i = lines.length - 2; i >= 0; i--) if (/^(### |```)/.test(lines[i]!.text)) lines[i]!.part = lines[i + 1]!.part;
  return lines;
}

// ---- @mastra/agent-browser: the JSON of each result -----------------------------------------------------------

function mabLines(sent: string): Line[] {
  let object: Record<string, unknown>;
  try {
    object = JSON.parse(sent) as Record<string, unknown>;
  } catch {
    return sent.split('\n').map((text) => ({ part: 'other' as Part, text }));
  }
  if (typeof object !== 'object' || object === null) return [{ part: 'other', text: sent }];
  const lines: Line[] = [];
  for (const [key, value] of Object.entries(object)) {
    const piece = `${JSON.stringify(key)}:${JSON.stringify(value)},`;
    if (key === 'snapshot' && typeof value === 'string') {
      lines.push({ part: 'elements', text: `${JSON.stringify(key)}:"` });
      // Each snapshot line as it stands in the JSON (escaped), with its `\n`.
      for (const line of value.split('\n')) lines.push({ part: yamlLinePart(line), text: `${JSON.stringify(line).slice(1, -1)}\\n` });
      continue;
    }
    const part: Part =
      key === 'url' || key === 'title' ? 'page'
      : key === 'scroll' ? 'position'
      : key === 'error' || ((key === 'message' || key === 'code') && object.success === false) ? 'error'
      : key === 'success' || key === 'hint' || key === 'value' || key === 'elementCount' ? 'status'
      : 'other';
    lines.push({ part, text: piece });
  }
  return lines;
}

// ---- counting -----------------------------------------------------------------------------------------------

const READERS: Record<string, (sent: string) => Line[]> = {
  ours: oursLines,
  'playwright-mcp': pwLines,
  'mastra-agent-browser': mabLines,
};

/** What the model has read so far in an episode: every line, and the last page line and address. */
export class EpisodeMemory {
  readonly lines = new Set<string>();
  page: string | undefined;
  url: string | undefined;
}

function tokensOf(text: string): number {
  return text ? countTokens(text) : 0;
}

/** The breakdown of one result; `memory` is what the model read earlier in the episode, and learns this result. */
export function breakdownOf(system: string, call: string, sent: string, tokens: number, memory: EpisodeMemory): CallTokens {
  const read = READERS[system] ?? ((text: string) => [{ part: 'other' as Part, text }]);
  const lines = sent ? read(sent) : [];
  const parts: Tally<Part> = {};
  const repeated: Tally<Part> = {};
  const counted = lines.map((line, i) => ({ ...line, tokens: tokensOf(i < lines.length - 1 ? `${line.text}\n` : line.text) }));
  for (const line of counted) {
    parts[line.part] = (parts[line.part] ?? 0) + line.tokens;
    const key = line.text.trim();
    if (key && memory.lines.has(key)) repeated[line.part] = (repeated[line.part] ?? 0) + line.tokens;
  }
  // Scaled so that the parts add up to the result's tokens (see above); "read before" by the same factor.
  const sum = Object.values(parts).reduce((a, b) => a + b, 0);
  if (!counted.length && tokens) parts.other = tokens;
  else if (sum && sum !== tokens) {
    const scale = tokens / sum;
    for (const tally of [parts, repeated]) for (const part of Object.keys(tally) as Part[]) tally[part] = Math.round(tally[part]! * scale * 10) / 10;
  }
  const result: CallTokens = { tool: toolKey(call), tokens, parts, repeated };
  if (system === 'ours') result.cuts = oursCuts(call, sent, counted, memory);
  for (const line of counted) if (line.text.trim()) memory.lines.add(line.text.trim());
  return result;
}

/** What each candidate cut would save on one result of ours (an upper bound: the cut may have to say a few words instead). */
function oursCuts(call: string, sent: string, lines: Array<Line & { tokens: number }>, memory: EpisodeMemory): Tally<Cut> {
  const cuts: Tally<Cut> = {};
  const add = (cut: Cut, n: number) => {
    if (n > 0) cuts[cut] = (cuts[cut] ?? 0) + n;
  };
  const typed = /"text":("(?:[^"\\]|\\.)*")/.exec(call)?.[1];
  for (const line of lines) {
    const text = line.text.trim();
    if (line.part === 'page') {
      const url = /^url: (.*)$/.exec(text)?.[1] ?? /^page (?:"(?:[^"\\]|\\.)*" )?(\S+)/.exec(text)?.[1];
      if (text.startsWith('page ')) {
        if (memory.page === text) add('pageLineUnchanged', line.tokens);
        memory.page = text;
        if (url) memory.url = url;
      } else if (text.startsWith('url: ')) {
        if (url === memory.url) add('pageLineUnchanged', line.tokens);
        memory.url = url;
      }
    }
    const seen = memory.lines.has(text);
    if (line.part === 'text' && seen) add('textRepeated', line.tokens);
    if (line.part === 'elements' && seen) add('elementsRepeated', line.tokens);
    if (line.part === 'status') {
      if (/^[A-Za-z]+: false$/.test(text)) add('falseFields', line.tokens);
      if (/^(clicked|typedInto|checked|selected|pressed|hovered|dragged|ref): /.test(text)) add('callEcho', line.tokens);
      if (typed !== undefined && text === `fieldValue: ${JSON.parse(typed) as string}`) add('callEcho', line.tokens);
    }
  }
  // Refs written without their frame prefix: the same text with `f12e5` as `e5`.
  const bare = sent.replace(/\bf\d+(e\d+)\b/g, '$1');
  if (bare !== sent) add('framePrefix', tokensOf(sent) - tokensOf(bare));
  return cuts;
}
