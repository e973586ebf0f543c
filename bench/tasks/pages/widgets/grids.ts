/**
 * Data grids with virtual rows: AG Grid and Tabulator render only the rows near their viewport, so the
 * wanted row is not in the page until the grid is scrolled. Verdicts read the grid's own data and state
 * (AG Grid's getRowNode() and getSelectedRows(), Tabulator's getData() and getSorters()).
 */
import { CITIES, people, type Rng } from '../../random.js';
import type { TaskDef } from '../../types.js';
import { js, shell } from '../shell.js';
import { css, script } from './assets.js';

interface Person {
  id: string;
  name: string;
  email: string;
  city: string;
  price: number;
}

export interface GridSpec {
  rows: Person[];
  /** Index of the wanted row: far enough down that the grid has not drawn it at first. */
  target: number;
  column: 'Email' | 'City';
}

function generate(rng: Rng): GridSpec {
  const rows = people(rng, 80).map((name, i) => ({
    id: `p${i + 1}`,
    name,
    email: `${name.toLowerCase().replace(' ', '.')}${rng.int(1, 99)}@example.org`,
    city: rng.pick(CITIES),
    price: rng.int(100, 9_999),
  }));
  return { rows, target: rng.int(30, 70), column: rng.pick(['Email', 'City'] as const) };
}

const COLUMNS = [
  { field: 'name', title: 'Name' },
  { field: 'email', title: 'Email' },
  { field: 'city', title: 'City' },
  { field: 'price', title: 'Price' },
];

const ANSWER = `<label for="answer">Answer</label><input id="answer" autocomplete="off"> <button id="go">Submit</button>`;

const lookupInstruction = (spec: GridSpec) =>
  `Find the ${spec.column} of ${spec.rows[spec.target]!.name} in the table and enter it in the Answer field, then press Submit.`;

/** The verdict of a lookup: the answer must equal the wanted cell as the grid holds it (`rowData(id)`). */
const lookupVerdict = (spec: GridSpec) => `
$('#go').addEventListener('click', () => {
  const row = rowData(${js(spec.rows[spec.target]!.id)});
  const answer = $('#answer').value.trim();
  report(!!row && answer === String(row[${js(spec.column.toLowerCase())}]), 'answer ' + JSON.stringify(answer));
});`;

const AG_GRID = script('ag-grid-community/dist/ag-grid-community.min.js');
/** AG Grid's UMD build registers no features by default; the page turns on all community ones. */
const agGridSetup = (spec: GridSpec, extra: string) => `
agGrid.ModuleRegistry.registerModules([agGrid.AllCommunityModule]);
const api = agGrid.createGrid($('#grid'), {
  columnDefs: ${js(COLUMNS.map((c) => ({ field: c.field, headerName: c.title })))},
  rowData: ${js(spec.rows)},
  getRowId: (params) => params.data.id,
  ${extra}
});
const rowData = (id) => api.getRowNode(id)?.data;`;

const agGridLookup: TaskDef<GridSpec> = {
  id: 'real-aggrid-lookup',
  category: 'data grids',
  policy: 'tableLookup',
  summary: 'AG Grid 36 (community), 80 rows with row virtualisation: read a cell of a row that is not drawn at first',
  generate,
  render: (spec, { episode }) =>
    shell({
      title: 'Customers',
      episode,
      instruction: lookupInstruction(spec),
      body: `${AG_GRID}<div id="grid" style="height: 400px; width: 700px"></div>${ANSWER}`,
      script: agGridSetup(spec, '') + lookupVerdict(spec),
    }),
};

const agGridSelect: TaskDef<GridSpec> = {
  id: 'real-aggrid-select',
  category: 'data grids',
  policy: 'selectRow',
  summary: 'AG Grid 36 (community), 80 virtual rows, single-row selection by click: select a row not drawn at first',
  generate,
  render: (spec, { episode }) =>
    shell({
      title: 'Customers',
      episode,
      instruction: `Select the row of ${spec.rows[spec.target]!.name} in the grid, then press Save.`,
      body: `${AG_GRID}<div id="grid" style="height: 400px; width: 700px"></div><button id="save">Save</button>`,
      script:
        agGridSetup(spec, `rowSelection: { mode: 'singleRow', checkboxes: false, enableClickSelection: true },`) +
        `
$('#save').addEventListener('click', () => {
  const selected = api.getSelectedRows().map((row) => row.name);
  report(selected.length === 1 && selected[0] === ${js(spec.rows[spec.target]!.name)}, 'selected ' + selected.join(', '));
});`,
    }),
};

const TABULATOR = `${css('tabulator-tables/dist/css/tabulator.min.css')}${script('tabulator-tables/dist/js/tabulator.min.js')}`;
const tabulatorSetup = (spec: GridSpec) => `
const table = new Tabulator('#grid', {
  height: 400,
  layout: 'fitColumns',
  data: ${js(spec.rows)},
  columns: ${js(COLUMNS)},
});
const rowData = (id) => table.getData().find((row) => row.id === id);`;

const tabulatorLookup: TaskDef<GridSpec> = {
  id: 'real-tabulator-lookup',
  category: 'data grids',
  policy: 'tableLookup',
  summary: 'Tabulator 6, 80 rows in its virtual DOM (div rows and cells with ARIA roles): read a cell of a row not drawn at first',
  generate,
  render: (spec, { episode }) =>
    shell({
      title: 'Customers',
      episode,
      instruction: lookupInstruction(spec),
      body: `${TABULATOR}<div id="grid" style="width: 700px"></div>${ANSWER}`,
      script: tabulatorSetup(spec) + lookupVerdict(spec),
    }),
};

const tabulatorSort: TaskDef<GridSpec> = {
  id: 'real-tabulator-sort',
  category: 'data grids',
  policy: 'tableSort',
  summary: "Tabulator 6: sort by a column by clicking its header until it is descending; verdict from getSorters()",
  generate,
  render: (spec, { episode }) =>
    shell({
      title: 'Customers',
      episode,
      instruction: 'Sort the table by Price, highest first, then press Done.',
      body: `${TABULATOR}<div id="grid" style="width: 700px"></div><button id="done">Done</button>`,
      script:
        tabulatorSetup(spec) +
        `
$('#done').addEventListener('click', () => {
  const sorters = table.getSorters().map((s) => s.field + ' ' + s.dir);
  report(sorters.length === 1 && sorters[0] === 'price desc', 'sorted by ' + (sorters.join(', ') || 'nothing'));
});`,
    }),
};

export const GRID_TASKS: TaskDef[] = [agGridLookup, agGridSelect, tabulatorLookup, tabulatorSort];
