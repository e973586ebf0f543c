/**
 * A tool call in Mastra's tracing. When the agent runs with observability on, Mastra gives each tool call its
 * own span; under it this adds one span for the browser's side of the call, with the page address and the
 * result code, and the call's stages (stages.ts: loading, capture, formatting) as its children, so a trace
 * shows where a slow or failed call spent its time. With tracing off there is no span to add to, and nothing
 * is done.
 */
import { SpanType, type AnySpan, type TracingContext } from '@mastra/core/observability';
import { withStageListener } from '../stages.js';

interface CallOutcome {
  ok: boolean;
  error?: { code: string; retryable?: boolean };
  notices?: string[];
}

/** The span Mastra opened for this tool call, when tracing is on. */
function toolCallSpan(mastraContext: unknown): AnySpan | undefined {
  const tracing = (mastraContext as { tracingContext?: TracingContext } | undefined)?.tracingContext;
  const span = tracing?.currentSpan;
  return span?.isValid ? span : undefined;
}

/**
 * Runs one call of tool `id` in a span of its own when the caller traces; `pageAddress` reads where the
 * session's active tab is once the call is over.
 */
export async function traceToolCall<R extends CallOutcome>(id: string, mastraContext: unknown, run: () => Promise<R>, pageAddress: () => string | undefined): Promise<R> {
  const parent = toolCallSpan(mastraContext);
  if (!parent) return run();
  const span = parent.createChildSpan({ type: SpanType.GENERIC, name: `browser: ${id.replace(/^browser_/, '')}` });
  // Work a timed-out call leaves running ends after its span: its late stages are not added to a closed span.
  let open = true;
  const listener = (name: string) => {
    if (!open) return () => {};
    const child = span.createChildSpan({ type: SpanType.GENERIC, name });
    return (error?: unknown) => (error === undefined ? child.end() : child.error({ error: error instanceof Error ? error : new Error(String(error)) }));
  };
  try {
    const result = await withStageListener(listener, run);
    open = false;
    const url = pageAddress();
    const metadata = {
      result: result.ok ? 'ok' : result.error!.code,
      ...(url ? { pageUrl: url } : {}),
      ...(result.notices?.length ? { notices: result.notices.length } : {}),
    };
    // The tool-call span above already holds the whole result; this one keeps what a trace is searched by.
    const { code, retryable } = result.error ?? {};
    span.end({ metadata, output: result.ok ? { ok: true } : { ok: false, error: { code, retryable } } });
    return result;
  } catch (error) {
    open = false;
    span.error({ error: error instanceof Error ? error : new Error(String(error)) });
    throw error;
  }
}
