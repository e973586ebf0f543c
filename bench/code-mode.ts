/**
 * `npm run bench:code-mode` (Node 22.6 or newer): one multi-step task (sign up on a form, read back a value and
 * what the page says after) done by a scripted model in a real Mastra Agent, call by call and in Mastra's Code
 * Mode, with the tokens each way costs: what the model reads of the results, what it writes, and its whole input
 * over every turn (the tool list or the Code Mode instructions, the messages so far). The task and both scripts
 * are in test/helpers/signUpTask.ts; test/code-mode.test.ts checks the Code Mode run. Writes
 * bench/results/code-mode.{md,json}.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import { createCodeMode } from '@mastra/core/tools';
import { LocalSandbox } from '@mastra/core/workspace';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { BrowserToolset } from '../src/index.js';
import { scriptedModel, type Decision, type ToolResultSeen } from '../test/helpers/scriptedModel.js';
import { OFFLINE_ARGS, startServer } from '../test/helpers/server.js';
import { callByCall, inCodeMode } from '../test/helpers/signUpTask.js';
import { RESULTS } from './readme-figures.js';
import { CHROMIUM } from './systems.js';

interface Way {
  way: string;
  answer: string;
  turns: number;
  browserCalls: number;
  /** Tokens of the tool results the model read (text, or the JSON of a JSON result). */
  resultsRead: number;
  /** Tokens the model wrote: tool-call arguments (the program) and the answer. */
  written: number;
  /** Tokens sent with every turn: the tool list and the system instructions. */
  fixedPerTurn: number;
  /** The model's input over all turns: the fixed part each turn plus the conversation so far. */
  inputOverTurns: number;
}

const tokens = (value: unknown) => countTokens(typeof value === 'string' ? value : JSON.stringify(value));

/** The text of one prompt message's content part, as a provider would be sent it. */
function partText(part: any): string {
  if (part.type === 'text') return part.text;
  if (part.type === 'tool-call') return `${part.toolName} ${typeof part.input === 'string' ? part.input : JSON.stringify(part.input)}`;
  if (part.type === 'tool-result') return typeof part.output?.value === 'string' ? part.output.value : JSON.stringify(part.output?.value ?? part.output);
  return '';
}

async function run(way: string, tools: Record<string, unknown>, instructions: string, decide: (results: ToolResultSeen[], turn: number) => Decision): Promise<Way> {
  const model = scriptedModel(decide);
  const agent = new Agent({ id: way, name: way, instructions, model, tools: tools as never });
  const result = await agent.generate('Sign up as Ada Lovelace on the local site and tell me the referral code.', { maxSteps: 8 });
  const calls = model.doGenerateCalls;
  const last = calls.at(-1)!.prompt as any[];
  const toolList = (calls[0]!.tools ?? []).map((t: any) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const system = last.filter((m) => m.role === 'system').map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const fixedPerTurn = tokens(toolList) + tokens(system);
  const inputOverTurns = calls.reduce((total, call) => {
    const messages = (call.prompt as any[]).filter((m) => m.role !== 'system');
    return total + fixedPerTurn + messages.reduce((n, m) => n + (typeof m.content === 'string' ? tokens(m.content) : m.content.reduce((k: number, p: any) => k + tokens(partText(p)), 0)), 0);
  }, 0);
  const parts = last.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
  const results = parts.filter((p: any) => p.type === 'tool-result');
  const toolCalls = parts.filter((p: any) => p.type === 'tool-call');
  return {
    way,
    answer: result.text,
    turns: calls.length,
    browserCalls: way === 'call by call' ? toolCalls.length : -1,
    resultsRead: results.reduce((n: number, p: any) => n + tokens(partText(p)), 0),
    written: toolCalls.reduce((n: number, p: any) => n + tokens(typeof p.input === 'string' ? p.input : JSON.stringify(p.input)), 0) + tokens(result.text),
    fixedPerTurn,
    inputOverTurns,
  };
}

async function main(): Promise<void> {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 6)) throw new Error(`Code Mode runs programs with node --experimental-strip-types: run this with Node 22.6 or newer (this is ${process.versions.node}).`);
  const server = await startServer();
  const browser = new BrowserToolset({ executablePath: CHROMIUM, args: OFFLINE_ARGS });
  const workspace = mkdtempSync(join(tmpdir(), 'bench-code-mode-'));
  const url = server.url('/fixtures/form.html');
  const ways: Way[] = [];
  try {
    // The browser is started before either way, so neither pays for the launch.
    await browser.page();
    ways.push(await run('call by call', browser.tools, 'You use a web browser to complete tasks.', callByCall(url)));
    let programCalls = 0;
    const counted = Object.fromEntries(
      Object.entries(browser.tools).map(([id, tool]) => [id, { ...tool, id, execute: (input: unknown, context: unknown) => (programCalls++, (tool as any).execute(input, context)) }]),
    );
    const { tool, instructions } = createCodeMode({ tools: counted as never, sandbox: new LocalSandbox({ workingDirectory: workspace }), timeout: 120_000 });
    const codeMode = await run('Code Mode', { [tool.id]: tool }, `You use a web browser to complete tasks.\n${instructions}`, inCodeMode(url, tool.id));
    codeMode.browserCalls = programCalls;
    ways.push(codeMode);
  } finally {
    await browser.close();
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
  }

  const row = (w: Way) => [w.way, String(w.turns), String(w.browserCalls), fmt(w.resultsRead), fmt(w.written), fmt(w.fixedPerTurn), fmt(w.inputOverTurns)];
  const head = ['way', 'model turns', 'browser calls', 'results read', 'written by the model', 'tool list and instructions, per turn', 'input over all turns'];
  const markdown = `# Code Mode: one task, call by call and as one program

Generated by \`npm run bench:code-mode\` (Node ${process.versions.node}) on ${new Date().toISOString().slice(0, 10)}. A scripted model in a real Mastra Agent
signs up on test/fixtures/form.html (three fields, a checkbox, the button), reads back the referral code the form shows
and what the page says once the form is sent (test/helpers/signUpTask.ts). Call by call it reads every result's text
and picks refs out of it; in Code Mode (\`createCodeMode({ tools: browser.tools })\`, Mastra's default transport in a
LocalSandbox) it writes one program that finds refs by role and name in each result's \`elements\` and returns only what
was asked. o200k tokens. "Input over all turns" is what the model is sent over the task: the tool list and the
instructions on every turn (Code Mode's instructions declare every tool with its input and result types), plus the
conversation so far. Both answers: ${ways.map((w) => JSON.stringify(w.answer)).join(' / ')}.

| ${head.join(' | ')} |
|---|${head.slice(1).map(() => '---:').join('|')}|
${ways.map((w) => `| ${row(w).join(' | ')} |`).join('\n')}
`;
  writeFileSync(join(RESULTS, 'code-mode.md'), markdown);
  writeFileSync(join(RESULTS, 'code-mode.json'), `${JSON.stringify(ways, null, 1)}\n`);
  console.log(markdown);
}

const fmt = (n: number) => n.toLocaleString('en-US');

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
