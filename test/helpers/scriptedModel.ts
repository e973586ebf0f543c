/**
 * A language model that follows a script instead of calling an LLM: each turn, `decide` reads
 * the conversation so far (including the tool results the agent sent back) and returns tool calls
 * or a final answer. Built on the `ai` SDK's MockLanguageModelV3, so Mastra runs its real agent loop.
 */
import { MockLanguageModelV3 } from 'ai/test';

export interface ToolResultSeen {
  toolName: string;
  /** What the model reads: the text of a text result, the value of a JSON one. */
  output: any;
  /** The result reached the model marked as an error (error-text or error-json). */
  isError: boolean;
}

export type Decision = { tools: Array<{ name: string; input: Record<string, unknown> }> } | { text: string };

function toolResults(prompt: any[]): ToolResultSeen[] {
  const seen: ToolResultSeen[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const type: string | undefined = part.output?.type;
      const output = type && ['json', 'text', 'error-text', 'error-json'].includes(type) ? part.output.value : part.output;
      seen.push({ toolName: part.toolName, output, isError: !!type?.startsWith('error-') });
    }
  }
  return seen;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function contentOf(decision: Decision, turn: number): any[] {
  if ('text' in decision) return [{ type: 'text', text: decision.text }];
  return decision.tools.map((tool, i) => ({ type: 'tool-call', toolCallId: `call-${turn}-${i}`, toolName: tool.name, input: JSON.stringify(tool.input) }));
}

function finishReason(decision: Decision) {
  return 'text' in decision ? { unified: 'stop' as const, raw: 'stop' } : { unified: 'tool-calls' as const, raw: 'tool_calls' };
}

/** Mastra calls doGenerate for `agent.generate` and doStream for `agent.stream`; both follow the script. */
export function scriptedModel(decide: (results: ToolResultSeen[], turn: number) => Decision) {
  let turn = 0;
  const next = (prompt: unknown) => {
    const current = turn++;
    return { decision: decide(toolResults(prompt as any[]), current), turn: current };
  };
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const { decision, turn: current } = next(prompt);
      return { content: contentOf(decision, current), finishReason: finishReason(decision), usage, warnings: [] };
    },
    doStream: async ({ prompt }) => {
      const { decision, turn: current } = next(prompt);
      const parts: any[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of contentOf(decision, current)) {
        if (part.type === 'text') parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
        else parts.push(part);
      }
      parts.push({ type: 'finish', usage, finishReason: finishReason(decision) });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}
