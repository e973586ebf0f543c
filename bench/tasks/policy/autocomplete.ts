/** Policy for autocompletes: type the prefix key by key, then click the suggestion by its text. */
import { clickNamed, field, isClickable, type Policy } from './common.js';

/** "Type "Sw" into the Country field, choose "Sweden" from the suggestions and press Submit." */
export const autocomplete: Policy = async (agent, url) => {
  await agent.open(url);
  const [, prefix, name, answer] = await agent.instruction(/Type "(.+?)" into the (.+?) field, choose "(.+?)"/);
  await agent.type(await field(agent, name!), prefix!, { slowly: true });
  await agent.click(await agent.control({ name: answer!, where: isClickable }, `the suggestion "${answer}"`, { fresh: true }));
  await clickNamed(agent, 'Submit');
};
