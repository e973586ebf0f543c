/** Policies that read something off the page, or click something by its words. */
import { clickNamed, field, isClickable, type Policy } from './common.js';

/** "Find the access code in the text below and type it into the Answer field, then press Submit." */
export const readCode: Policy = async (agent, url) => {
  await agent.open(url);
  const [, target] = await agent.instruction(/Find the access code in the (?:text|box) below and type it into the (.+?) field,/);
  const [, code] = await agent.readText(/the access code is ([A-Z0-9]{3}-\d{3})/, 'the access code', 'access code');
  await agent.type(await field(agent, target!), code!);
  await clickNamed(agent, 'Submit');
};

/** "Click "Archive"." or "Click the card of Ada Smith.": a control found by its words, whatever it is built from. */
export const clickText: Policy = async (agent, url) => {
  await agent.open(url);
  const [, exact, card] = await agent.instruction(/Click "(.+?)"|Click the card of (.+?)\./);
  if (exact) return clickNamed(agent, exact);
  // A card's words are the name and more ("Ada Smith, Lisbon"): the control whose words contain the name.
  const words = card!.toLowerCase();
  const name = new RegExp(`\\b${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
  // The instruction mentions the name too; it is not the card.
  await agent.click(await agent.control({ name, where: (item) => isClickable(item) && !/card of/i.test(item.name + item.text) }, `the card of ${card}`));
};
