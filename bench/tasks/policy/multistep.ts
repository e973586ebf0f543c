/** Policies for tasks over several steps: remember the instruction, act page after page. */
import { clickNamed, field, type Policy } from './common.js';

/** "Log in as "x" with the password "y", then open Settings, turn on "Dark mode" and press Save." */
export const loginSettings: Policy = async (agent, url) => {
  await agent.open(url);
  const [, user, password, page, setting] = await agent.instruction(/Log in as "(.+?)" with the password "(.+?)", then open (.+?), turn on "(.+?)"/);
  await agent.type(await field(agent, 'Username'), user!);
  await agent.type(await field(agent, 'Password'), password!);
  await clickNamed(agent, 'Log in');
  await clickNamed(agent, page!, { fresh: true });
  await agent.check(await agent.control({ roles: ['switch', 'checkbox'], name: setting! }, `the "${setting}" switch`, { fresh: true }), true);
  await clickNamed(agent, 'Save');
};

/** "Create a project named "x" on the Team plan in the Dublin region, accept the terms and press Finish." */
export const wizard: Policy = async (agent, url) => {
  await agent.open(url);
  const [, name, plan, region] = await agent.instruction(/Create a project named "(.+?)" on the (.+?) plan in the (.+?) region, accept the terms/);
  await agent.type(await field(agent, 'Project name'), name!);
  await clickNamed(agent, 'Next');
  await agent.check(await agent.control({ roles: ['radio'], name: plan! }, `the ${plan} plan`, { fresh: true }), true);
  // The second step has its own Next button; the first one is hidden now.
  await clickNamed(agent, 'Next', { fresh: true });
  await agent.select(await agent.control({ roles: ['combobox', 'listbox'], name: 'Region' }, 'the Region list', { fresh: true }), region!);
  await agent.check(await agent.control({ roles: ['checkbox'], name: 'I accept the terms' }, 'the terms checkbox'), true);
  await clickNamed(agent, 'Finish');
};
