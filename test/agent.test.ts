import { Agent } from '@mastra/core/agent';
import { expect, it } from 'vitest';
import { scriptedModel, type ToolResultSeen } from './helpers/scriptedModel.js';
import { createTestToolset, refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

it('a Mastra Agent signs up through the tools: the server receives the form and the model reads plain-text results', async () => {
  const seenByModel: ToolResultSeen[][] = [];
  // The "model" reads refs out of the snapshot text it was given, as an LLM would.
  const model = scriptedModel((results, turn) => {
    seenByModel.push(results);
    const last = results.at(-1);
    switch (turn) {
      case 0:
        return { tools: [{ name: 'browser_navigate', input: { url: env.server.url('/fixtures/form.html') } }] };
      case 1: {
        const snapshot: string = last!.output;
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
        return { tools: [{ name: 'browser_click', input: { ref: refOf(last!.output, 'button', 'Create account') } }] };
      default:
        return { text: `Done: ${/^page "[^"]*" (\S+)/m.exec(last!.output)?.[1]}` };
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

  // What the model read: plain text (no JSON escaping), each result saying what it did.
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
  expect(final.every((r) => typeof r.output === 'string' && !r.isError)).toBe(true);
  expect(final[0]!.output).toMatch(/^status: 200$/m);
  expect(final[0]!.output).toMatch(/^page "Create your account" http/m);
  expect(final[0]!.output).not.toContain('\\"');
  // The password field holds the text sent: its value is not echoed, masked or not.
  expect(final[3]!.output).not.toContain('fieldValue');
  expect(final[5]!.output).toMatch(/checkbox "I accept the terms" checked/);
  expect(final[6]!.output).toMatch(/^navigated: true$/m);
  expect(final[6]!.output).toContain(env.server.url('/submit'));
  expect(JSON.stringify(final)).not.toContain('correct horse');
});

it('a tool error reaches the model as a structured result and the agent recovers', async () => {
  const model = scriptedModel((results, turn) => {
    const last = results.at(-1);
    if (turn === 0) return { tools: [{ name: 'browser_navigate', input: { url: 'javascript:alert(1)' } }] };
    if (turn === 1) {
      // An error reaches the model as an error result, with its code, hint and whether a retry can help.
      expect(last!.isError).toBe(true);
      expect(last!.output).toMatch(/^error invalid_input \(not retryable\): Navigation to javascript: URLs is not allowed/);
      expect(last!.output).toMatch(/^hint: /m);
      return { tools: [{ name: 'browser_navigate', input: { url: env.server.url('/fixtures/list.html') } }] };
    }
    return { text: last!.isError ? 'failed' : 'recovered' };
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
        const snap: string = last;
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
        return { text: last.includes('Name: Big order') ? 'renamed' : 'not renamed' };
    }
  });
  const agent = new Agent({ id: 'web3', name: 'web3', instructions: 'Browse.', model, tools: env.browser.tools });
  const result = await agent.generate('Order a large pizza with news, rename it, then open page B.', { maxSteps: 10 });

  const results = seen.at(-1)!;
  const byTool = (name: string) => results.filter((r) => r.toolName === name).map((r) => r.output);
  expect(results.every((r) => !r.isError)).toBe(true);
  expect(byTool('browser_select')[0]).toMatch(/^selected:\n- Large$/m);
  expect(byTool('browser_check')[0]).toMatch(/^checked: true$/m);
  expect(byTool('browser_click')[0]).toMatch(/^dialogs:\n- type: prompt, message: New name\?, handled: pending, defaultValue: Untitled$/m);
  expect(byTool('browser_dialog')[0]).toMatch(/handled.*accepted/);
  expect(byTool('browser_tabs')[0]).toMatch(/^- index: 0, url: \S+widgets.html, title: Widgets, active: false\n- index: 1, url: \S+page-b.html, title: Page B, active: true$/m);
  // Back on the first tab, the page is as the agent left it (where it is scrolled depends on the fonts).
  expect(byTool('browser_tabs')[1]).toMatch(/^page "Widgets" \S+widgets\.html$/m);
  expect(byTool('browser_tabs')[1]).toMatch(/combobox "Size" value="Large"|above \d+px: .*combobox/);
  const page = await env.browser.page();
  expect(await page.locator('select[name=size]').inputValue()).toBe('Large');
  expect(result.text).toBe('renamed');
});

it('bad arguments from the model come back through the agent loop as our invalid_input error, not Mastra\'s', async () => {
  const seen: ToolResultSeen[][] = [];
  const model = scriptedModel((results, turn) => {
    seen.push(results);
    if (turn > 0) return { text: 'done' };
    return {
      tools: [
        { name: 'browser_click', input: {} },
        { name: 'browser_scroll', input: { direction: 'sideways' } },
      ],
    };
  });
  const agent = new Agent({ id: 'web4', name: 'web4', instructions: 'Browse.', model, tools: env.browser.tools });
  await agent.generate('Click something.', { maxSteps: 3 });
  const results = seen.at(-1)!;
  expect(results.map((r) => r.toolName)).toEqual(['browser_click', 'browser_scroll']);
  for (const result of results) {
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^error invalid_input \(not retryable\): /);
    expect(result.output).toMatch(/^hint: Fix the arguments/m);
  }
});
