/**
 * Looking back at a run: each browser tool call is a span in Mastra's tracing (with its stages, the page address
 * and the result code), and `trace: { dir }` writes a Playwright trace of each session that Playwright's own
 * trace reader opens.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { SpanType, type AnyExportedSpan } from '@mastra/core/observability';
import { Observability, SamplingStrategyType, TestExporter } from '@mastra/observability';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from './helpers/scriptedModel.js';
import { startServer, type TestServer } from './helpers/server.js';
import { call, createTestToolset, refOf } from './helpers/toolset.js';

const run = promisify(execFile);
const PLAYWRIGHT_CLI = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'cli.js');

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('Mastra tracing', () => {
  it('an Agent run with tracing on has one browser span per tool call, with its stages, page address and result code', async () => {
    const toolset = createTestToolset();
    try {
      const model = scriptedModel((results, turn) => {
        if (turn === 0) return { tools: [{ name: 'browser_navigate', input: { url: server.url('/fixtures/page-a.html') } }] };
        if (turn === 1) return { tools: [{ name: 'browser_click', input: { ref: 'e999' } }] };
        if (turn === 2) return { tools: [{ name: 'browser_snapshot', input: {} }] };
        return { text: `Read ${results.length} results.` };
      });
      // Mastra's own tracing pipeline, with its exporter that keeps what it is sent in memory.
      const exporter = new TestExporter({ logMetricsOnFlush: false });
      const observability = new Observability({ configs: { test: { serviceName: 'browser-test', exporters: [exporter] } } });
      const agent = new Agent({ id: 'web', name: 'web', instructions: 'Use the browser.', model, tools: toolset.tools });
      const mastra = new Mastra({ agents: { web: agent }, observability, logger: false });
      try {
        const result = await mastra.getAgent('web').generate('Look at page A.', { maxSteps: 5 });
        expect(result.text).toBe('Read 3 results.');
        await observability.flush();
      } finally {
        await observability.shutdown();
      }

      // The spans that ended, each under its parent in the order they started.
      const ended = exporter.getCompletedSpans();
      const childrenOf = (span: AnyExportedSpan) =>
        ended.filter((s) => s.parentSpanId === span.id).sort((a, b) => new Date(a.startTime).getTime() - new Date(b.startTime).getTime());

      // Mastra's span per tool call, and under each exactly one span of the browser's side of it.
      const toolCalls = exporter.getSpansByType(SpanType.TOOL_CALL);
      expect(toolCalls.map((s) => s.name)).toEqual(["tool: 'browser_navigate'", "tool: 'browser_click'", "tool: 'browser_snapshot'"]);
      const browserSpans = toolCalls.map((toolCall) => {
        const children = childrenOf(toolCall);
        expect(children).toHaveLength(1);
        return children[0]!;
      });
      const [navigate, click, snapshot] = browserSpans as [AnyExportedSpan, AnyExportedSpan, AnyExportedSpan];
      expect(navigate.name).toBe('browser: navigate');
      expect(navigate.metadata).toMatchObject({ result: 'ok', pageUrl: server.url('/fixtures/page-a.html') });
      // A failed call says why in its result code, on the page it failed on.
      expect(click.metadata).toMatchObject({ result: 'element_not_found', pageUrl: server.url('/fixtures/page-a.html') });
      expect(snapshot.metadata).toMatchObject({ result: 'ok' });

      // The stages of the call are its children: loading for navigate, the capture for both.
      const stagesOf = (span: AnyExportedSpan) => childrenOf(span).map((s) => s.name);
      expect(stagesOf(navigate)).toEqual(expect.arrayContaining(['load: until commit', 'snapshot: aria capture', 'snapshot: format']));
      expect(stagesOf(snapshot)).toEqual(expect.arrayContaining(['snapshot: aria capture', 'snapshot: format']));
      expect(stagesOf(snapshot)).not.toContain('load: until commit');
      // Nothing the browser opened is left open, and its spans belong to the agent run's trace.
      expect(exporter.getIncompleteSpans()).toEqual([]);
      expect(new Set(ended.map((s) => s.traceId)).size).toBe(1);
    } finally {
      await toolset.close();
    }
  });

  it('without tracing a tool call adds no span and runs as before', async () => {
    const toolset = createTestToolset();
    try {
      // Observability on but this run not sampled: Mastra hands the tool a span that records nothing.
      const model = scriptedModel((results, turn) => {
        if (turn === 0) return { tools: [{ name: 'browser_navigate', input: { url: server.url('/fixtures/page-a.html') } }] };
        return { text: results[0]?.isError ? 'failed' : 'navigated' };
      });
      const exporter = new TestExporter({ logMetricsOnFlush: false });
      const observability = new Observability({
        configs: { test: { serviceName: 'browser-test', sampling: { type: SamplingStrategyType.NEVER }, exporters: [exporter] } },
      });
      const agent = new Agent({ id: 'web', name: 'web', instructions: 'Use the browser.', model, tools: toolset.tools });
      const mastra = new Mastra({ agents: { web: agent }, observability, logger: false });
      try {
        const result = await mastra.getAgent('web').generate('Look at page A.', { maxSteps: 3 });
        expect(result.text).toBe('navigated');
        await observability.flush();
      } finally {
        await observability.shutdown();
      }
      expect(exporter.getAllSpans()).toEqual([]);

      // Called outside an agent, or by a Mastra with observability off: no current span at all.
      const tool = toolset.tools.browser_snapshot as any;
      const result = await tool.execute({}, { tracingContext: { currentSpan: undefined } });
      expect(result.ok).toBe(true);
    } finally {
      await toolset.close();
    }
  });
});

describe('Playwright trace', () => {
  it('a session closed writes <dir>/<session>-<time>.zip, which Playwright’s trace reader lists with its actions and requests', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mastra-browser-trace-'));
    const work = await mkdtemp(join(tmpdir(), 'mastra-browser-trace-reader-'));
    const toolset = createTestToolset({ trace: { dir } });
    try {
      const opened = await call(toolset, 'browser_navigate', { url: server.url('/fixtures/page-a.html') });
      expect(opened.ok).toBe(true);
      const clicked = await call(toolset, 'browser_click', { ref: refOf(opened.snapshot, 'button', 'Continue') });
      expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true);
      expect((await call(toolset, 'browser_navigate', { url: server.url('/fixtures/page-b.html') })).ok).toBe(true);
      expect(await readdir(dir)).toEqual([]); // written when the session closes, not before
      await toolset.closeSession();

      const files = await readdir(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^default-\d{4}-\d\d-\d\dT[\d-]+Z\.zip$/);
      // Playwright's own reader (what `show-trace` loads) opens it and lists what the browser did.
      const reader = async (...args: string[]) => (await run(process.execPath, [PLAYWRIGHT_CLI, 'trace', ...args], { cwd: work })).stdout;
      await reader('open', join(dir, files[0]!));
      const actions = await reader('actions');
      expect(actions).toMatch(/Navigate\s+\d+ms\s+127\.0\.0\.1:\d+\/fixtures\/page-a\.html/);
      expect(actions).toMatch(/Click\s+\d+ms\s+locator\('aria-ref=e\d+'\)/);
      const requests = await reader('requests');
      expect(requests).toMatch(/GET +200 +page-a\.html/);
      expect(requests).toMatch(/GET +204 +event\?clicked=a-continue/);
      expect(requests).toMatch(/GET +200 +page-b\.html/);
    } finally {
      await toolset.close();
      await rm(dir, { recursive: true, force: true });
      await rm(work, { recursive: true, force: true });
    }
  });
});
