/**
 * Text limits: how much of a page's text a line shows. Lines and values are shown whole up to a generous limit;
 * past it they end with how much is left and the exact call that shows it. Names are labels, cut shorter.
 */

/** Characters of a text line, field value or name shown before the rest is left to a `ref` snapshot. */
export const TEXT_LIMIT = 400;
/** Names (of links, buttons, sections) are labels, not content: a shorter limit. */
export const NAME_LIMIT = 150;

export function quote(text: string): string {
  return JSON.stringify(text);
}

/** Whitespace collapsed. With a limit, only the part that can be shown is normalised: page text can run to megabytes. */
export function clean(text: string, limit = Infinity): string {
  const head = limit !== Infinity && text.length > limit * 4 + 100 ? text.slice(0, limit * 4 + 100) : text;
  return head.replace(/\s+/g, ' ').trim();
}

/** Cut to `limit` characters with '…' (titles and names: their rest is rarely needed). */
export function truncate(text: string, limit: number): string {
  const shown = clean(text, limit);
  return shown.length > limit ? `${shown.slice(0, limit - 1)}…` : shown;
}

/**
 * Text shown whole up to `limit`; past it, cut at a word boundary with the count of characters left and the
 * call that shows them all (`browser_snapshot` of the element's ref lists its text without limit).
 */
export function shownWhole(text: string, limit: number, ref: string | undefined, keepLines = false): { shown: string; rest: string } {
  // A multi-line field's value keeps its line breaks (written "\n" in the quoted value): they are part of it.
  const full = keepLines ? text.split(/\r?\n/).map((line) => clean(line)).join('\n').trim() : clean(text);
  if (full.length <= limit) return { shown: full, rest: '' };
  let cut = full.lastIndexOf(' ', limit);
  if (cut < limit * 0.8) cut = limit;
  const left = full.length - cut;
  // About three to four characters a token: ask for a budget that holds the whole text when the default would not.
  const tokens = Math.ceil(full.length / 3) + 300;
  const call = ref ? `: browser_snapshot {"ref":"${ref}"${tokens > 1800 ? `,"maxTokens":${Math.ceil(tokens / 1000) * 1000}` : ''}}` : '';
  return { shown: `${full.slice(0, cut)}…`, rest: `(+${left.toLocaleString('en-US')} chars${call})` };
}
