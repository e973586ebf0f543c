/** Policy for sliders: find the handle, read the value, and move it with arrow keys (or from Home/End). */
import type { Agent } from './agent.js';
import { clickNamed, label, type Policy } from './common.js';
import { normalize, type Item, type View } from './view.js';

const STEP = 5;

/** A slider control, else the first unnamed focusable thing after the slider's label, as a reader would take it. */
function handleOf(view: View, name: string): Item | undefined {
  const slider = view.find((item) => !!item.ref && item.role === 'slider');
  if (slider) return slider;
  const at = view.items.findIndex((item) => normalize(label(item)).startsWith(normalize(name)));
  if (at < 0) return undefined;
  return view.items.slice(at + 1).find((item) => item.ref && !label(item) && item.role !== 'text');
}

function valueOf(view: View, name: string): number | undefined {
  const slider = view.find((item) => item.role === 'slider' && /^\d+$/.test(item.value ?? ''));
  if (slider) return Number(slider.value);
  const shown = new RegExp(`\\b${name}:?\\s+(\\d+)\\b`, 'i').exec(view.text);
  return shown ? Number(shown[1]) : undefined;
}

/** The fewest keys from `from` to `to`: arrows, or Home/End then arrows. */
function keysFor(from: number, to: number): string[] {
  const arrows = (start: number) => Array.from({ length: Math.abs(to - start) / STEP }, () => (to > start ? 'ArrowRight' : 'ArrowLeft'));
  const plans = [arrows(from), ['Home', ...arrows(0)], ['End', ...arrows(100)]];
  return plans.sort((a, b) => a.length - b.length)[0]!;
}

const readValue = (agent: Agent, name: string) => agent.read((view) => valueOf(view, name), `the value of the ${name} slider`);

/** "Set the Volume slider to 40 and press Submit." */
export const slider: Policy = async (agent, url) => {
  await agent.open(url);
  const [, name, wanted] = await agent.instruction(/Set the (.+?) slider to (\d+) and/);
  const target = Number(wanted);
  const handle = await agent.seek({ kind: 'control', keyword: name }, (view) => handleOf(view, name!), 'no_ref', `the handle of the ${name} slider`);
  if (!agent.adapter.pressTargetsRef) await agent.click(handle); // keys go to the focused element; a click may move the slider too
  let value = await readValue(agent, name!);
  for (let round = 0; round < 2 && value !== target; round++) {
    await agent.press(keysFor(value, target), handle);
    value = await readValue(agent, name!);
  }
  await clickNamed(agent, 'Submit');
};
