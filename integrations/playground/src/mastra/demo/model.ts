import type { MastraModelConfig } from '@mastra/core/llm';
import { demoSiteUrl } from './site.js';

/**
 * The demo model: a deterministic stand-in for an LLM, used when no API key is set, so the playground can be tried
 * in Studio at once. Whatever the message, it runs one task on the playground's demo site: open it, follow
 * "Contact us", fill in the form, send it, and report what the page said. Like a real model it finds each ref in
 * the snapshot the tools returned, and it stops with the tool's error and hint when a step fails.
 *
 * It implements the AI SDK's language model interface (specification v2) by hand, so the project needs no test
 * utilities at run time. Mastra does not export that interface's types, hence the cast at the end.
 */

interface Step {
  tool: string;
  input: Record<string, unknown>;
  /** The element the step acts on, looked up by role and name in the latest snapshot; its ref goes into `ref`. */
  target?: { role: string; name: string };
}

const PLAN: Step[] = [
  { tool: 'browser_navigate', input: { url: demoSiteUrl } },
  { tool: 'browser_click', input: {}, target: { role: 'link', name: 'Contact us' } },
  { tool: 'browser_type', input: { text: 'Ada Lovelace' }, target: { role: 'textbox', name: 'Your name' } },
  { tool: 'browser_type', input: { text: 'Two sourdough loaves for Saturday, please.' }, target: { role: 'textbox', name: 'Message' } },
  { tool: 'browser_click', input: {}, target: { role: 'button', name: 'Send' } },
];

/** A tool result as the model reads it: the toolset sends plain text, marked as an error for a failed call. */
interface ToolResult {
  toolName: string;
  text: string;
  isError: boolean;
}

type Decision = { tool: string; input: Record<string, unknown> } | { text: string };

/** An answer ends a run; tool calls are steps within one. */
const isAnswer = (message: any) =>
  message.role === 'assistant' && Array.isArray(message.content) && !message.content.some((part: any) => part.type === 'tool-call');

/**
 * The tool results of the current run: those after the last answer, as earlier messages ran their own script.
 * (Not "after the last user message": Mastra adds notes about the browser's state as user messages between steps.)
 */
function resultsOfThisRun(prompt: any[]): ToolResult[] {
  let lastAnswer = prompt.length - 1;
  while (lastAnswer >= 0 && !isAnswer(prompt[lastAnswer])) lastAnswer--;
  const results: ToolResult[] = [];
  for (const message of prompt.slice(lastAnswer + 1)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output ?? {};
      const value = 'value' in output ? output.value : output;
      const isError = typeof output.type === 'string' && output.type.startsWith('error');
      results.push({ toolName: part.toolName, text: typeof value === 'string' ? value : JSON.stringify(value), isError });
    }
  }
  return results;
}

/** A full snapshot starts with the line `page "<title>" <url>`; results without one carry only changes. */
const hasFullSnapshot = (text: string) => /^page "/m.test(text);

/** The ref on the line `<ref> <role> "<name>"`, as a model reads it. */
function refIn(text: string, role: string, name: string): string | undefined {
  for (const line of text.split('\n')) {
    const match = /^\s*((?:f\d+)?e\d+) (\S+) ("(?:[^"\\]|\\.)*")/.exec(line);
    if (match && match[2] === role && JSON.parse(match[3]!) === name) return match[1];
  }
  return undefined;
}

/** The ref of an element on the current page: looked for in the results since the last full snapshot, newest first. */
function findRef(results: ToolResult[], role: string, name: string): string | undefined {
  for (const result of [...results].reverse()) {
    const ref = refIn(result.text, role, name);
    if (ref || hasFullSnapshot(result.text)) return ref;
  }
  return undefined;
}

function decide(results: ToolResult[]): Decision {
  const last = results.at(-1);
  if (last?.isError) return { text: `The demo stopped: ${last.toolName} failed.\n${last.text}` };
  const done = results.filter((r) => r.toolName !== 'browser_snapshot').length;
  const step = PLAN[done];
  if (!step) {
    const heading = last && /^# (.+)$/m.exec(last.text)?.[1];
    return {
      text:
        `Done. I opened the demo site (${demoSiteUrl}), followed "Contact us", filled in the form as Ada Lovelace and sent it` +
        `${heading ? `; the page now says "${heading}"` : ''}.\n\n(This is the playground's demo model. Set OPENAI_API_KEY, or ` +
        `PLAYGROUND_MODEL with its provider's key, and restart to chat with a real model.)`,
    };
  }
  if (!step.target) return { tool: step.tool, input: step.input };
  const ref = findRef(results, step.target.role, step.target.name);
  if (ref) return { tool: step.tool, input: { ...step.input, ref } };
  // Not in what the last results showed: read the page once more before giving up.
  if (last?.toolName !== 'browser_snapshot') return { tool: 'browser_snapshot', input: {} };
  return { text: `The demo stopped: the page has no ${step.target.role} "${step.target.name}" to act on. The page:\n${last.text}` };
}

const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
let calls = 0;

function content(decision: Decision): any[] {
  if ('text' in decision) return [{ type: 'text', text: decision.text }];
  return [{ type: 'tool-call', toolCallId: `demo-${++calls}`, toolName: decision.tool, input: JSON.stringify(decision.input) }];
}

const finishReason = (decision: Decision) => ('text' in decision ? 'stop' : 'tool-calls');

export const demoModel = {
  specificationVersion: 'v2' as const,
  provider: 'playground-demo',
  modelId: 'scripted-demo',
  supportedUrls: {},
  async doGenerate({ prompt }: { prompt: any[] }) {
    const decision = decide(resultsOfThisRun(prompt));
    return { content: content(decision), finishReason: finishReason(decision), usage, warnings: [] };
  },
  async doStream({ prompt }: { prompt: any[] }) {
    const decision = decide(resultsOfThisRun(prompt));
    const parts: any[] = [{ type: 'stream-start', warnings: [] }];
    for (const part of content(decision)) {
      if (part.type === 'text') parts.push({ type: 'text-start', id: 'answer' }, { type: 'text-delta', id: 'answer', delta: part.text }, { type: 'text-end', id: 'answer' });
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
} as unknown as MastraModelConfig;
