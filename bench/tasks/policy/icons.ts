/**
 * Policy for icon-only controls in rows: find the row by its words, then the control in it whose name or
 * icon says what it does. Unnamed controls that give no hint cannot be told apart, as for a model.
 */
import { byControlRank, PolicyFailure } from './agent.js';
import { isClickable, label, type Policy } from './common.js';
import { rowAround } from './rows.js';
import { normalize, type Item, type View } from './view.js';

const HINTS: Record<string, RegExp> = {
  delete: /delete|trash|remove|bin|discard/i,
  star: /star|favou?rite/i,
  remove: /remove|delete|×|✕|✖|close|^x$/i,
  download: /download/i,
};

/** What the control says it does: its name, or the system's icon guess. */
const says = (item: Item) => `${label(item)} ${item.icon ?? ''}`.trim();

/**
 * The control for the verb in the row of `key`: inside the smallest enclosing item that holds controls,
 * or, in a flat listing, in the row the repeating lines give (see rows.ts). `anchor` is false when the
 * row's words are not shown at all; `unnamed` when the row has controls but none says what it does.
 */
function rowControl(view: View, key: string, hint: RegExp, instruction: RegExp): { anchor: boolean; control?: Item; unnamed: boolean } {
  const anchor = view.items.find((item) => item.role !== 'meta' && normalize(label(item)).includes(normalize(key)) && !instruction.test(label(item)));
  if (!anchor) return { anchor: false, unnamed: false };
  for (const container of [anchor, ...view.ancestors(anchor)]) {
    const controls = view.descendants(container).filter((item) => item.ref && isClickable(item));
    if (!controls.length) continue;
    // A cell named "Download Delete" also matches; the link inside it is the control.
    const control = controls.filter((item) => hint.test(says(item))).sort(byControlRank)[0];
    return { anchor: true, control, unnamed: !control && controls.some((item) => !says(item)) };
  }
  const hinted = (item: Item) => !!item.ref && hint.test(says(item));
  const row = rowAround(view, anchor.index, hinted) ?? view.items.slice(anchor.index + 1, anchor.index + 6);
  const control = row.find(hinted);
  return { anchor: true, control, unnamed: !control && row.some((item) => item.ref && !says(item)) };
}

/** "Delete the email from Ada Smith." / "Star the email from ..." / "Remove the tag "Paris"." / "Download the report "x"." */
export const rowIcon: Policy = async (agent, url) => {
  await agent.open(url);
  const instruction = /(Delete|Star) the email from (.+?)\.|(Remove) the tag "(.+?)"|(Download) the report "(.+?)"/;
  const match = await agent.instruction(instruction);
  const verb = (match[1] ?? match[3] ?? match[5])!.toLowerCase();
  const key = (match[2] ?? match[4] ?? match[6])!;
  const hint = HINTS[verb]!;
  let unnamed = false;
  let anchored = false;
  const control = await agent
    .seek(
      { kind: 'control', keyword: key },
      (view) => {
        const found = rowControl(view, key, hint, instruction);
        anchored ||= found.anchor;
        unnamed ||= found.unnamed;
        return found.control;
      },
      'no_ref',
      `the ${verb} control in the row of ${key}`,
    )
    .catch((error: unknown) => {
      if (!(error instanceof PolicyFailure)) throw error;
      if (!anchored) throw new PolicyFailure('value', `the row of ${key} (its words are not shown)`);
      if (unnamed) throw new PolicyFailure('no_ref', `the ${verb} control in the row of ${key} (its controls have no name or icon hint)`);
      throw error;
    });
  await agent.click(control);
};
