/**
 * Policies for tasks whose answer is in a file: click the link that downloads or opens it, find the value in
 * what the result gave of the file (or, failing that, in the page the tab shows), read on part by part with the
 * system's file reader, and answer on the task page; or download a file and upload it on another site.
 */
import type { Observation } from '../adapters/types.js';
import { PolicyFailure, type Agent } from './agent.js';
import { clickNamed, field, isClickable, type Policy } from './common.js';

/** The value a task asks for, found in a file's text (a PDF's lines, a CSV as a table), or undefined. */
type Finder = (text: string) => string | undefined;

function cellOf(text: string, id: string, column: string): string | undefined {
  const lines = text.split('\n');
  const header = lines.find((line) => line.startsWith('| ') && line.split('|').map((c) => c.trim()).includes(column));
  const row = lines.find((line) => line.startsWith(`| ${id} |`));
  if (!header || !row) return undefined;
  return row.split('|').map((c) => c.trim())[header.split('|').map((c) => c.trim()).indexOf(column)];
}

/** "Download the invoice … and enter its total due in the Answer field", and the other file questions. */
export const fileValue: Policy = async (agent, url) => {
  await agent.open(url);
  const [, order, , csvId, account, target] = await agent.instruction(
    /(?:Download the invoice of order (\d+) and enter its total due|Download the (order export) and enter the amount of order (ORD-\d+)|Open the statement of account ([\d-]+) and enter its closing balance) in the (.+?) field,/,
  );
  const find: Finder = order
    ? (text) => /Total due:? ([\d,.]+)/.exec(text)?.[1]
    : csvId
      ? (text) => cellOf(text, csvId, 'Amount')
      : (text) => /Closing balance:? ([\d,.]+)/.exec(text)?.[1];
  const link = await agent.control({ name: order ? 'Download invoice' : csvId ? /Export orders/ : new RegExp(`Statement ${account}`), where: isClickable }, 'the link to the file');
  const opened = await agent.click(link);
  const value = await valueIn(agent, opened, find);
  await agent.open(url);
  await agent.type(await field(agent, target!), value);
  await clickNamed(agent, 'Submit');
};

async function valueIn(agent: Agent, opened: Observation, find: Finder): Promise<string> {
  let found = (opened.fileText && find(opened.fileText)) || (opened.view && find(opened.view.text));
  if (found) return found;
  const name = opened.downloads?.[0];
  if (!name) {
    // The file opened in the tab (a PDF viewer): what the page shows of it, else the system cannot read it.
    found = find((await agent.look()).text);
    if (found) return found;
    throw new PolicyFailure(agent.adapter.readFile ? 'value' : 'no_files', 'the file’s text was not shown');
  }
  let next: { page: number } | undefined = opened.next ?? { page: 1 };
  for (let i = 0; next && i < 20; i++) {
    const part = await agent.readFile(name, next.page);
    found = part.fileText && find(part.fileText);
    if (found) return found;
    next = part.next;
  }
  throw new PolicyFailure('value', `the value is not in ${name}`);
}

/** "Download ticket T-123456, then attach that file on the claims portal and press Send." */
export const fileUpload: Policy = async (agent, url) => {
  await agent.open(url);
  const [, ticket] = await agent.instruction(/Download ticket (T-\d+), then attach that file on the claims portal and press Send\./);
  const got = await agent.click(await agent.control({ name: `Download ticket ${ticket}`, where: isClickable }, 'the ticket link'));
  const name = got.downloads?.[0];
  if (!name) throw new PolicyFailure(agent.adapter.uploadDownload ? 'value' : 'no_files', 'the download was not named');
  await clickNamed(agent, 'Claims portal');
  const input = await agent.control({ name: 'Ticket file' }, 'the Ticket file input');
  await agent.uploadDownload(input, name);
  await clickNamed(agent, 'Send');
};
