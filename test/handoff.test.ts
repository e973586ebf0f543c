/**
 * Handing the page to a person: a real Mastra agent (scripted model) and a real workflow meet a CAPTCHA, call
 * browser_handoff and are suspended; the test acts as the person through the provider's input path (what Studio's
 * live view sends) and resumes them; a handoff nobody answers ends as `expired`; a resume after the process lost
 * the session comes back from the session store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { InMemoryStore } from '@mastra/core/storage';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BrowserToolset } from '../src/index.js';
import { ToolsetBrowser } from '../src/provider/provider.js';
import { scriptedModel, type ToolResultSeen } from './helpers/scriptedModel.js';
import { call, createTestToolset } from './helpers/toolset.js';
import { startWalledSite, type WalledSite } from './helpers/walledSite.js';

/** Time enough for a first page on a machine shared with other test runs. */
const PATIENT = { timeout: 10_000, navigationTimeout: 30_000 };

let site: WalledSite;
let dir: string;
beforeAll(async () => {
  site = await startWalledSite();
  dir = mkdtempSync(join(tmpdir(), 'handoff-test-'));
});
afterAll(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The person: looks at the live view, ticks the CAPTCHA's box with the mouse as Studio forwards it, and sees the timetable. */
async function solveAsPerson(provider: ToolsetBrowser): Promise<void> {
  const page = (await provider.getActivePage())!;
  const box = (await page.locator('#tick').boundingBox())!;
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2, button: 'left' as const, clickCount: 1 };
  await provider.injectMouseEvent({ type: 'mousePressed', ...at });
  await provider.injectMouseEvent({ type: 'mouseReleased', ...at });
  await page.getByText('Winter timetable').waitFor();
}

/** An agent that opens the guarded timetable, hands the CAPTCHA to a person, and reports what it reads after. */
function ferryAgent(toolset: BrowserToolset, seen: ToolResultSeen[][], timeoutSeconds?: number) {
  const model = scriptedModel((results, turn) => {
    seen.push(results);
    const last = results.at(-1);
    if (turn === 0) return { tools: [{ name: 'browser_navigate', input: { url: site.url('/gate') } }] };
    if (turn === 1) {
      expect(last!.output).toMatch(/^! hCaptcha on this page: a person must solve it \(browser_handoff\)$/m);
      return { tools: [{ name: 'browser_handoff', input: { reason: 'Solve the CAPTCHA so I can read the timetable', ...(timeoutSeconds ? { timeoutSeconds } : {}) } }] };
    }
    const text = String(last!.output);
    const outcome = /^outcome: (\w+)$/m.exec(text)?.[1];
    return { text: outcome === 'done' && /Ferries leave every 40 minutes/.test(text) ? 'Ferries leave every 40 minutes.' : `No timetable (${outcome})` };
  });
  const mastra = new Mastra({ agents: { ferry: new Agent({ id: 'ferry', name: 'ferry', instructions: 'You read timetables for the user.', model, tools: toolset.tools }) }, storage: new InMemoryStore(), logger: false });
  return mastra.getAgent('ferry');
}

describe('a Mastra agent hands the page to a person', () => {
  it('is suspended with an ask_user-shaped question, the person solves the CAPTCHA in the live view, and the agent resumes and finishes', async () => {
    const toolset = createTestToolset(PATIENT);
    const provider = new ToolsetBrowser(toolset);
    const seen: ToolResultSeen[][] = [];
    try {
      const agent = ferryAgent(toolset, seen);
      const first = await agent.generate('What is the ferry timetable?', { maxSteps: 5 });
      expect(first.finishReason).toBe('suspended');
      const suspended = first.suspendPayload as { toolCallId: string; toolName: string; suspendPayload: Record<string, any> };
      expect(suspended.toolName).toBe('browser_handoff');
      // What a host renders: ask_user's question, options and selection mode, and the page it is about.
      expect(suspended.suspendPayload).toMatchObject({
        question: expect.stringContaining('Solve the CAPTCHA so I can read the timetable'),
        options: [{ label: 'Done' }, { label: 'Cannot' }],
        selectionMode: 'single_select',
        url: site.url('/gate'),
        title: 'Harbour Ferries',
        wall: 'hCaptcha on this page',
      });
      expect(Date.parse(suspended.suspendPayload.expiresAt)).toBeGreaterThan(Date.now());

      await solveAsPerson(provider);
      expect(site.received.captchaPassed).toBe(true);
      const resumed = await agent.resumeGenerate('Done', { runId: first.runId, toolCallId: suspended.toolCallId });
      expect(resumed.text).toBe('Ferries leave every 40 minutes.');
      // What the model read on resuming: the outcome, the wall gone, the page now with fresh refs, and the person's input.
      const handoff = String(seen.at(-1)!.at(-1)!.output);
      expect(handoff).toMatch(/^outcome: done$/m);
      expect(handoff).toMatch(/^wallBefore: hCaptcha on this page$/m);
      expect(handoff).toMatch(/^wallGone: true$/m);
      expect(handoff).toMatch(/^(?:f\d+)?e\d+ link "Fares"$/m);
      expect(handoff).toMatch(/A person used this browser in the live view since your last call/);
    } finally {
      await toolset.close();
    }
  });

  it('tells the agent the handoff expired when the answer comes after its time limit', async () => {
    const toolset = createTestToolset(PATIENT);
    const seen: ToolResultSeen[][] = [];
    try {
      const agent = ferryAgent(toolset, seen, 1);
      const first = await agent.generate('What is the ferry timetable?', { maxSteps: 5 });
      expect(first.finishReason).toBe('suspended');
      const suspended = first.suspendPayload as { toolCallId: string; suspendPayload: { expiresAt: string } };
      // Nobody answers within the limit; an answer that comes later does not count as the person's.
      const expiresAt = Date.parse(suspended.suspendPayload.expiresAt);
      while (Date.now() <= expiresAt) await new Promise((resolve) => setTimeout(resolve, 100));
      const resumed = await agent.resumeGenerate('Done', { runId: first.runId, toolCallId: suspended.toolCallId });
      expect(resumed.text).toBe('No timetable (expired)');
      expect(String(seen.at(-1)!.at(-1)!.output)).toMatch(/^wallGone: false$/m);
    } finally {
      await toolset.close();
    }
  });

  it('resumes from the session store after the process that suspended it is gone', async () => {
    const store = join(dir, 'store');
    const storage = new InMemoryStore();
    const config = { ...PATIENT, sessionStore: store, sessionStoreKey: 'a passphrase for this test only' };
    const before = createTestToolset(config);
    const seen: ToolResultSeen[][] = [];
    const agentOf = (toolset: BrowserToolset) => {
      // A model in the new process starts its own count of turns: it goes by the results it is given.
      const model = scriptedModel((results) => {
        seen.push(results);
        const last = results.at(-1);
        if (!last) return { tools: [{ name: 'browser_navigate', input: { url: site.url('/gate') } }] };
        if (last.toolName === 'browser_navigate') return { tools: [{ name: 'browser_handoff', input: { reason: 'Solve the CAPTCHA' } }] };
        return { text: /^outcome: done$/m.test(String(last.output)) ? 'resumed' : 'not resumed' };
      });
      return new Mastra({ agents: { ferry: new Agent({ id: 'ferry', name: 'ferry', instructions: 'x', model, tools: toolset.tools }) }, storage, logger: false }).getAgent('ferry');
    };
    const first = await agentOf(before).generate('Timetable?', { maxSteps: 5 });
    expect(first.finishReason).toBe('suspended');
    await solveAsPerson(new ToolsetBrowser(before));
    await before.close(); // the process ends: its sessions are saved to the store

    const after = createTestToolset(config);
    try {
      const resumed = await agentOf(after).resumeGenerate('Done', { runId: first.runId, toolCallId: (first.suspendPayload as { toolCallId: string }).toolCallId });
      expect(resumed.text).toBe('resumed');
      const handoff = String(seen.at(-1)!.at(-1)!.output);
      expect(handoff).toMatch(/browser was restored from saved state/);
      expect(handoff).toMatch(/^wallBefore: hCaptcha on this page$/m);
      expect(handoff).toMatch(/^wallGone: true$/m);
      expect(handoff).toContain('Ferries leave every 40 minutes');
    } finally {
      await after.close();
    }
  });
});

describe('a workflow step hands the page to a person', () => {
  it('suspends the run; the person solves the CAPTCHA; the run resumes and reads the page', async () => {
    const toolset = createTestToolset(PATIENT);
    const provider = new ToolsetBrowser(toolset);
    try {
      const workflow = createWorkflow({ id: 'timetable', inputSchema: z.object({ url: z.string() }), outputSchema: z.any() })
        .then(createStep(toolset.tools.browser_navigate))
        .map(async () => ({ reason: 'Solve the CAPTCHA on the ferry site' }))
        .then(createStep(toolset.tools.browser_handoff))
        .then(
          createStep({
            id: 'read',
            inputSchema: z.any(),
            outputSchema: z.any(),
            execute: async ({ inputData }) => ({ outcome: inputData.outcome, wallGone: inputData.wallGone, text: (await call(toolset, 'browser_read', {})).markdown }),
          }),
        )
        .commit();
      new Mastra({ workflows: { timetable: workflow }, storage: new InMemoryStore(), logger: false });
      const run = await workflow.createRun();
      const started = await run.start({ inputData: { url: site.url('/gate') } });
      expect(started.status).toBe('suspended');
      const payload = (started as { steps: Record<string, { suspendPayload?: Record<string, unknown> }> }).steps.browser_handoff!.suspendPayload;
      expect(payload).toMatchObject({ options: [{ label: 'Done' }, { label: 'Cannot' }], wall: 'hCaptcha on this page' });

      await solveAsPerson(provider);
      const done = await run.resume({ step: 'browser_handoff', resumeData: 'Done' });
      expect(done.status).toBe('success');
      expect((done as { result: { outcome: string; wallGone: boolean; text: string } }).result).toMatchObject({ outcome: 'done', wallGone: true, text: expect.stringContaining('Ferries leave every 40 minutes') });
    } finally {
      await toolset.close();
    }
  });
});

describe('a handoff where no one can be asked', () => {
  let toolset: BrowserToolset;
  beforeAll(() => {
    toolset = createTestToolset(PATIENT);
  });
  afterAll(() => toolset.close());

  it('says at once that a person must act, with the page and what to tell the user', async () => {
    await call(toolset, 'browser_navigate', { url: site.url('/gate') });
    const result = await call(toolset, 'browser_handoff', { reason: 'Solve the CAPTCHA' });
    expect(result).toMatchObject({ ok: true, outcome: 'person_needed', url: site.url('/gate'), wallBefore: 'hCaptcha on this page' });
    expect(result.instructions).toBe(`Tell the user a person must act in the browser: Solve the CAPTCHA, on ${site.url('/gate')}. Nothing here waits for them: once they say they are done, take browser_snapshot and go on.`);
  });

  it('refuses a handoff on a closed tab, and the session goes on', async () => {
    await call(toolset, 'browser_navigate', { url: site.url('/gate') });
    expect((await call(toolset, 'browser_tabs', { action: 'close' })).ok).toBe(true);
    const result = await call(toolset, 'browser_handoff', { reason: 'Solve the CAPTCHA' });
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ code: 'invalid_input', message: 'There is no page to hand to a person: the tab is empty (it was closed, or nothing was opened yet).' });
    expect((await call(toolset, 'browser_navigate', { url: site.url('/gate') })).ok).toBe(true);
  });
});
