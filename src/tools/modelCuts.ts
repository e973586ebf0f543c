/**
 * Fields of a result the model already has, left out of the text it reads (issue 56, DECISIONS 130). Each cut
 * reads the result alone: Mastra keeps results in a thread's memory and sends each through toModelOutput again
 * on later turns, so the text may not depend on what an earlier call showed. The typed result stays whole for
 * programs and workflows.
 */

/** Echoes of the call: the element it acted on, by ref and by role and name. A re-rendered target is a notice. */
const ECHOES = new Set(['ref', 'clicked', 'typedInto', 'hovered', 'pressed']);

/** Booleans whose `false` is the expected outcome: said only when true. */
const SAID_WHEN_TRUE = new Set(['navigated', 'submitted', 'atTop', 'atBottom']);

/** Fields for programs that also steer the text: whether the address changed, whether a field holds the text sent. */
const STEERING = new Set(['urlChanged', 'asTyped']);

/** Data a line of the text already says in words: a find's scrolling (`scrolled` says it). */
const SAID_IN_WORDS = new Set(['scrollSearch']);

function omitted(key: string, value: unknown, data: Record<string, unknown>): boolean {
  if (STEERING.has(key) || ECHOES.has(key) || SAID_IN_WORDS.has(key)) return true;
  if (SAID_WHEN_TRUE.has(key)) return value === false;
  // An action's address: said when it changed (a new page shows it on its page line, a route change here).
  if (key === 'url') return data.navigated === false && data.urlChanged !== true;
  // The field's value: said when it is not the text sent (formatted, masked by the page, cut, appended to).
  if (key === 'fieldValue') return data.asTyped === true;
  // A scroll's view: the lines that came into view stand in for it (helpers/scrollView.ts).
  if (key === 'snapshot') return typeof data.cameIntoView === 'string';
  return false;
}

/** The fields of a successful result the model reads, in their order. */
export function modelFields(data: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(data)
    .filter(([key, value]) => !omitted(key, value, data))
    .map(([key, value]) => (key === 'unchanged' ? [key, `${value} lines read before, not repeated (browser_snapshot shows the whole view)`] : [key, value]));
}
