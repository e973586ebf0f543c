import { Agent } from '@mastra/core/agent';
import { expect, it } from 'vitest';
import { scriptedModel, type ToolResultSeen } from './helpers/scriptedModel.js';
import { createTestToolset, refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

it('a Mastra Agent signs up through the tools: the env.server receives the form and the model sees structured results', async () => {
  const seenByModel: ToolResultSeen[][] = [];
  // The "model" reads refs out of the snapshot text it was given, as an LLM would.
  const model = scriptedModel((results, turn) => {
    seenByModel.push(results);
    const last = results.at(-1);
    switch (turn) {
      case 0:
        return { tools: [{ name: 'browser_navigate', input: { url: env.server.url('/fixtures/form.html') } }] };
      case 1: {
        const snapshot: string = last!.output.snapshot;
        return {
          tools: [
            { name: 'browser_type', input: { ref: refOf(snapshot, 'textbox', 'Full name *'), text: 'Ada Lovelace' } },
            { name: 'browser_type', input: { ref: refOf(snapshot, 'textbox', 'Email *'), text: 'ada@example.com' } },
            { name: 'browser_type', input: { ref: refOf(snapshot, 'textbox', 'Password *'), text: 'correct horse' } },
            { name: 'browser_click', input: { ref: refOf(snapshot, 'checkbox', 'I accept the terms') } },
          ],
        };
      }
      case 2:
        return { tools: [{ name: 'browser_snapshot', input: {} }] };
      case 3:
        return { tools: [{ name: 'browser_click', input: { ref: refOf(last!.output.snapshot, 'button', 'Create account') } }] };
      default:
        return { text: `Done: ${last!.output.url}` };
    }
  });

  const agent = new Agent({
    id: 'web',
    name: 'web',
    instructions: 'You use a web env.browser to complete tasks.',
    model,
    tools: env.browser.tools,
  });
  const result = await agent.generate('Sign up as Ada Lovelace on the local site.', { maxSteps: 8 });

  // The page really changed: the env.server got the form with every value.
  expect(env.server.submissions).toHaveLength(1);
  expect(env.server.submissions[0]!.fields).toEqual({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    password: 'correct horse',
    plan: 'pro',
    terms: 'yes',
    code: 'WELCOME',
    q: '',
  });
  expect(result.text).toBe(`Done: ${env.server.url('/submit')}`);

  // What the model received are the structured results, not stack traces or strings.
  const final = seenByModel.at(-1)!;
  expect(final.map((r) => r.toolName)).toEqual([
    'browser_navigate',
    'browser_type',
    'browser_type',
    'browser_type',
    'browser_click',
    'browser_snapshot',
    'browser_click',
  ]);
  expect(final[0]!.output).toMatchObject({ ok: true, status: 200, title: 'Create your account' });
  expect(final[3]!.output).toMatchObject({ ok: true, fieldValue: '••••••' });
  expect(final[5]!.output.snapshot).toMatch(/checkbox "I accept the terms" checked/);
  expect(final[6]!.output).toMatchObject({ ok: true, navigated: true, url: env.server.url('/submit') });
  expect(JSON.stringify(final)).not.toContain('correct horse');
});

it('a tool error reaches the model as a structured result and the agent recovers', async () => {
  const model = scriptedModel((results, turn) => {
    const last = results.at(-1);
    if (turn === 0) return { tools: [{ name: 'browser_navigate', input: { url: 'javascript:alert(1)' } }] };
    if (turn === 1) {
      expect(last!.output).toMatchObject({ ok: false, error: { code: 'invalid_input', retryable: false } });
      return { tools: [{ name: 'browser_navigate', input: { url: env.server.url('/fixtures/list.html') } }] };
    }
    return { text: last!.output.ok ? 'recovered' : 'failed' };
  });
  const agent = new Agent({ id: 'web2', name: 'web2', instructions: 'Browse.', model, tools: env.browser.tools });
  const result = await agent.generate('Open the list.', { maxSteps: 5 });
  expect(result.text).toBe('recovered');
});

it('a multi-step task with select, check, a prompt dialog and tabs runs through the agent loop', async () => {
  const seen: ToolResultSeen[][] = [];
  const model = scriptedModel((results, turn) => {
    seen.push(results);
    const last = results.at(-1)?.output;
    switch (turn) {
      case 0:
        return { tools: [{ name: 'browser_navigate', input: { url: env.server.url('/fixtures/widgets.html') } }] };
      case 1:
        return { tools: [{ name: 'browser_snapshot', input: { scope: 'page' } }] };
      case 2: {
        const snap: string = last.snapshot;
        return {
          tools: [
            { name: 'browser_select', input: { ref: refOf(snap, 'combobox', 'Size'), labels: ['Large'] } },
            { name: 'browser_check', input: { ref: refOf(snap, 'checkbox', 'Send me news'), checked: true } },
            { name: 'browser_click', input: { ref: refOf(snap, 'button', 'Rename') } },
          ],
        };
      }
      case 3:
        // The click left a prompt open; answer it.
        return { tools: [{ name: 'browser_dialog', input: { accept: true, text: 'Big order' } }] };
      case 4:
        return { tools: [{ name: 'browser_tabs', input: { action: 'new', url: env.server.url('/fixtures/page-b.html') } }] };
      case 5:
        return { tools: [{ name: 'browser_tabs', input: { action: 'switch', index: 0 } }] };
      default:
        return { text: last.snapshot.includes('Name: Big order') ? 'renamed' : 'not renamed' };
    }
  });
  const agent = new Agent({ id: 'web3', name: 'web3', instructions: 'Browse.', model, tools: env.browser.tools });
  const result = await agent.generate('Order a large pizza with news, rename it, then open page B.', { maxSteps: 10 });

  const results = seen.at(-1)!;
  const byTool = (name: string) => results.filter((r) => r.toolName === name).map((r) => r.output);
  expect(byTool('browser_select')[0]).toMatchObject({ ok: true, selected: ['Large'] });
  expect(byTool('browser_check')[0]).toMatchObject({ ok: true, checked: true });
  expect(byTool('browser_click')[0].dialogs).toEqual([{ type: 'prompt', message: 'New name?', handled: 'pending', defaultValue: 'Untitled' }]);
  expect(byTool('browser_dialog')[0]).toMatchObject({ ok: true, dialog: { handled: 'accepted' } });
  expect(byTool('browser_tabs')[0].tabs.map((t: any) => t.title)).toEqual(['Widgets', 'Page B']);
  expect(byTool('browser_tabs')[1].snapshot).toContain('combobox "Size" value="Large"');
  expect(result.text).toBe('renamed');
});
