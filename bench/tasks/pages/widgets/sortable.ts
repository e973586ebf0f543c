/**
 * Real sortable lists: SortableJS (HTML5 drag and drop), jQuery UI's sortable (mouse events) and dragula
 * (mouse events, a mirror that follows the pointer). The wanted item starts below the one it must come
 * before, so dropping it onto that item is the move a person makes. The verdict on Save reads the order
 * from the library (Sortable's toArray(), jQuery UI's sortable('toArray')) or, for dragula, which keeps
 * no order of its own, from its container.
 */
import { FRUITS, type Rng } from '../../random.js';
import type { TaskDef } from '../../types.js';
import { esc, js, shell } from '../shell.js';
import { css, script } from './assets.js';

export interface SortSpec {
  items: string[];
  /** The item to move, and the item it must end up right before (which starts above it). */
  move: string;
  before: string;
}

function generate(rng: Rng): SortSpec {
  const items = rng.sample(FRUITS, 6);
  const to = rng.int(0, 3);
  const from = rng.int(to + 2, items.length - 1);
  return { items, move: items[from]!, before: items[to]! };
}

/** The order after the move, as the page expects it. */
export function expectedOrder(spec: SortSpec): string[] {
  const rest = spec.items.filter((item) => item !== spec.move);
  rest.splice(rest.indexOf(spec.before), 0, spec.move);
  return rest;
}

const STYLE = `
#fruits { list-style: none; padding: 0; width: 260px; }
#fruits li { border: 1px solid #bbb; background: #f8f8f8; padding: 8px 10px; margin: 4px 0; cursor: move; user-select: none; }`;

function sortPage(id: string, summary: string, assets: string, setup: string): TaskDef<SortSpec> {
  return {
    id,
    category: 'sortable lists',
    policy: 'dragBefore',
    summary,
    generate,
    render: (spec, { episode }) =>
      shell({
        title: 'Reorder',
        episode,
        instruction: `Move "${spec.move}" so that it comes right before "${spec.before}" in the list, then press Save.`,
        style: STYLE,
        body: `${assets}
<h3 id="fruits-label">Fruit order</h3>
<ul id="fruits" aria-labelledby="fruits-label">${spec.items.map((item) => `<li id="${esc(item)}" data-id="${esc(item)}">${esc(item)}</li>`).join('')}</ul>
<button id="save">Save</button>`,
        script: `
const EXPECTED = ${js(expectedOrder(spec))};
${setup}
$('#save').addEventListener('click', () => {
  const order = currentOrder();
  report(JSON.stringify(order) === JSON.stringify(EXPECTED), 'order ' + order.join(', '));
});`,
      }),
  };
}

const sortableTask = sortPage(
  'real-sortablejs',
  'SortableJS 1.15: list items dragged with native HTML5 drag and drop; order from toArray()',
  script('sortablejs/Sortable.min.js'),
  `const sortable = Sortable.create($('#fruits'), { animation: 0 });
const currentOrder = () => sortable.toArray();`,
);

const jqueryUiTask = sortPage(
  'real-jqueryui-sortable',
  "jQuery UI 1.14 sortable: mouse-event dragging with a placeholder; order from sortable('toArray')",
  `${script('jquery/dist/jquery.min.js')}${script('jquery-ui/dist/jquery-ui.min.js')}`,
  `jQuery('#fruits').sortable();
const currentOrder = () => jQuery('#fruits').sortable('toArray');`,
);

const dragulaTask = sortPage(
  'real-dragula',
  'dragula 3.7: mouse-event dragging with a mirror element; order read from its container',
  `${css('dragula/dist/dragula.min.css')}${script('dragula/dist/dragula.min.js')}`,
  `const drake = dragula([$('#fruits')]);
const currentOrder = () => [...drake.containers[0].children].map((li) => li.dataset.id);`,
);

export const SORTABLE_TASKS: TaskDef[] = [sortableTask, jqueryUiTask, dragulaTask];
