/**
 * One browser, a session per conversation: what a Mastra server serving many threads at once relies on.
 * Calls carry the thread the way Mastra passes it to tools (`context.agent.threadId`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineBrowserTool, type BrowserToolset } from '../src/index.js';
import { startServer, type TestServer } from './helpers/server.js';
import { childBrowserPids, createTestToolset, refOf } from './helpers/toolset.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** A tool call as Mastra makes it inside an agent loop for one thread. */
function inThread(toolset: BrowserToolset, threadId: string) {
  return (id: keyof BrowserToolset['tools'], input: Record<string, unknown>): Promise<any> =>
    (toolset.tools[id] as any).execute(input, { agent: { threadId, resourceId: 'user-1', toolCallId: 'c', messages: [], agentId: 'a' } });
}

describe('a session per thread', () => {
  it('ten threads at once never see each other’s pages, cookies, storage or refs', async () => {
    // Ten contexts open at once on two cores: give navigations time (a bound, not a measure).
    const toolset = createTestToolset({ allowEvaluate: true, navigationTimeout: 30_000 });
    const before = await childBrowserPids();
    try {
      const threads = Array.from({ length: 10 }, (_, i) => `thread-${i}`);
      await Promise.all(
        threads.map(async (thread, i) => {
          const call = inThread(toolset, thread);
          const opened = await call('browser_navigate', { url: server.url(i % 2 ? '/fixtures/page-a.html' : '/fixtures/form.html') });
          expect(opened.ok).toBe(true);
          await call('browser_evaluate', { script: `document.cookie = 'who=${thread}'; localStorage.setItem('who', '${thread}'); document.title = '${thread}'` });
        }),
      );
      await Promise.all(
        threads.map(async (thread) => {
          const call = inThread(toolset, thread);
          const seen = await call('browser_evaluate', { script: `[document.title, document.cookie, localStorage.getItem('who')].join('|')` });
          expect(JSON.parse(seen.result)).toBe(`${thread}|who=${thread}|${thread}`);
        }),
      );
      // One browser for all of them.
      expect((await childBrowserPids()).filter((pid) => !before.includes(pid))).toHaveLength(1);
      expect(toolset.sessions.size).toBe(10);

      // A ref from one thread's page means nothing in another's.
      const form = await inThread(toolset, 'thread-0')('browser_snapshot', {});
      const ref = refOf(form.snapshot, 'checkbox', 'I accept the terms');
      const elsewhere = await inThread(toolset, 'thread-1')('browser_click', { ref });
      expect(elsewhere.ok).toBe(false);
      expect(['element_not_found', 'stale_ref']).toContain(elsewhere.error.code);
      const own = await inThread(toolset, 'thread-0')('browser_click', { ref });
      expect(own.ok).toBe(true);
    } finally {
      await toolset.close();
    }
  });

  it('calls of one thread run one at a time; another thread is not held up by them', async () => {
    const toolset = createTestToolset();
    try {
      const a = inThread(toolset, 'a');
      const b = inThread(toolset, 'b');
      await Promise.all([a('browser_navigate', { url: server.url('/fixtures/page-a.html') }), b('browser_navigate', { url: server.url('/fixtures/page-b.html') })]);
      const finished: string[] = [];
      const waitA = a('browser_wait', { seconds: 3 }).then(() => finished.push('a-wait'));
      const snapA = a('browser_snapshot', {}).then(() => finished.push('a-snapshot'));
      const snapB = b('browser_snapshot', {}).then(() => finished.push('b-snapshot'));
      await Promise.all([waitA, snapA, snapB]);
      // b's call did not queue behind a's wait; a's second call did.
      expect(finished).toEqual(['b-snapshot', 'a-wait', 'a-snapshot']);
    } finally {
      await toolset.close();
    }
  });

  it('beyond maxSessions the quiet session unused longest is closed (busy conversations are kept), and its thread is told', async () => {
    const toolset = createTestToolset({ maxSessions: 2, navigationTimeout: 2_000 });
    try {
      const first = await inThread(toolset, 'one')('browser_navigate', { url: server.url('/fixtures/page-a.html') });
      expect(first.ok).toBe(true);
      await inThread(toolset, 'two')('browser_navigate', { url: server.url('/fixtures/page-b.html') });
      // Both conversations are in progress (used moments ago): the newcomer waits, within its time limit, rather
      // than take one away, and is told to retry when none goes quiet.
      const refused = await inThread(toolset, 'three')('browser_navigate', { url: server.url('/fixtures/form.html') });
      expect(refused.ok).toBe(false);
      expect(refused.error).toMatchObject({ code: 'browser_error', retryable: true });
      expect(refused.error.message).toMatch(/All 2 browser sessions are in use/);
      // Thread one goes quiet while the newcomer waits: the newcomer gets its session.
      const admission = inThread(toolset, 'three')('browser_navigate', { url: server.url('/fixtures/form.html') });
      await new Promise((resolve) => setTimeout(resolve, 300));
      toolset.sessions.peek('thread:one')!.lastUsed -= 60_000;
      const admitted = await admission;
      expect(admitted.ok, JSON.stringify(admitted.error)).toBe(true);
      expect(toolset.sessions.keys().sort()).toEqual(['thread:three', 'thread:two']);
      toolset.sessions.peek('thread:two')!.lastUsed -= 60_000;
      const back = await inThread(toolset, 'one')('browser_snapshot', {});
      expect(back.ok).toBe(true);
      expect(back.notices.join(' ')).toMatch(/session was closed to make room for other conversations \(maxSessions 2\).*navigate again/);
      expect(back.snapshot).toContain('about:blank');
    } finally {
      await toolset.close();
    }
  });

  it('newcomers arriving together at capacity never have more contexts open than maxSessions', async () => {
    const toolset = createTestToolset({ maxSessions: 2, navigationTimeout: 2_000 });
    const contexts = () => (toolset as unknown as { browser: { connection?: { browser: { contexts(): unknown[] } } } }).browser.connection?.browser.contexts().length ?? 0;
    try {
      await inThread(toolset, 'one')('browser_navigate', { url: server.url('/fixtures/page-a.html') });
      await inThread(toolset, 'two')('browser_navigate', { url: server.url('/fixtures/page-b.html') });
      for (const key of ['thread:one', 'thread:two']) toolset.sessions.peek(key)!.lastUsed -= 60_000;
      let most = contexts();
      const sampler = setInterval(() => (most = Math.max(most, contexts())), 2);
      const arrivals = await Promise.all(['three', 'four', 'five'].map((thread) => inThread(toolset, thread)('browser_navigate', { url: server.url('/fixtures/form.html') })));
      clearInterval(sampler);
      // Two sessions were quiet; the third newcomer finds every session in a conversation and is told to retry.
      expect(arrivals.filter((result) => result.ok)).toHaveLength(2);
      expect(most).toBeLessThanOrEqual(2);
      expect(toolset.sessions.size).toBe(2);
    } finally {
      await toolset.close();
    }
  });

  it('a session idle past idleTimeout is closed and its context freed; the thread is told', async () => {
    const toolset = createTestToolset({ idleTimeout: 60_000 });
    try {
      await inThread(toolset, 'sleepy')('browser_navigate', { url: server.url('/fixtures/page-a.html') });
      const context = toolset.sessions.peek('thread:sleepy')!.browserContext!;
      expect(await toolset.sessions.sweep(Date.now() + 61_000)).toEqual(['thread:sleepy']);
      expect(context.pages()).toHaveLength(0);
      const next = await inThread(toolset, 'sleepy')('browser_snapshot', {});
      expect(next.notices.join(' ')).toMatch(/closed after 1 min without use \(idleTimeout\)/);
    } finally {
      await toolset.close();
    }
  });

  it('storage state: exported from one thread, loaded into new sessions; closeSession frees a thread', async () => {
    const toolset = createTestToolset({ allowEvaluate: true });
    let exported;
    try {
      const call = inThread(toolset, 'shopper');
      await call('browser_navigate', { url: server.url('/fixtures/page-a.html') });
      await call('browser_evaluate', { script: `document.cookie = 'session=abc; max-age=3600'; localStorage.setItem('cart', '3 kettles')` });
      exported = await toolset.exportStorageState('shopper');
      expect(exported.cookies.map((c) => `${c.name}=${c.value}`)).toContain('session=abc');
      const context = toolset.sessions.peek('thread:shopper')!.browserContext!;
      await toolset.closeSession('shopper');
      expect(toolset.sessions.has('thread:shopper')).toBe(false);
      expect(context.pages()).toHaveLength(0);
    } finally {
      await toolset.close();
    }
    const restored = createTestToolset({ allowEvaluate: true, storageState: exported });
    try {
      const call = inThread(restored, 'returning');
      await call('browser_navigate', { url: server.url('/fixtures/page-a.html') });
      const seen = await call('browser_evaluate', { script: `document.cookie + '|' + localStorage.getItem('cart')` });
      expect(JSON.parse(seen.result)).toBe('session=abc|3 kettles');
    } finally {
      await restored.close();
    }
  });

  it('scope "shared" puts every thread in one session', async () => {
    const toolset = createTestToolset({ scope: 'shared' });
    try {
      await inThread(toolset, 'x')('browser_navigate', { url: server.url('/fixtures/page-a.html') });
      const other = await inThread(toolset, 'y')('browser_snapshot', {});
      expect(other.snapshot).toContain('Page A');
      expect(toolset.sessions.keys()).toEqual(['default']);
    } finally {
      await toolset.close();
    }
  });

  it('beyond maxConcurrentCalls a call waits its turn; one that would wait past queueTimeout is told to retry; browser_wait is not held up', async () => {
    const toolset = createTestToolset({ maxConcurrentCalls: 1, queueTimeout: 8_000, timeout: 40_000, navigationTimeout: 40_000 });
    try {
      // The browser and the first thread's context are up before the turns are timed: a launch on a busy machine
      // holds the slot for longer than any queue time a test could pick.
      expect((await inThread(toolset, 'a')('browser_navigate', { url: server.url('/fixtures/page-b.html') })).ok).toBe(true);
      const finished: string[] = [];
      const first = inThread(toolset, 'a')('browser_navigate', { url: server.url('/slow-first-byte?ms=2000') }).then((r) => (finished.push('first'), r));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Waits about 2 s for its turn (under queueTimeout), then holds the only slot for 20 s (past queueTimeout).
      const queued = inThread(toolset, 'd')('browser_navigate', { url: server.url('/slow-first-byte?ms=20000') }).then((r) => (finished.push('queued'), r));
      expect((await first).ok).toBe(true);
      const busy = await inThread(toolset, 'b')('browser_press', { key: 'Tab' });
      const waited = await inThread(toolset, 'c')('browser_wait', { seconds: 0.2 });

      expect(busy.ok).toBe(false);
      expect(busy.error).toMatchObject({ code: 'browser_error', retryable: true });
      expect(busy.error.message).toContain('maxConcurrentCalls');
      expect(waited.ok).toBe(true);
      expect((await queued).ok).toBe(true);
      expect(finished).toEqual(['first', 'queued']);
      // Once the slot is free, the conversation that was told to retry gets its answer.
      expect((await inThread(toolset, 'b')('browser_navigate', { url: server.url('/fixtures/page-b.html') })).ok).toBe(true);
    } finally {
      await toolset.close();
    }
  });
});

describe('a tool that needs no page', () => {
  /** A tool made as docs/layout.md's recipe makes one, that works without a page unless asked to look. */
  const pagelessTool = defineBrowserTool({
    id: 'browser_pageless_probe',
    description: 'Says what it was given; with look=true, the title of the active page.',
    input: z.object({ look: z.boolean().optional() }),
    output: { title: z.string().optional() },
    needsPage: false,
    async handle({ look }, call) {
      if (!look) return {};
      const tab = await call.openTab();
      return { title: await tab.page.title() };
    },
  });

  it('runs without launching a browser or opening a page, and opens the active tab only when it asks for it', async () => {
    const toolset = createTestToolset();
    const tool = pagelessTool({ registry: toolset.sessions, config: toolset.config });
    try {
      expect(await tool.execute!({}, { agent: { threadId: 'files' } } as never)).toEqual({ ok: true, boundary: expect.any(String) });
      expect(toolset.browserInfo).toBeUndefined();
      expect(toolset.sessions.peek('thread:files')?.browserContext).toBeUndefined();

      const opened = await inThread(toolset, 'files')('browser_navigate', { url: server.url('/fixtures/page-a.html') });
      expect(opened.ok).toBe(true);
      expect(await tool.execute!({ look: true }, { agent: { threadId: 'files' } } as never)).toMatchObject({ ok: true, title: 'Page A' });
    } finally {
      await toolset.close();
    }
  });
});
