/**
 * Mastra's Code Mode over the toolset: `createCodeMode({ tools: browser.tools })` turns the tools into typed
 * `external_*` functions a model's program calls in a loop. The program gets each result as data: refs, roles,
 * names and values in `elements` (src/tools/elements.ts), besides the text the model reads in a normal call.
 *
 * Mastra's default Code Mode transport runs the program with `node --experimental-strip-types` in a workspace
 * sandbox, which needs Node 22.6 or newer; on older Node the program test is skipped with the reason (CI's Node 22
 * run covers it). The in-process transports (@mastra/isolated-vm, @mastra/quickjs) are not on this registry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import { createCodeMode } from '@mastra/core/tools';
import { LocalSandbox } from '@mastra/core/workspace';
import { describe, expect, it } from 'vitest';
import { scriptedModel, type ToolResultSeen } from './helpers/scriptedModel.js';
import { inCodeMode, SIGN_UP } from './helpers/signUpTask.js';
import { call, refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const skipReason =
  major < 22 || (major === 22 && minor < 6)
    ? `Mastra's Code Mode runs programs with node --experimental-strip-types, which needs Node 22.6 or newer; this is Node ${process.versions.node} (CI's Node 22 run covers it)`
    : undefined;
if (skipReason) console.warn(`code-mode.test.ts: the Code Mode agent test is skipped: ${skipReason}`);

describe('a program gets refs and names as data', () => {
  it('each result that shows refs lists them as elements, in the order of its text, with values and states', async () => {
    const page = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    expect(page.ok, JSON.stringify(page.error)).toBe(true);
    const byName = (name: string) => page.elements.find((element: { name: string }) => element.name === name);
    // The same ref the text gives for each control, by role and name.
    for (const [role, name] of [['textbox', 'Full name *'], ['textbox', 'Email *'], ['checkbox', 'I accept the terms'], ['button', 'Create account']] as const) {
      expect(byName(name), name).toMatchObject({ ref: refOf(page.snapshot, role, name), role });
    }
    expect(byName('Referral code')).toMatchObject({ role: 'textbox', value: 'WELCOME' });
    expect(byName('Referral code').states).toContain('readonly');
    expect(byName('Save draft').states).toContain('disabled');
    expect(page.elements.map((element: { ref: string }) => element.ref)).toEqual([...page.snapshot.matchAll(/(?<=^\s*)(?:f\d+)?e\d+(?= )/gm)].map((m) => m[0]));

    // An action lists what its changes show; a password's value stays masked, as in the text.
    const password = await call(env.browser, 'browser_type', { ref: byName('Password *').ref, text: SIGN_UP.password });
    expect(password.elements).toEqual([expect.objectContaining({ ref: byName('Password *').ref, role: 'textbox', value: '••••••' })]);
    expect(JSON.stringify(password)).not.toContain(SIGN_UP.password);
    const checked = await call(env.browser, 'browser_check', { ref: byName('I accept the terms').ref, checked: true });
    expect(checked.elements).toEqual([expect.objectContaining({ name: 'I accept the terms', states: ['checked'] })]);
  });

  it('the model reads the same text as before: the elements are for programs only', async () => {
    const page = await call(env.browser, 'browser_navigate', { url: env.server.url('/fixtures/form.html') });
    const text = (env.browser.tools.browser_navigate as any).toModelOutput(page).value as string;
    // The snapshot ends the text, inside the content boundary's closing line (boundary.ts).
    expect(text.trimEnd().replace(/\n\}\d{6}$/, '').endsWith(page.snapshot.trimEnd())).toBe(true);
    expect(text).not.toContain('elements');
    expect(text).not.toContain('"ref"');
  });
});

describe.skipIf(skipReason !== undefined)('Mastra Code Mode', () => {
  it('a model signs up in one program: the server gets the form, and the model reads only what the program returned', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'code-mode-'));
    try {
      const { tool, instructions } = createCodeMode({ tools: env.browser.tools, sandbox: new LocalSandbox({ workingDirectory: workspace }), timeout: 90_000 });
      // The tools reach the program typed: results with their elements.
      expect(instructions).toContain('declare function external_browser_navigate(');
      expect(instructions).toMatch(/elements\?: \{ ref: string; role: string; name: string; value\?: string; states\?: string\[\] \}\[\]/);

      const seen: ToolResultSeen[][] = [];
      const model = scriptedModel((results, turn) => {
        seen.push(results);
        return inCodeMode(env.server.url('/fixtures/form.html'), tool.id)(results, turn);
      });
      const agent = new Agent({ id: 'coder', name: 'coder', instructions: ['You use a web browser to complete tasks.', instructions], model, tools: { [tool.id]: tool } });
      const before = env.server.submissions.length;
      const result = await agent.generate('Sign up as Ada Lovelace on the local site and tell me the referral code.', { maxSteps: 4 });

      expect(env.server.submissions.length).toBe(before + 1);
      expect(env.server.submissions.at(-1)!.fields).toMatchObject({ name: SIGN_UP.name, email: SIGN_UP.email, password: SIGN_UP.password, terms: 'yes', code: 'WELCOME' });
      expect(result.text).toBe('Signed up. The referral code was WELCOME; the page now says "Account created".');
      // One tool call, whose result is what the program returned: no page text, no password.
      const read = seen.at(-1)!;
      expect(read.map((r) => r.toolName)).toEqual([tool.id]);
      expect(read[0]!.output).toEqual({ success: true, result: { referral: 'WELCOME', heading: 'Account created', address: env.server.url('/submit') }, logs: [] });
      expect(JSON.stringify(read)).not.toContain(SIGN_UP.password);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
