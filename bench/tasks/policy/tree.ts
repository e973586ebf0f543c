/**
 * Policy for trees: open each folder of the path unless it is open already, then select the file inside
 * the last one. Whether a folder is open comes from its state when the system shows one, else from whether
 * its contents are listed under it, as a reader would judge.
 */
import { PolicyFailure, type Agent } from './agent.js';
import { isClickable, label, type Policy } from './common.js';
import { normalize, type Item, type View } from './view.js';

/** A folder's line may carry its contents in its name (a treeitem named from everything inside it). */
function namedAs(item: Item, name: string): boolean {
  const words = normalize(label(item));
  return words === normalize(name) || words.startsWith(`${normalize(name)} `);
}

/**
 * What lies inside the folder whose name is on `line`: its indented children; or, when the name is the
 * first line of a container (a list item holding a text and a sub-list), the rest of that container; or,
 * in a flat listing, the lines after it.
 */
function inside(view: View, line: Item): Item[] {
  const nested = view.descendants(line);
  if (nested.length) return nested;
  const parent = line.parent === undefined ? undefined : view.items[line.parent]!;
  if (parent && view.descendants(parent)[0] === line) return view.descendants(parent).slice(1);
  return view.items.slice(line.index + 1);
}

/** The ref that opens the folder: its own, or that of the container it heads. */
function opener(view: View, line: Item): Item | undefined {
  if (line.ref && isClickable(line)) return line;
  const parent = line.parent === undefined ? undefined : view.items[line.parent]!;
  return parent?.ref && view.descendants(parent)[0] === line ? parent : undefined;
}

/** Opens `name` unless the view shows it open (its state, or `next` listed inside it); true when it clicked. */
async function openFolder(agent: Agent, name: string, next: string): Promise<boolean> {
  let seenWithoutRef = false;
  const found = await agent
    .seek(
      { kind: 'control', keyword: name, fresh: true },
      (view) => {
        const line = view.items.find((item) => namedAs(item, name) && item.role !== 'meta');
        if (!line) return undefined;
        const open = line.states.includes('expanded') || (!line.states.includes('collapsed') && inside(view, line).some((item) => namedAs(item, next)));
        if (open) return { open: true as const };
        const target = opener(view, line);
        if (!target) seenWithoutRef = true;
        return target ? { open: false as const, target } : undefined;
      },
      'no_ref',
      `the folder "${name}"`,
    )
    .catch((error: unknown) => {
      if (error instanceof PolicyFailure && seenWithoutRef) throw new PolicyFailure('no_ref', `the folder "${name}" (shown, but without a ref)`);
      throw error;
    });
  if (!found.open) await agent.click(found.target);
  return !found.open;
}

/** "Select the file "x.txt" in Projects › Drafts." */
export const tree: Policy = async (agent, url) => {
  await agent.open(url);
  const [, file, path] = await agent.instruction(/Select the file "(.+?)" in (.+?)\./);
  const folders = path!.split(' › ');
  let clicked = false;
  // When a folder was clicked and what should be inside never shows, the click did nothing.
  const afterClick = (error: unknown, what: string): never => {
    if (clicked && error instanceof PolicyFailure && error.reason === 'no_ref' && !/without a ref/.test(error.detail)) {
      throw new PolicyFailure('wrong_element', `clicking a folder did not show ${what}`);
    }
    throw error;
  };
  for (let i = 0; i < folders.length; i++) {
    clicked = await openFolder(agent, folders[i]!, folders[i + 1] ?? file!).catch((error) => afterClick(error, `"${folders[i]}"`));
  }
  const last = folders[folders.length - 1]!;
  const target = await agent.seek(
    { kind: 'control', keyword: file, fresh: true },
    (view) => {
      const folder = view.items.find((item) => namedAs(item, last) && item.role !== 'meta');
      return folder ? inside(view, folder).find((item) => item.ref && isClickable(item) && namedAs(item, file!)) : undefined;
    },
    'no_ref',
    `the file "${file}" in ${last}`,
  ).catch((error) => afterClick(error, `"${file}"`));
  await agent.click(target);
};
