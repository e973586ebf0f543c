/** Policies for forms: fill fields, choose options, tick boxes, edit a long value, follow a validation message. */
import { clickNamed, field, isCut, label, quotedList, type Policy } from './common.js';
import { sameName } from './view.js';

/** "Enter "a" as X, "b" as Y and "c" as Z, then press Submit." */
export const fillFields: Policy = async (agent, url) => {
  await agent.open(url);
  const [, list, submit] = await agent.instruction(/Enter ((?:"[^"]*" as [^"]+?)+), then press ([^.]+)\./);
  const pairs = [...list!.matchAll(/"([^"]*)" as (.+?)(?=,\s*"|\s+and\s+"|$)/g)].map((m) => ({ value: m[1]!, label: m[2]!.trim() }));
  for (const pair of pairs) await agent.type(await field(agent, pair.label), pair.value);
  await clickNamed(agent, submit!);
};

/** "Select "x" in the Y list and press Submit." */
export const selectOption: Policy = async (agent, url) => {
  await agent.open(url);
  const [, answer, list] = await agent.instruction(/Select "([^"]+)" in the (.+?) list and press/);
  const select = await agent.control({ roles: ['combobox', 'listbox'], name: list! }, `the ${list} list`);
  await agent.select(select, answer!);
  await clickNamed(agent, 'Submit');
};

/** "Tick only "a" and "b", untick everything else, then press Submit." (and its long form). */
export const checkboxes: Policy = async (agent, url) => {
  await agent.open(url);
  const [, short, long] = await agent.instruction(
    /Tick only (.+?), untick everything else|exactly these \d+ options are ticked: (.+?)\. Untick every other option/,
  );
  const wanted = quotedList((short ?? long)!);
  for (const name of wanted) await agent.check(await agent.control({ roles: ['checkbox'], name }, `the "${name}" checkbox`), true);
  // Boxes ticked before that are not wanted: the states come from the page as last seen.
  const view = await agent.look();
  const extra = view.filter((item) => item.role === 'checkbox' && item.states.includes('checked') && !wanted.some((w) => sameName(label(item), w)));
  for (const box of extra) await agent.check(box, false);
  await clickNamed(agent, 'Submit');
};

/** "Choose "x" for the frame, then press Submit." */
export const radio: Policy = async (agent, url) => {
  await agent.open(url);
  const [, answer] = await agent.instruction(/Choose "([^"]+)" for the (.+?), then/);
  await agent.check(await agent.control({ roles: ['radio'], name: answer! }, `the "${answer}" radio button`), true);
  await clickNamed(agent, 'Submit');
};

/** "In the Notes box, replace the word "a" with "b" and press Save.": needs the whole current value. */
export const textareaEdit: Policy = async (agent, url) => {
  await agent.open(url);
  const [, box, from, to] = await agent.instruction(/In the (.+?) box, replace the word "([^"]+)" with "([^"]+)"/);
  const area = await field(agent, box!);
  let text = area.value;
  if (isCut(text) || !text!.includes(from!)) {
    // The value is shown cut short (or not at all): look for the whole of it, recognised by its start.
    const start = text?.replace(/…$/, '').slice(0, 30);
    text = await agent.read(
      (view) => {
        const hit = view.items.find((item) => {
          const words = item.value || item.text;
          return !!words && words.includes(from!) && !isCut(words) && (start ? words.includes(start) : !words.includes('replace the word'));
        });
        return hit ? hit.value || hit.text : undefined;
      },
      `the whole value of the ${box} box`,
      { keyword: from, ref: area.ref },
    );
  }
  await agent.type(area, text!.replace(from!, to!));
  await clickNamed(agent, 'Save');
};

/** Sign up, read the page's "taken, try X" message, and use X. */
export const validation: Policy = async (agent, url) => {
  await agent.open(url);
  const [, user, password] = await agent.instruction(/Sign up with the username "([^"]+)" and the password "([^"]+)"/);
  await agent.type(await field(agent, 'Username'), user!);
  await agent.type(await field(agent, 'Password'), password!);
  await clickNamed(agent, 'Sign up');
  const [, suggestion] = await agent.readText(/is taken\. Try "([^"]+)"/, 'the validation message', 'taken');
  await agent.type(await field(agent, 'Username'), suggestion!);
  await clickNamed(agent, 'Sign up');
};

/** "Book a table for 4 guests on Friday at 19:30, seated in the Garden area, under the name "A B", with the note "x", then press Book." */
export const booking: Policy = async (agent, url) => {
  await agent.open(url);
  const [, guests, day, time, area, name, note] = await agent.instruction(
    /Book a table for (\d+) guests on (\w+) at (\d\d:\d\d), seated in the (.+?) area, under the name "(.+?)", with the note "(.+?)"/,
  );
  const list = (label: string) => agent.control({ roles: ['combobox', 'listbox'], name: label }, `the ${label} list`);
  await agent.select(await list('Guests'), guests!);
  await agent.select(await list('Day'), day!);
  await agent.check(await agent.control({ roles: ['radio'], name: time! }, `the ${time} radio button`), true);
  await agent.select(await list('Area'), area!);
  await agent.type(await field(agent, 'Name'), name!);
  await agent.type(await field(agent, 'Note'), note!);
  await clickNamed(agent, 'Book');
};
