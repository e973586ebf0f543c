/** Moves many policies share: press a named button, find a field by its label, read a quoted list. */
import { TEXT_FIELDS, type Agent } from './agent.js';
import { View, type Item } from './view.js';

export type Policy = (agent: Agent, url: string) => Promise<void>;

/** Roles that are not something to click. */
const NOT_CLICKABLE = new Set([...TEXT_FIELDS, 'text', 'meta']);

export function isClickable(item: Item): boolean {
  return !NOT_CLICKABLE.has(item.role);
}

/** Clicks the control named `name` (a button, a link, or anything else with a ref and that name). */
export async function clickNamed(agent: Agent, name: string, options: { fresh?: boolean } = {}): Promise<void> {
  const control = await agent.control({ name, where: isClickable }, `a control named "${name}"`, options);
  await agent.click(control);
}

export function field(agent: Agent, label: string) {
  return agent.control({ roles: TEXT_FIELDS, name: label }, `the ${label} field`);
}

/** The quoted strings of an instruction fragment: `"a", "b" and "c"` gives a, b, c. */
export function quotedList(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
}

/** The label a reader sees for an item. */
export const label = (item: Item) => View.label(item);

/** A value shown cut short by the system (`…` at the end), which cannot be used as it is. */
export function isCut(text: string | undefined): boolean {
  return text === undefined || /…$/.test(text.trim());
}
