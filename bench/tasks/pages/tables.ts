/**
 * Tables: plain `<table>`s with and without `<th>`, where a value must be read from a row, a button clicked
 * in the right row (every row has the same buttons), a column sorted, or rows counted.
 */
import { CITIES, LAST_NAMES, WORDS, capitalize, people, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { answerForm, answerScript, esc, js, shell } from './shell.js';


interface PlainSpec {
  rows: Array<{ name: string; email: string; phone: string; city: string }>;
  target: number;
  column: 'email address' | 'phone number';
}

const plainLookup: TaskDef<PlainSpec> = {
  id: 'table-plain-lookup',
  category: 'tables',
  policy: 'tableLookup',
  summary: 'a plain <table> without headers: read an email or phone from the right row',
  generate: (rng) => {
    const names = people(rng, rng.int(6, 9));
    const rows = names.map((name) => ({
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}.${rng.int(10, 99)}@${rng.pick(['mail.test', 'post.test', 'inbox.test'])}`,
      phone: `+1 ${rng.int(200, 989)}-${rng.int(100, 999)}-${rng.int(1000, 9999)}`,
      city: rng.pick(CITIES),
    }));
    return { rows, target: rng.int(0, rows.length - 1), column: rng.pick(['email address', 'phone number'] as const) };
  },
  render: (spec, { episode }) => {
    const row = spec.rows[spec.target]!;
    return shell({
      title: 'Directory',
      episode,
      instruction: `Find the ${spec.column} of ${row.name} in the table and enter it in the Answer field, then press Submit.`,
      body: `<table>${spec.rows.map((r) => `<tr><td>${esc(r.name)}</td><td>${esc(r.email)}</td><td>${esc(r.phone)}</td><td>${esc(r.city)}</td></tr>`).join('')}</table>
${answerForm('Answer')}`,
      script: answerScript(spec.column === 'email address' ? row.email : row.phone),
    });
  },
};

const COLUMNS = ['Department', 'Office', 'Extension', 'Start year'] as const;

interface HeaderSpec {
  rows: Array<Record<string, string>>;
  target: number;
  column: (typeof COLUMNS)[number];
}

const headerLookup: TaskDef<HeaderSpec> = {
  id: 'table-header-lookup',
  category: 'tables',
  policy: 'tableLookup',
  summary: 'a <table> with <th> headers: read the cell under a named column (look-alike numeric columns)',
  generate: (rng) => {
    const rows = people(rng, rng.int(6, 9)).map((name) => ({
      Name: name,
      Department: rng.pick(['Sales', 'Legal', 'Research', 'Support', 'Finance']),
      Office: `${rng.pick(['A', 'B', 'C'])}-${rng.int(100, 399)}`,
      Extension: String(rng.int(2000, 2999)),
      'Start year': String(rng.int(2001, 2024)),
    }));
    return { rows, target: rng.int(0, rows.length - 1), column: rng.pick(['Office', 'Extension', 'Start year'] as const) };
  },
  render: (spec, { episode }) => {
    const row = spec.rows[spec.target]!;
    const columns = ['Name', ...COLUMNS];
    return shell({
      title: 'Staff',
      episode,
      instruction: `Find the ${spec.column} of ${row.Name} in the table and enter it in the Answer field, then press Submit.`,
      body: `<table><thead><tr>${columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead>
<tbody>${spec.rows.map((r) => `<tr>${columns.map((c) => `<td>${esc(r[c]!)}</td>`).join('')}</tr>`).join('')}</tbody></table>
${answerForm('Answer')}`,
      script: answerScript(row[spec.column]!),
    });
  },
};

interface RowActionSpec {
  rows: Array<{ name: string; role: string; status: string }>;
  target: number;
  action: 'Edit' | 'Remove';
}

const rowAction: TaskDef<RowActionSpec> = {
  id: 'table-row-action',
  category: 'tables',
  policy: 'tableRowAction',
  summary: 'click Edit or Remove in one row; every row has the same two buttons',
  generate: (rng) => {
    const rows = people(rng, rng.int(5, 8)).map((name) => ({
      name,
      role: rng.pick(['Owner', 'Editor', 'Viewer']),
      status: rng.pick(['Active', 'Invited', 'Suspended']),
    }));
    return { rows, target: rng.int(0, rows.length - 1), action: rng.pick(['Edit', 'Remove'] as const) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Members',
      episode,
      instruction: `Click "${spec.action}" in the row of ${spec.rows[spec.target]!.name}.`,
      body: `<table><thead><tr><th>Member</th><th>Role</th><th>Status</th><th></th></tr></thead><tbody>
${spec.rows.map((r, i) => `<tr data-i="${i}"><td>${esc(r.name)}</td><td>${esc(r.role)}</td><td>${esc(r.status)}</td><td><button data-a="Edit">Edit</button><button data-a="Remove">Remove</button></td></tr>`).join('\n')}
</tbody></table>`,
      script: `const names = ${js(spec.rows.map((r) => r.name))};
$$('button[data-a]').forEach((button) => button.addEventListener('click', () => {
  const i = Number(button.closest('tr').dataset.i);
  report(i === ${spec.target} && button.dataset.a === ${js(spec.action)}, button.dataset.a + ' on ' + names[i]);
}));`,
    }),
};

interface SortSpec {
  rows: Array<{ item: string; price: number; rating: number }>;
  column: 'Price' | 'Rating';
}

const sortTable: TaskDef<SortSpec> = {
  id: 'table-sort',
  category: 'tables',
  policy: 'tableSort',
  summary: 'sort by a column, highest first, by clicking its header (ascending first)',
  generate: (rng) => {
    const items = rng.sample(WORDS, rng.int(5, 7)).map(capitalize);
    const prices = rng.sample(Array.from({ length: 90 }, (_, i) => i + 5), items.length);
    const ratings = rng.sample([1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 1.0], items.length);
    return { rows: items.map((item, i) => ({ item, price: prices[i]!, rating: ratings[i]! })), column: rng.pick(['Price', 'Rating'] as const) };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Products',
      episode,
      instruction: `Sort the table by ${spec.column}, highest first, then press Done.`,
      body: `<table><thead><tr><th>Item</th><th><button class="sort" data-key="price">Price</button></th><th><button class="sort" data-key="rating">Rating</button></th></tr></thead><tbody id="rows"></tbody></table>
<button id="done">Done</button>`,
      style: 'th button { border: none; background: none; font-weight: bold; padding: 0; }',
      script: `let rows = ${js(spec.rows)};
let sorted = { key: null, dir: 0 };
function draw() {
  $('#rows').innerHTML = rows.map((r) => '<tr><td>' + r.item + '</td><td>$' + r.price + '</td><td>' + r.rating.toFixed(1) + '</td></tr>').join('');
  $$('th').forEach((th) => th.removeAttribute('aria-sort'));
  if (sorted.key) $('button[data-key=' + sorted.key + ']').parentElement.setAttribute('aria-sort', sorted.dir > 0 ? 'ascending' : 'descending');
}
$$('button.sort').forEach((button) => button.addEventListener('click', () => {
  const key = button.dataset.key;
  sorted = { key, dir: sorted.key === key ? -sorted.dir : 1 };
  rows = [...rows].sort((a, b) => (a[key] - b[key]) * sorted.dir);
  draw();
}));
$('#done').addEventListener('click', () => report(sorted.key === ${js(spec.column.toLowerCase())} && sorted.dir < 0, 'sorted by ' + sorted.key + ' ' + (sorted.dir < 0 ? 'descending' : 'ascending')));
draw();`,
    }),
};

interface CountSpec {
  rows: Array<{ order: string; customer: string; status: string }>;
  status: string;
}

const STATUSES = ['Shipped', 'Pending', 'Cancelled', 'Returned'];

const countRows: TaskDef<CountSpec> = {
  id: 'table-count',
  category: 'tables',
  policy: 'tableCount',
  summary: 'count the rows of a plain table that have a given status',
  generate: (rng: Rng) => {
    const rows = Array.from({ length: rng.int(7, 11) }, () => ({ order: `#${rng.int(10000, 99999)}`, customer: rng.pick(LAST_NAMES), status: rng.pick(STATUSES) }));
    return { rows, status: rng.pick(rows).status };
  },
  render: (spec, { episode }) =>
    shell({
      title: 'Orders',
      episode,
      instruction: `How many orders in the table have the status "${spec.status}"? Enter the number in the Count field and press Submit.`,
      body: `<table>${spec.rows.map((r) => `<tr><td>${esc(r.order)}</td><td>${esc(r.customer)}</td><td>${esc(r.status)}</td></tr>`).join('')}</table>
${answerForm('Count')}`,
      script: answerScript(String(spec.rows.filter((r) => r.status === spec.status).length)),
    }),
};

export const TABLE_TASKS: TaskDef[] = [plainLookup, headerLookup, rowAction, sortTable, countRows];
