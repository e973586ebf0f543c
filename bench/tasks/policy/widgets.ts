/** Policies for library widgets: switches by their visible label, and custom select boxes that open a list. */
import { TEXT_FIELDS } from './agent.js';
import { clickNamed, isClickable, label, type Policy } from './common.js';
import { normalize } from './view.js';

const SWITCHES = ['switch', 'checkbox'];

/** "Turn on "Dark mode" and turn off "Email alerts", then press Save." */
export const toggleSwitches: Policy = async (agent, url) => {
  await agent.open(url);
  const [, list, save] = await agent.instruction(/^(Turn (?:on|off) ".+?"(?: and turn (?:on|off) ".+?")*), then press ([^.]+)\./im);
  for (const [, state, name] of list!.matchAll(/turn (on|off) "(.+?)"/gi)) {
    const control = await agent.control({ roles: SWITCHES, name: name! }, `the "${name}" switch`);
    await agent.check(control, state!.toLowerCase() === 'on');
  }
  await clickNamed(agent, save!, { fresh: true });
};

/**
 * "Choose "Teal" in the Colour list, then press Save.": a native list is set directly; a custom one is
 * opened with a click, and the option clicked in the list it shows.
 */
export const pickOption: Policy = async (agent, url) => {
  await agent.open(url);
  const [, answer, name, save] = await agent.instruction(/Choose "(.+?)" in the (.+?) list, then press ([^.]+)\./);
  const box = await agent.control({ roles: ['combobox', 'listbox', 'button'], name: name! }, `the ${name} list`);
  await agent.click(box);
  await agent.click(await agent.control({ roles: ['option', 'menuitem', 'menuitemradio'], name: answer! }, `the option "${answer}"`, { fresh: true }));
  await clickNamed(agent, save!, { fresh: true });
};


/** "Select the row of Ada Smith in the grid, then press Save.": a click on the row (by a cell with that name) selects it. */
export const selectRow: Policy = async (agent, url) => {
  await agent.open(url);
  const [, name, save] = await agent.instruction(/Select the row of (.+?) in the grid, then press ([^.]+)\./);
  await agent.click(await agent.control({ roles: ['gridcell', 'cell', 'rowheader', 'row'], name: name! }, `the row of ${name}`));
  await clickNamed(agent, save!, { fresh: true });
};

/** "Open "Edit profile", enter "Ada Smith" as Name and "Oslo" as City, then press Save.": fields in a dialog. */
export const modalForm: Policy = async (agent, url) => {
  await agent.open(url);
  const [, open, list, save] = await agent.instruction(/Open "(.+?)", enter ((?:"[^"]*" as [^"]+?)+), then press ([^.]+)\./);
  await clickNamed(agent, open!);
  const pairs = [...list!.matchAll(/"([^"]*)" as (.+?)(?=\s+and\s+"|$)/g)].map((m) => ({ value: m[1]!, label: m[2]!.trim() }));
  for (const [i, pair] of pairs.entries()) {
    const input = await agent.control({ roles: TEXT_FIELDS, name: pair.label }, `the ${pair.label} field`, { fresh: i === 0 });
    await agent.type(input, pair.value);
  }
  await clickNamed(agent, save!, { fresh: true });
};

/** Words as a reader compares them: without the zero-width spaces some pages put in long paths. */
const plain = (text: string) => normalize(text.replace(/[\u200b-\u200d\ufeff]/g, ''));

/**
 * "In the API explorer, call GET /pets/{petId} with petId 42: open the operation, press "Try it out", fill
 * in petId, then press "Execute".": the operation is the control whose words begin with its method and path.
 */
export const apiCall: Policy = async (agent, url) => {
  await agent.open(url);
  const [, method, path, param, value] = await agent.instruction(/call (GET|POST|PUT|PATCH|DELETE) (\S+) with (\w+) (\S+?): open the operation/);
  const heading = plain(`${method} ${path}`);
  const operation = await agent.control(
    { where: (item) => isClickable(item) && (plain(label(item)) === heading || plain(label(item)).startsWith(`${heading} `)) },
    `the operation ${method} ${path}`,
    { keyword: path },
  );
  await agent.click(operation);
  await clickNamed(agent, 'Try it out', { fresh: true });
  await agent.type(await agent.control({ roles: TEXT_FIELDS, name: param! }, `the ${param} field`, { fresh: true }), value!);
  await clickNamed(agent, 'Execute', { fresh: true });
};
