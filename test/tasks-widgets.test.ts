/**
 * The task suite on real widget libraries (bench/tasks/pages/widgets): every page loads its library from
 * the task server's /modules/ route and judges itself from the widget's own state. Each task is solved here
 * with direct Playwright actions from its spec (the agent never sees the spec), and a wrong answer fails.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKS } from '../bench/tasks/pages/index.js';
import { WIDGET_TASKS } from '../bench/tasks/pages/widgets/index.js';
import { expectedOrder, type SortSpec } from '../bench/tasks/pages/widgets/sortable.js';
import { specOf, startTaskServer, type TaskServer } from '../bench/tasks/server.js';
import { findBrowser } from '../src/index.js';
import { OFFLINE_ARGS } from './helpers/server.js';

let server: TaskServer;
let browser: Browser;
let page: Page;
let episodes = 0;

beforeAll(async () => {
  server = await startTaskServer(TASKS);
  browser = await chromium.launch({ executablePath: (await findBrowser({})).executablePath, args: OFFLINE_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a task page in a fresh tab for a new episode; returns the episode id and the page's spec. */
async function open<S>(id: string, seed = 1): Promise<{ episode: string; spec: S }> {
  const task = TASKS.find((t) => t.id === id)!;
  await page?.close();
  page = await browser.newPage();
  const episode = `widget-${++episodes}`;
  await page.goto(server.taskUrl(id, seed, episode));
  return { episode, spec: specOf(task, seed) as S };
}

async function verdictOf(episode: string) {
  await expect.poll(() => server.verdict(episode), { timeout: 5_000 }).toBeDefined();
  return server.verdict(episode)!;
}

type DateSpec = { target: { year: number; month: number; day: number } };
const isoDate = (t: DateSpec['target']) => `${t.year}-${String(t.month + 1).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;

describe('real widget tasks', () => {
  it('are at least 20 on at least 10 libraries, and every library file loads', async () => {
    expect(WIDGET_TASKS.length).toBeGreaterThanOrEqual(20);
    const libraries = new Set<string>();
    for (const task of WIDGET_TASKS) {
      const html = task.render(specOf(task, 1), { page: 'main', episode: 'x', url: () => '/', otherSite: () => '/', fileUrl: () => '/' });
      for (const [, path] of html.matchAll(/(?:src|href)="\/modules\/([^"]+)"/g)) {
        libraries.add(path!.startsWith('@') ? path!.split('/').slice(0, 2).join('/') : path!.split('/')[0]!);
        const response = await fetch(`${server.origin}/modules/${path}`);
        expect(response.status, path).toBe(200);
      }
    }
    expect(libraries.size).toBeGreaterThanOrEqual(10);
  });

  it('date pickers judge the date the library holds', async () => {
    const setters: Record<string, string> = {
      'real-flatpickr': 'picker.setDate(DATE)',
      'real-pikaday': 'picker.setDate(DATE)',
      'real-vanillajs-datepicker': 'picker.setDate(DATE)',
      'real-air-datepicker': 'picker.selectDate(DATE)',
      'real-jqueryui-datepicker': "jQuery('#date').datepicker('setDate', DATE)",
    };
    for (const [id, setter] of Object.entries(setters)) {
      for (const wrong of [false, true]) {
        const { episode, spec } = await open<DateSpec>(id, wrong ? 2 : 1);
        const { year, month, day } = spec.target;
        await page.evaluate(`(() => { const DATE = new Date(${year}, ${month}, ${wrong ? day + 1 : day}); ${setter}; })()`);
        await page.getByRole('button', { name: 'Submit' }).click();
        expect(await verdictOf(episode), id).toMatchObject({ success: !wrong });
      }
    }
  });

  it('sortable lists judge the order the library reports after a real drag', async () => {
    for (const id of ['real-sortablejs', 'real-jqueryui-sortable', 'real-dragula']) {
      const { episode, spec } = await open<SortSpec>(id);
      expect(expectedOrder(spec)).not.toEqual(spec.items);
      await page.locator(`li[data-id="${spec.move}"]`).dragTo(page.locator(`li[data-id="${spec.before}"]`));
      await page.getByRole('button', { name: 'Save' }).click();
      expect(await verdictOf(episode), id).toMatchObject({ success: true });
    }
    const untouched = await open<SortSpec>('real-sortablejs', 2);
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await verdictOf(untouched.episode)).toMatchObject({ success: false });
  });

  it("editors judge the text from the editor's API, in the page and in TinyMCE's iframe", async () => {
    const quill = await open<{ sentence: string }>('real-quill');
    await page.locator('.ql-editor').click();
    await page.keyboard.type(quill.spec.sentence);
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await verdictOf(quill.episode)).toMatchObject({ success: true });

    const tiny = await open<{ sentence: string }>('real-tinymce');
    await page.frameLocator('iframe').locator('body').click();
    await page.keyboard.type(tiny.spec.sentence.slice(0, -1));
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await verdictOf(tiny.episode)).toMatchObject({ success: false, detail: expect.stringContaining(tiny.spec.sentence.slice(0, -1)) });
  });

  it('web components judge their elements’ checked and value properties', async () => {
    type Toggles = { changes: Array<{ name: string; on: boolean }> };
    for (const [id, tag] of [['real-shoelace-switch', 'sl-switch'], ['real-ionic-toggle', 'ion-toggle']] as const) {
      const { episode, spec } = await open<Toggles>(id);
      for (const change of spec.changes) await page.locator(`${tag}[data-name="${change.name}"]`).click();
      await page.locator('#save').click();
      expect(await verdictOf(episode), id).toMatchObject({ success: true });
    }
    type Ticks = { options: Array<{ name: string; on: boolean }>; wanted: string[] };
    const ticks = await open<Ticks>('real-ionic-checkbox');
    for (const option of ticks.spec.options) {
      if (option.on !== ticks.spec.wanted.includes(option.name)) await page.locator(`ion-checkbox[data-name="${option.name}"]`).click();
    }
    await page.locator('#go').click();
    expect(await verdictOf(ticks.episode)).toMatchObject({ success: true });

    const select = await open<{ answer: string }>('real-shoelace-select');
    await page.locator('sl-select').click();
    await page.locator('sl-option', { hasText: select.spec.answer }).click();
    await page.locator('#save').click();
    expect(await verdictOf(select.episode)).toMatchObject({ success: true });
  });

  it('data grids judge against the grid’s data, selection and sorters', async () => {
    type Grid = { rows: Array<Record<string, string>>; target: number; column: string };
    for (const id of ['real-aggrid-lookup', 'real-tabulator-lookup']) {
      const { episode, spec } = await open<Grid>(id);
      // The wanted row is not drawn until the grid scrolls: the virtualisation the task is about.
      await page.getByText(spec.rows[0]!.name!, { exact: true }).waitFor();
      expect(await page.getByText(spec.rows[spec.target]!.name!, { exact: true }).count()).toBe(0);
      await page.getByLabel('Answer').fill(spec.rows[spec.target]![spec.column.toLowerCase()]!);
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await verdictOf(episode), id).toMatchObject({ success: true });
    }
    const select = await open<Grid>('real-aggrid-select');
    await page.evaluate(`api.ensureIndexVisible(${select.spec.target})`);
    await page.getByText(select.spec.rows[select.spec.target]!.name!, { exact: true }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await verdictOf(select.episode)).toMatchObject({ success: true });

    const sort = await open('real-tabulator-sort');
    await page.locator('.tabulator-col[tabulator-field="price"]').click();
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await verdictOf(sort.episode)).toMatchObject({ success: false, detail: 'sorted by price asc' });
  });

  it('calendars judge the date and event FullCalendar reports', async () => {
    const day = await open<DateSpec>('real-fullcalendar-day');
    await page.evaluate(`calendar.gotoDate(${JSON.stringify(isoDate(day.spec.target))})`);
    await page.locator(`td[data-date="${isoDate(day.spec.target)}"]`).click();
    expect(await verdictOf(day.episode)).toMatchObject({ success: true });

    type Events = { month: { year: number; month: number }; events: Array<{ title: string }>; target: number };
    const event = await open<Events>('real-fullcalendar-event');
    await page.evaluate(`calendar.gotoDate(${JSON.stringify(isoDate({ ...event.spec.month, day: 1 }))})`);
    await page.locator('.fc-event', { hasText: event.spec.events[event.spec.target]!.title }).click();
    expect(await verdictOf(event.episode)).toMatchObject({ success: true });
  });

  it('searchable selects judge the value the library holds', async () => {
    type Choice = { prefix: string; answer: string };
    // Both libraries filter their list a while after the last key; a filtering still to come when an option is
    // chosen opens the list again, over the Submit button. So each waits for the filtering of what was typed.
    for (const id of ['real-tomselect', 'real-tomselect-multi']) {
      const { episode, spec } = await open<Choice>(id);
      await page.locator('.ts-control input').pressSequentially(spec.prefix);
      await expect.poll(() => page.evaluate(`!document.querySelector('select').tomselect.refreshTimeout`)).toBe(true);
      await page.locator('.ts-dropdown .option', { hasText: new RegExp(`^${spec.answer}$`) }).click();
      await page.getByRole('button', { name: 'Submit' }).click();
      expect(await verdictOf(episode), id).toMatchObject({ success: true });
    }
    // jQuery UI's search of what was typed has run once its term is that text.
    const searched = (term: string) => expect.poll(() => page.evaluate(`jQuery('#city').autocomplete('instance').term`)).toBe(term);
    const jq = await open<Choice>('real-jqueryui-autocomplete');
    await page.locator('#city').pressSequentially(jq.spec.prefix);
    await searched(jq.spec.prefix);
    await page.locator('.ui-menu-item', { hasText: new RegExp(`^${jq.spec.answer}$`) }).click();
    await expect.poll(() => page.locator('.ui-autocomplete').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await verdictOf(jq.episode)).toMatchObject({ success: true });

    // The whole name typed, no suggestion chosen: the menu it opens is closed with Escape, as a person would.
    const typed = await open<Choice>('real-jqueryui-autocomplete', 2);
    await page.locator('#city').fill(typed.spec.answer);
    await searched(typed.spec.answer);
    await page.locator('#city').press('Escape');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await verdictOf(typed.episode)).toMatchObject({ success: false });
  });

  it('modal forms judge the fields the dialog holds on Save', async () => {
    type Profile = { wanted: { name: string; city: string }; fields: Array<'Name' | 'City'> };
    for (const id of ['real-jqueryui-dialog', 'real-shoelace-dialog']) {
      const { episode, spec } = await open<Profile>(id);
      await page.locator('#open').click();
      for (const field of spec.fields) await page.getByRole('textbox', { name: field }).fill(field === 'Name' ? spec.wanted.name : spec.wanted.city);
      await page.getByRole('button', { name: 'Save' }).click();
      expect(await verdictOf(episode), id).toMatchObject({ success: true });
    }
  });

  it('the API explorer judges the request Swagger UI sends', async () => {
    const { episode, spec } = await open<{ operation: number; value: string }>('real-swagger-ui');
    const [, path, param] = /call GET (\S+) with (\w+) /.exec((await page.locator('#query').textContent())!)!;
    await page.locator(`.opblock-summary-path[data-path="${path}"]`).click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.locator(`input[placeholder="${param}"]`).fill(spec.value);
    await page.getByRole('button', { name: 'Execute' }).click();
    expect(await verdictOf(episode)).toMatchObject({ success: true });
  });
});
