/** Policies for tabs, accordions and menus: open the right one, then read or choose what it shows. */
import { clickNamed, field, isClickable, type Policy } from './common.js';

/** "Open the Billing tab (or: Expand the Billing section) and enter the code shown there into the Code field, then press Submit." */
export const panelCode: Policy = async (agent, url) => {
  await agent.open(url);
  const [, name, target] = await agent.instruction(/(?:Open|Expand) the (.+?) (?:tab|section) and enter the code shown there into the (.+?) field,/);
  await clickNamed(agent, name!);
  // Read after the click: the panel open before it shows a code too, the wrong one.
  const [, code] = await agent.readText(/Your code is ([A-Z0-9]{6})\b/, `the code in the ${name} panel`, 'code');
  await agent.type(await field(agent, target!), code!);
  await clickNamed(agent, 'Submit');
};

/** "Open the Actions menu and choose "Export teal"." */
export const menu: Policy = async (agent, url) => {
  await agent.open(url);
  const [, name, entry] = await agent.instruction(/Open the (.+?) menu and choose "(.+?)"/);
  await clickNamed(agent, name!);
  await agent.click(await agent.control({ name: entry!, where: isClickable }, `the menu entry "${entry}"`, { fresh: true }));
};
