/**
 * `npm run bench:tools`: how many tokens the tool list costs. Every tool's name, description and JSON
 * schema is sent to the model on every turn, so this is paid on every step of every task.
 *
 * For Mastra toolsets (ours and @mastra/agent-browser) we read the list exactly as Mastra hands it to the
 * model, by running an Agent with a scripted model that records its call options. @playwright/mcp's list
 * comes from its MCP server over stdio. All are counted in the same shape: [{ name, description, inputSchema }].
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AgentBrowser } from '@mastra/agent-browser';
import { Agent } from '@mastra/core/agent';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MockLanguageModelV3 } from 'ai/test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { BrowserToolset } from '../src/index.js';

interface ToolSpec {
  name: string;
  description: string;
  inputSchema: unknown;
}

export interface ToolListCost {
  system: string;
  tools: number;
  tokens: number;
  names: string[];
}

/** The tools Mastra sends to the model for an agent with `tools`. */
async function mastraToolList(tools: Record<string, unknown>): Promise<ToolSpec[]> {
  let seen: ToolSpec[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      seen = (options.tools ?? []).flatMap((t) => (t.type === 'function' ? [{ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema }] : []));
      return {
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
        warnings: [],
      };
    },
  });
  const agent = new Agent({ id: 'tool-list', name: 'tool-list', instructions: '-', model, tools: tools as never });
  await agent.generate('list');
  return seen;
}

async function playwrightMcpToolList(): Promise<ToolSpec[]> {
  const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')), 'cli.js');
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, '--headless', '--isolated', '--executable-path', '/usr/bin/chromium'], stderr: 'ignore' });
  const client = new Client({ name: 'tool-list-bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    return tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema }));
  } finally {
    await client.close();
  }
}

function cost(system: string, specs: ToolSpec[]): ToolListCost {
  return { system, tools: specs.length, tokens: countTokens(JSON.stringify(specs)), names: specs.map((s) => s.name) };
}

export async function measureToolLists(): Promise<ToolListCost[]> {
  const uploadDir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
  const ours = new BrowserToolset();
  const oursAll = new BrowserToolset({ allowEvaluate: true, uploadDir });
  const mastra = new AgentBrowser({ headless: true });
  const results = [
    cost('ours (default)', await mastraToolList(ours.tools)),
    cost('ours (all tools: + evaluate, upload)', await mastraToolList(oursAll.tools)),
    cost('@mastra/agent-browser 0.5.0', await mastraToolList(mastra.getTools())),
    cost('@playwright/mcp 0.0.83 (default)', await playwrightMcpToolList()),
  ];
  await Promise.all([ours.close(), oursAll.close()]);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await measureToolLists();
  const lines = [
    '| system | tools | tool-list tokens (o200k) |',
    '|---|---:|---:|',
    ...results.map((r) => `| ${r.system} | ${r.tools} | ${r.tokens.toLocaleString('en-US')} |`),
  ];
  console.log(lines.join('\n'));
  for (const r of results) console.log(`\n${r.system}: ${r.names.join(', ')}`);
  const dir = join(dirname(new URL(import.meta.url).pathname), 'results');
  writeFileSync(join(dir, 'tools.json'), JSON.stringify(results, null, 2));
  writeFileSync(
    join(dir, 'tools.md'),
    `Tool-list tokens, ${new Date().toISOString().slice(0, 10)} (name, description and JSON schema of every tool, as Mastra sends them; o200k_base):\n\n${lines.join('\n')}\n\n${results.map((r) => `- ${r.system}: ${r.names.join(', ')}`).join('\n')}\n`,
  );
}
