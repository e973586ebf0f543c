import { describe, expect, it } from 'vitest';
import { call, useServerAndBrowser } from './helpers/toolset.js';

// The components' modules are many small files: more time than the default for a machine under load.
const env = useServerAndBrowser({ allowEvaluate: true, timeout: 10_000, navigationTimeout: 20_000 });

/** The page once its components have rendered (Ionic and Shoelace define and draw their elements after load). */
async function openComponents(): Promise<string> {
  const result = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/widgets/web-components.html') });
  expect(result.ok, JSON.stringify(result)).toBe(true);
  const ready = await call(env.browser, 'browser_evaluate', {
    script: `await Promise.all([...document.querySelectorAll('*')].filter((el) => el.localName.includes('-')).map(async (el) => {
      await customElements.whenDefined(el.localName);
      await (el.componentOnReady?.() ?? el.updateComplete);
    }));
    return true`,
  });
  expect(ready.ok, JSON.stringify(ready)).toBe(true);
  return (await call(env.browser, 'browser_snapshot', {})).snapshot;
}

/** The ref of a control's line, also where it follows its wrapper's ref (`e5 clickable > e6 switch "Gift wrap"`). */
function refOf(snapshot: string, role: string, name: string): string {
  const match = new RegExp(`((?:f\\d+)?e\\d+) ${role} ${JSON.stringify(name)}`).exec(snapshot);
  if (!match) throw new Error(`No ${role} "${name}" in snapshot:\n${snapshot}`);
  return match[1]!;
}

async function checked(id: string): Promise<boolean> {
  const result = await call(env.browser, 'browser_evaluate', { script: `document.getElementById(${JSON.stringify(id)}).checked` });
  return JSON.parse(result.result);
}

describe('controls inside web components', () => {
  it('are named by the label the page shows, never by generated ids', async () => {
    const snap = await openComponents();
    // Slotted text (Ionic, Shoelace), a label attribute, aria-label on the host, a <label> around the host,
    // aria-labelledby on the host pointing outside it.
    for (const [role, name] of [
      ['switch', 'Gift wrap'],
      ['checkbox', 'Agree to terms'],
      ['textbox', 'Gift message'],
      ['switch', 'Express delivery'],
      ['switch', 'Newsletter'],
      ['checkbox', 'Remember me'],
      ['textbox', 'Nickname'],
      ['switch', 'Receipt by mail'],
      ['checkbox', 'Insure the parcel'],
    ] as const) {
      expect(snap, `${role} "${name}"`).toMatch(new RegExp(`(?:f\\d+)?e\\d+ ${role} "${name}"`));
    }
    expect(snap).not.toMatch(/ion[ -](tg|cb|input)[ -]\d/);
    expect(snap).not.toMatch(/sl btn 3/);
    expect(snap).toMatch(/^(?:f\d+)?e\d+ button$/m);
    expect(snap).not.toMatch(/icon="item native"/);
  });

  it('toggle when their ref is clicked, and show their state', async () => {
    const snap = await openComponents();
    for (const [role, name, id] of [
      ['switch', 'Gift wrap', 'gift'],
      ['checkbox', 'Agree to terms', 'terms'],
      ['switch', 'Newsletter', 'news'],
      ['checkbox', 'Remember me', 'remember'],
      ['switch', 'Receipt by mail', 'receipt'],
      ['checkbox', 'Insure the parcel', 'insure'],
    ] as const) {
      const ref = refOf(snap, role, name);
      const clicked = await call(env.browser, 'browser_click', { ref });
      expect(clicked.ok, JSON.stringify(clicked)).toBe(true);
      expect(await checked(id), `${role} "${name}" after a click`).toBe(true);
      const after = (await call(env.browser, 'browser_snapshot', {})).snapshot;
      expect(after).toMatch(new RegExp(`${ref} ${role} "${name}" checked`));
    }
  });

  it('are set by browser_check through the label that stands for them', async () => {
    const snap = await openComponents();
    const news = refOf(snap, 'switch', 'Newsletter');
    expect(await call(env.browser, 'browser_check', { ref: news, checked: true })).toMatchObject({ ok: true, checked: true });
    expect(await checked('news')).toBe(true);
    expect(await call(env.browser, 'browser_check', { ref: news, checked: false })).toMatchObject({ ok: true, checked: false });
    expect(await checked('news')).toBe(false);
  });

  it('take typing into a labelled input of a component', async () => {
    const snap = await openComponents();
    const typed = await call(env.browser, 'browser_type', { ref: refOf(snap, 'textbox', 'Nickname'), text: 'Ada' });
    expect(typed).toMatchObject({ ok: true, fieldValue: 'Ada' });
    const value = await call(env.browser, 'browser_evaluate', { script: "document.getElementById('nick').value" });
    expect(JSON.parse(value.result)).toBe('Ada');
  });
});
