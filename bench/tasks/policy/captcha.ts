/** Policy for letter-by-letter text: read the characters between the instruction and the answer field. */
import { TEXT_FIELDS } from './agent.js';
import { clickNamed, field, label, type Policy } from './common.js';
import type { View } from './view.js';

/** The box's characters: single characters one per line or spaced on a line, or one short run of them (not the field's label). */
function boxText(view: View, fieldName: string): string | undefined {
  const start = view.items.findIndex((item) => /characters shown in the box/.test(label(item)));
  if (start < 0) return undefined;
  const fieldAt = view.items.findIndex((item, i) => i > start && TEXT_FIELDS.includes(item.role));
  // A system may print the box's characters on the instruction's own line, after it.
  const tail = label(view.items[start]!).split(/press Submit\.\s*/)[1] ?? '';
  const lines = [tail, ...view.items.slice(start + 1, fieldAt < 0 ? undefined : fieldAt).map(label)].filter(Boolean);
  let characters = '';
  for (const line of lines) {
    const tokens = line.split(/\s+/);
    const run = tokens.slice(0, tokens.findIndex((t) => t.length !== 1) === -1 ? tokens.length : tokens.findIndex((t) => t.length !== 1));
    characters += run.join('');
  }
  if (characters.length >= 4) return characters;
  const whole = lines.find((line) => /^[A-Za-z0-9]{4,8}$/.test(line) && line.toLowerCase() !== fieldName.toLowerCase());
  return whole;
}

/** "Type the characters shown in the box below into the Answer field and press Submit." */
export const captcha: Policy = async (agent, url) => {
  await agent.open(url);
  const [, target] = await agent.instruction(/Type the characters shown in the box below into the (.+?) field and/);
  const text = await agent.read((view) => boxText(view, target!), 'the characters in the box');
  await agent.type(await field(agent, target!), text);
  await clickNamed(agent, 'Submit');
};
