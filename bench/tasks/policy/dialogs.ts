/** Policies for dialogs: confirm() and prompt() answered through the system's dialog tool, and an HTML modal. */
import { clickNamed, isClickable, type Policy } from './common.js';

const button = (name: string) => ({ name, where: isClickable });

/** "Delete the file "x.pdf" and confirm when the page asks." */
export const confirmAction: Policy = async (agent, url) => {
  await agent.open(url);
  const [, file] = await agent.instruction(/Delete the file "(.+?)" and confirm/);
  await agent.clickAnswering(await agent.control(button(`Delete ${file}`), `the Delete button of ${file}`), true);
};

/** "Rename "x.pdf" to "y.txt". The page asks for the new name." */
export const promptRename: Policy = async (agent, url) => {
  await agent.open(url);
  const [, file, name] = await agent.instruction(/Rename "(.+?)" to "(.+?)"/);
  await agent.clickAnswering(await agent.control(button(`Rename ${file}`), `the Rename button of ${file}`), true, name);
};

/** "Archive the project "x" and confirm in the dialog." */
export const modalConfirm: Policy = async (agent, url) => {
  await agent.open(url);
  const [, project] = await agent.instruction(/Archive the project "(.+?)" and confirm/);
  await clickNamed(agent, `Archive ${project}`);
  await clickNamed(agent, 'Archive', { fresh: true });
};
