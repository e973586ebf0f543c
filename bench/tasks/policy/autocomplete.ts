/** Policy for autocompletes: type the prefix key by key, then click the suggestion by its text. */
import { clickNamed, field, isClickable, label, type Policy } from './common.js';
import { sameName, type Item, type View } from './view.js';

/** How many items share the item's parent: the length of the list it is in. */
function listLength(item: Item, view: View): number {
  return item.parent === undefined ? 0 : view.items.filter((other) => other.parent === item.parent).length;
}

/**
 * The suggestion named `answer`. When the page also lists every choice (a select a library hides but keeps
 * for forms and screen readers), the suggestions are the shorter list, the one typing filtered.
 */
function isSuggestion(item: Item, view: View, answer: string): boolean {
  const named = (other: Item) => isClickable(other) && sameName(label(other), answer);
  if (!named(item)) return false;
  const shortest = Math.min(...view.filter(named).map((other) => listLength(other, view)));
  return listLength(item, view) === shortest;
}

/** "Type "Sw" into the Country field, choose "Sweden" from the suggestions and press Submit." */
export const autocomplete: Policy = async (agent, url) => {
  await agent.open(url);
  const [, prefix, name, answer] = await agent.instruction(/Type "(.+?)" into the (.+?) field, choose "(.+?)"/);
  await agent.type(await field(agent, name!), prefix!, { slowly: true });
  await agent.click(await agent.control({ where: (item, view) => isSuggestion(item, view, answer!) }, `the suggestion "${answer}"`, { fresh: true }));
  await clickNamed(agent, 'Submit');
};
