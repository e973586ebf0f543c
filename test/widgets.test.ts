/**
 * Real widget libraries (installed from npm, served from /modules/): what the agent reads of them and that
 * acting on what it reads works, checked from the widget's own state. Targets are never joined into one line:
 * a date picker's days, a sortable list's items, a calendar's events and fields side by side keep their refs.
 */
import { describe, expect, it } from 'vitest';
import { call, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

const REF = '((?:f\\d+)?e\\d+)';

async function open(name: string): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url(`/fixtures/widgets/${name}`) });
  expect(result.ok, JSON.stringify(result.error)).toBe(true);
  return result.snapshot;
}

/** The ref written before `label` in a line or a grid cell, or a failure showing the snapshot. */
function refBefore(snapshot: string, label: string): string {
  const match = new RegExp(`${REF} (?:clickable |draggable )?${JSON.stringify(label).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).exec(snapshot);
  if (!match) throw new Error(`No ref before ${JSON.stringify(label)} in:\n${snapshot}`);
  return match[1]!;
}

async function pageValue<T>(fn: () => T): Promise<T> {
  const page = await env.browser.page();
  return page.evaluate(fn);
}

describe('date pickers', () => {
  it("flatpickr's month reads as rows of days, each with its ref and state, and a day picks that date", async () => {
    const snap = await open('flatpickr.html');
    // A row per week, the days named by their date, the chosen one selected, those before minDate disabled.
    expect(snap).toMatch(new RegExp(`^\\s+\\| ${REF} "March 10, 2024" \\| ${REF} "March 11, 2024" \\|.*${REF} "March 14, 2024" selected \\|`, 'm'));
    expect(snap).toMatch(new RegExp(`${REF} "March 4, 2024" disabled \\|`));
    expect(snap).toMatch(new RegExp(`${REF} "April 1, 2024" other month \\|`));
    expect(snap).toMatch(new RegExp(`^\\s+\\| ${REF} "Sun" \\| ${REF} "Mon" \\|`, 'm'));
    expect(snap).not.toMatch(/SunMonTue/);
    // The next-month arrow has no text, but a ref.
    expect(snap).toMatch(new RegExp(`^\\s+${REF} clickable icon="[^"]*next month"`, 'm'));
    const clicked = await call(env.browser, 'browser_click', { ref: refBefore(snap, 'March 21, 2024') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await pageValue(() => (window as any).fp.selectedDates.map((d: Date) => d.getDate()))).toEqual([21]);
  });

  it("vanillajs-datepicker's days are cells of their own, not a run of digits", async () => {
    const snap = await open('vanilla-datepicker.html');
    expect(snap).not.toMatch(/252627/);
    expect(snap).toMatch(new RegExp(`\\| ${REF} "13" \\| ${REF} "14" selected \\| ${REF} "15" \\|`));
    const row = new RegExp(`\\| ${REF} "20" \\|`).exec(snap);
    expect(row, snap).not.toBeNull();
    const clicked = await call(env.browser, 'browser_click', { ref: row![1]! });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await pageValue(() => (window as any).dp.getDate().getDate())).toBe(20);
  });
});

describe('lists and calendars', () => {
  it("a sortable list's items each keep a line and a ref", async () => {
    const snap = await open('sortable-list.html');
    expect(snap).not.toContain(' · ');
    const items = ['Plan sprint demo', 'Review pull requests', 'Refresh test data', 'Write release notes'].map((name) => refBefore(snap, name));
    expect(new Set(items).size).toBe(4);
    expect(await (await env.browser.locator(items[2]!))!.getAttribute('data-id')).toBe('c');
  });

  it("a board's cards styled to be grabbed are draggable, an empty column is a drop zone, and a card moves there", async () => {
    const snap = await open('board.html');
    const card = new RegExp(`^${REF} draggable "Fix login bug"$`, 'm').exec(snap);
    const zone = new RegExp(`^${REF} dropzone icon="done"$`, 'm').exec(snap);
    expect(card, snap).not.toBeNull();
    expect(zone, snap).not.toBeNull();
    expect(snap).toMatch(new RegExp(`^${REF} draggable "Write changelog"\n${REF} draggable "Tag release"$`, 'm'));
    const dragged = await call(env.browser, 'browser_drag', { from: card![1]!, to: zone![1]! });
    expect(dragged.ok, JSON.stringify(dragged.error)).toBe(true);
    expect(await pageValue(() => (window as any).columnOf(3))).toBe('done');
  });

  it("a month calendar's events are shown in their day, each with a ref that opens it", async () => {
    const snap = await open('fullcalendar.html');
    const week = snap.split('\n').find((line) => line.includes('"March 20, 2024"'));
    expect(week, snap).toMatch(new RegExp(`"March 20, 2024" ${REF} clickable "Offsite"`));
    const clicked = await call(env.browser, 'browser_click', { ref: refBefore(snap, '2p Design review') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await pageValue(() => document.getElementById('out')!.textContent)).toBe('Opened Design review');
  });
});

describe('calendars drawn as positioned boxes', () => {
  it("a week view's events sit in their day's column, each with its ref, and the columns stay apart", async () => {
    const snap = await open('fullcalendar.html?view=timeGridWeek&date=2024-03-12');
    expect(snap).toMatch(new RegExp(`^\\s+${REF} gridcell:\\n\\s+${REF} clickable "9:00 · Standup"\\n\\s+${REF} clickable "2:00 - 3:30 · Design review"$`, 'm'));
    expect(snap).not.toMatch(/e\d+, e\d+ gridcell/);
    const clicked = await call(env.browser, 'browser_click', { ref: refBefore(snap, '2:00 - 3:30 · Design review') });
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
    expect(await pageValue(() => document.getElementById('out')!.textContent)).toBe('Opened Design review');
  });
});

describe('data grids', () => {
  it("Tabulator's rows read as cells, its resize grips are named once on the grid's line, and a sorted column says so", async () => {
    const snap = await open('people-grid.html');
    expect(snap).toMatch(new RegExp(`^\\s+\\| ${REF} "Person 0" \\| ${REF} "20" \\| ${REF} "Oslo" \\|$`, 'm'));
    expect(snap).toMatch(new RegExp(`^${REF} grid \\(3 cols, resize grips ${REF} ${REF} ${REF}\\):$`, 'm'));
    expect(snap).toMatch(new RegExp(`^\\s+\\| ${REF} "Name" \\| ${REF} "Age" \\| ${REF} "City" \\|$`, 'm'));
    const sorted = await call(env.browser, 'browser_click', { ref: refBefore(snap, 'Age') });
    expect(sorted.ok, JSON.stringify(sorted.error)).toBe(true);
    const after = await call(env.browser, 'browser_snapshot', {});
    expect(after.snapshot).toMatch(new RegExp(`\\| ${REF} "Age" sorted (ascending|descending) \\|`));
  });
});

describe('fields side by side', () => {
  it('three unnamed fields and two checkboxes keep a line each; two links to one place share one', async () => {
    const snap = await open('fields.html');
    expect(snap).toMatch(new RegExp(`^${REF} textbox\\n${REF} textbox\\n${REF} textbox$`, 'm'));
    expect(snap).toMatch(new RegExp(`^${REF} checkbox\\n${REF} checkbox$`, 'm'));
    expect(snap).toMatch(new RegExp(`^${REF}, ${REF} link "Ada"$`, 'm'));
    const third = new RegExp(`^${REF} textbox\\n${REF} textbox\\n${REF} textbox$`, 'm').exec(snap)![3]!;
    const typed = await call(env.browser, 'browser_type', { ref: third, text: '4567' });
    expect(typed.ok, JSON.stringify(typed.error)).toBe(true);
    expect(await pageValue(() => [...document.querySelectorAll('input[size]')].map((i) => (i as HTMLInputElement).value))).toEqual(['', '', '4567']);
  });
});
