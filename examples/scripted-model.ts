/**
 * A stand-in for an LLM, so the examples run without an API key: it follows a fixed plan of tool calls, finding
 * each element's ref in the tool results by role and name as a model reads them, then answers. It stops with the
 * tool's error when a step fails. It implements the AI SDK's language model interface (specification v2) by hand;
 * Mastra does not export that interface's types, hence the cast at the end.
 *
 *   new Agent({ ..., model: process.env.OPENAI_API_KEY ? 'openai/gpt-4o-mini' : scriptedModel(plan, answer) })
 */
import type { MastraModelConfig } from '@mastra/core/llm';

export interface PlannedCall {
  tool: string;
  input: Record<string, unknown>;
  /** The element acted on, found by role and name in the latest snapshot; its ref is added to `input`. */
  target?: { role: string; name: string };
}

/** A tool result as the model reads it: the toolset sends plain text, marked as an error for a failed call. */
interface Seen {
  toolName: string;
  text: string;
  isError: boolean;
}

type Decision = { tool: string; input: Record<string, unknown> } | { text: string };

/** The results of the current run: after the last answer (Mastra adds notes of its own as user messages). */
function resultsOfThisRun(prompt: any[]): Seen[] {
  const isAnswer = (m: any) => m.role === 'assistant' && Array.isArray(m.content) && !m.content.some((p: any) => p.type === 'tool-call');
  let start = prompt.length - 1;
  while (start >= 0 && !isAnswer(prompt[start])) start--;
  const seen: Seen[] = [];
  for (const message of prompt.slice(start + 1)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output ?? {};
      const value = 'value' in output ? output.value : output;
      seen.push({ toolName: part.toolName, text: typeof value === 'string' ? value : JSON.stringify(value), isError: String(output.type).startsWith('error') });
    }
  }
  return seen;
}

/** The ref on a line `<ref> <role> "<name>"`, looked for from the newest result back to the last full snapshot. */
function findRef(results: Seen[], role: string, name: string): string | undefined {
  for (const { text } of [...results].reverse()) {
    for (const line of text.split('\n')) {
      const match = /^\s*((?:f\d+)?e\d+) (\S+) ("(?:[^"\\]|\\.)*")/.exec(line);
      if (match && match[2] === role && JSON.parse(match[3]!) === name) return match[1];
    }
    if (/^page "/m.test(text)) return undefined;
  }
  return undefined;
}

function decide(plan: PlannedCall[], answer: (lastResult: string) => string, results: Seen[]): Decision {
  const last = results.at(-1);
  if (last?.isError) return { text: `I stopped: ${last.toolName} failed.\n${last.text}` };
  const step = plan[results.filter((r) => r.toolName !== 'browser_snapshot').length];
  if (!step) return { text: answer(last?.text ?? '') };
  if (!step.target) return { tool: step.tool, input: step.input };
  const ref = findRef(results, step.target.role, step.target.name);
  if (ref) return { tool: step.tool, input: { ...step.input, ref } };
  if (last?.toolName !== 'browser_snapshot') return { tool: 'browser_snapshot', input: {} };
  return { text: `I stopped: the page has no ${step.target.role} "${step.target.name}".` };
}

export function scriptedModel(plan: PlannedCall[], answer: (lastResult: string) => string): MastraModelConfig {
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let calls = 0;
  const respond = (prompt: any[]) => {
    const decision = decide(plan, answer, resultsOfThisRun(prompt));
    if ('text' in decision) return { content: [{ type: 'text', text: decision.text }], finishReason: 'stop' };
    const call = { type: 'tool-call', toolCallId: `call-${++calls}`, toolName: decision.tool, input: JSON.stringify(decision.input) };
    return { content: [call], finishReason: 'tool-calls' };
  };
  return {
    specificationVersion: 'v2',
    provider: 'example',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate({ prompt }: { prompt: any[] }) {
      return { ...respond(prompt), usage, warnings: [] };
    },
    async doStream({ prompt }: { prompt: any[] }) {
      const { content, finishReason } = respond(prompt);
      const parts: any[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content as any[]) {
        if (part.type === 'text') parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
        else parts.push(part);
      }
      parts.push({ type: 'finish', usage, finishReason });
      return { stream: new ReadableStream({ start: (controller) => (parts.forEach((p) => controller.enqueue(p)), controller.close()) }) };
    },
  } as unknown as MastraModelConfig;
}
