/** Policy for sortable lists: drag the item onto the one it must come before, then save. */
import { clickNamed, isClickable, type Policy } from './common.js';

/** "Move "Fig" so that it comes right before "Kiwi" in the list, then press Save." */
export const dragBefore: Policy = async (agent, url) => {
  await agent.open(url);
  const [, move, before, save] = await agent.instruction(/Move "(.+?)" so that it comes right before "(.+?)" in the list, then press ([^.]+)\./);
  const item = await agent.control({ name: move!, where: isClickable }, `the list item "${move}"`);
  const target = await agent.control({ name: before!, where: isClickable }, `the list item "${before}"`);
  await agent.drag(item, target);
  await clickNamed(agent, save!, { fresh: true });
};
