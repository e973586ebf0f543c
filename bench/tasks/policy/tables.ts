/** Policies for tables: read a cell by row and column, act in a row, sort by a column, count rows. */
import { PolicyFailure, type Agent } from './agent.js';
import { clickNamed, field, isClickable, label, type Policy } from './common.js';
import { rowAround } from './rows.js';
import { normalize, sameName, View, type Item } from './view.js';

const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

export interface Row {
  cells: string[];
  item?: Item;
}

/**
 * The rows a view shows: `row` items with their cells, or, for systems that print a row as one line of
 * text, lines with cells split by `|` or tabs.
 */
export function rowsOf(view: View): Row[] {
  const rows = view.filter((item) => item.role === 'row');
  if (rows.length) {
    return rows.map((row) => {
      const cells = view.descendants(row).filter((d) => CELL_ROLES.has(d.role)).map(label);
      return { cells: cells.length ? cells : [label(row)], item: row };
    });
  }
  return view
    .filter((item) => item.role === 'text' && /\s\|\s|\t/.test(item.text))
    .map((item) => ({ cells: item.text.split(/\s*\|\s*|\t/).map((c) => c.trim()).filter(Boolean) }));
}

/** The header row's names, from `columnheader` items (named, or holding a named button). */
export function headersOf(view: View): string[] {
  return view.filter((item) => item.role === 'columnheader').map((item) => label(item) || view.wordsOf(item).trim());
}

const SHAPES: Array<[RegExp, RegExp]> = [
  [/e-?mail/i, /^\S+@\S+\.\S+$/],
  [/phone/i, /^\+?[\d\s().-]{7,}$/],
];

/** "Find the Office of Ada Smith in the table and enter it in the Answer field, then press Submit." */
export const tableLookup: Policy = async (agent, url) => {
  await agent.open(url);
  const [, column, name, target] = await agent.instruction(/Find the (.+?) of (.+?) in the table and enter it in the (.+?) field,/);
  const answer = await agent.read(
    (view) => {
      const row = rowsOf(view).find((r) => r.cells.some((cell) => sameName(cell, name!)));
      if (!row) return undefined;
      // By the column header when the table has one, else by what the value looks like.
      const index = headersOf(view).findIndex((header) => sameName(header, column!));
      if (index >= 0) return row.cells[index];
      const shape = SHAPES.find(([word]) => word.test(column!))?.[1];
      return shape ? row.cells.find((cell) => shape.test(cell)) : undefined;
    },
    `the ${column} in the row of ${name}`,
    { keyword: name },
  );
  await agent.type(await field(agent, target!), answer);
  await clickNamed(agent, 'Submit');
};

/** The control named `action` in the row that contains `name`. */
async function inRow(agent: Agent, name: string, action: string): Promise<Item> {
  let sawRow = false;
  try {
    return await agent.seek(
      { kind: 'control', keyword: name },
      (view) => {
        const row = rowsOf(view).find((r) => r.item && r.cells.some((cell) => sameName(cell, name)))?.item;
        if (row) {
          sawRow = true;
          return view.descendants(row).find((item) => item.ref && isClickable(item) && sameName(label(item), action));
        }
        // A flat listing: the row the repeating lines give (rows.ts).
        const at = view.items.findIndex((item) => item.role !== 'meta' && normalize(label(item)).includes(normalize(name)) && !/in the row of/.test(label(item)));
        if (at < 0) return undefined;
        sawRow = true;
        const isAction = (item: Item) => !!item.ref && isClickable(item) && sameName(label(item), action);
        return (rowAround(view, at, isAction) ?? view.items.slice(at + 1)).find(isAction);
      },
      'no_ref',
      `the "${action}" control in the row of ${name}`,
    );
  } catch (error) {
    // The buttons may all be there; what is missing is which row is which.
    if (error instanceof PolicyFailure && !sawRow) throw new PolicyFailure('value', `the row of ${name} (its text is not shown)`);
    throw error;
  }
}

/** "Click "Edit" in the row of Ada Smith." */
export const tableRowAction: Policy = async (agent, url) => {
  await agent.open(url);
  const [, action, name] = await agent.instruction(/Click "(.+?)" in the row of (.+?)\./);
  await agent.click(await inRow(agent, name!, action!));
};

function columnValues(view: View, column: string): number[] | undefined {
  const index = headersOf(view).findIndex((header) => sameName(header, column));
  if (index < 0) return undefined;
  const values = rowsOf(view)
    .filter((row) => row.cells.length > index && !row.item?.name.includes(column))
    .map((row) => Number(row.cells[index]!.replace(/[^\d.]/g, '')))
    .filter((n) => !Number.isNaN(n) && n > 0);
  return values.length >= 2 ? values : undefined;
}

/** "Sort the table by Price, highest first, then press Done." Clicks the header until the column reads descending. */
export const tableSort: Policy = async (agent, url) => {
  await agent.open(url);
  const [, column] = await agent.instruction(/Sort the table by (.+?), highest first/);
  for (let attempt = 0; attempt < 3; attempt++) {
    await clickNamed(agent, column!, { fresh: true });
    const values = await agent.read((view) => columnValues(view, column!), `the ${column} column`);
    if (values.every((value, i) => i === 0 || values[i - 1]! >= value)) break;
  }
  await clickNamed(agent, 'Done');
};

/** "How many orders in the table have the status "Shipped"? Enter the number in the Count field and press Submit." */
export const tableCount: Policy = async (agent, url) => {
  await agent.open(url);
  const [, status, target] = await agent.instruction(/How many orders in the table have the status "(.+?)"\? Enter the number in the (.+?) field and/);
  const count = await agent.read(
    (view) => {
      const rows = rowsOf(view);
      const matching = rows.filter((row) => row.cells.some((cell) => sameName(cell, status!))).length;
      return matching ? matching : undefined;
    },
    'the rows of the table',
  );
  await agent.type(await field(agent, target!), String(count));
  await clickNamed(agent, 'Submit');
};
