/**
 * Walls over MCP: secrets given to the server through its environment (never a tool argument), typed by name;
 * browser_handoff asking through the client's elicitation, answered, unanswered, or not offered at all.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsetConfig } from '../src/cli/options.js';
import type { BrowserToolset } from '../src/index.js';
import { createMcpServer } from '../src/mcp/server.js';
import { dispatchMouse } from '../src/provider/input.js';
import { refOf } from './helpers/refs.js';
import { OFFLINE_ARGS } from './helpers/server.js';
import { createTestToolset } from './helpers/toolset.js';
import { startWalledSite, type WalledSite } from './helpers/walledSite.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let site: WalledSite;
beforeAll(async () => {
  site = await startWalledSite();
});
afterAll(() => site.close());

async function callText(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
  return { text: result.content.map((c) => c.text ?? '').join('\n'), isError: !!result.isError };
}

describe('secrets over MCP', { timeout: 180_000 }, () => {
  it('come from the server’s environment, are listed by name and typed without reaching the client', async () => {
    const secrets = JSON.stringify({ ledger: { value: { env: 'LEDGER_PASSWORD' }, origins: [site.origin] } });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/cli/index.ts', 'mcp', '--timeout', '10000', '--navigation-timeout', '30000', ...OFFLINE_ARGS.map((arg) => `--browser-arg=${arg}`)],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), MASTRA_BROWSER_SECRETS: secrets, LEDGER_PASSWORD: site.password },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    const client = new Client({ name: 'walls-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'browser_type')!.inputSchema.properties).toHaveProperty('secret');
      const login = await callText(client, 'browser_navigate', { url: site.url('/login') });
      expect(login.text).toContain('secrets for this page: ledger');
      await callText(client, 'browser_type', { ref: refOf(login.text, 'textbox', 'Username'), text: 'ada' });
      const typed = await callText(client, 'browser_type', { ref: refOf(login.text, 'textbox', 'Password'), secret: 'ledger', submit: true });
      expect(typed.isError).toBe(false);
      expect(typed.text).toContain('Enter the code from your authenticator app');
      expect(site.received.password).toBe(site.password);
      expect(typed.text + login.text + stderr).not.toContain(site.password);
    } finally {
      await client.close();
    }
  });
});

describe('secrets from the MCP server’s config file', { timeout: 120_000 }, () => {
  it('are read from --config, the environment’s on top, and typed by name over MCP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'walls-config-'));
    const file = join(dir, 'browser.config.json');
    // The file names where the values come from; the password itself stays in the environment.
    writeFileSync(file, JSON.stringify({ secrets: { ledger: { value: { env: 'LEDGER_PASSWORD_FROM_FILE' }, origins: [site.origin] }, ledgerCode: { totp: 'JBSWY3DPEHPK3PXP', origins: [site.origin] } } }));
    process.env.MASTRA_BROWSER_SECRETS = JSON.stringify({ ledgerCode: { totp: site.seed, origins: [site.origin] } });
    let config: ReturnType<typeof toolsetConfig>;
    try {
      config = toolsetConfig({ config: file });
    } finally {
      delete process.env.MASTRA_BROWSER_SECRETS;
      rmSync(dir, { recursive: true, force: true });
    }
    expect(Object.keys(config.secrets ?? {})).toEqual(['ledger', 'ledgerCode']);
    expect(config.secrets!.ledgerCode).toMatchObject({ totp: site.seed });
    const toolset = createTestToolset({ timeout: 10_000, navigationTimeout: 30_000, secrets: config.secrets });
    const client = new Client({ name: 'config-secrets', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(toolset, { version: 'test', connectionId: 'config' }).connect(serverSide);
    await client.connect(clientSide);
    // The value is read from the environment when it is typed.
    process.env.LEDGER_PASSWORD_FROM_FILE = site.password;
    delete site.received.password;
    delete site.received.codeAccepted;
    try {
      const login = await callText(client, 'browser_navigate', { url: site.url('/login') });
      expect(login.text).toContain('secrets for this page: ledger, ledgerCode');
      await callText(client, 'browser_type', { ref: refOf(login.text, 'textbox', 'Username'), text: 'ada' });
      const typed = await callText(client, 'browser_type', { ref: refOf(login.text, 'textbox', 'Password'), secret: 'ledger', submit: true });
      expect(typed.isError).toBe(false);
      expect(site.received.password).toBe(site.password);
      const code = await callText(client, 'browser_type', { ref: refOf(typed.text, 'textbox', 'Code'), secret: 'ledgerCode', submit: true });
      expect(site.received.codeAccepted).toBe(true);
      expect(login.text + typed.text + code.text).not.toContain(site.password);
    } finally {
      delete process.env.LEDGER_PASSWORD_FROM_FILE;
      await client.close();
      await toolset.close();
    }
  });
});

describe('browser_handoff over MCP', { timeout: 120_000 }, () => {
  let toolset: BrowserToolset;
  beforeAll(() => {
    toolset = createTestToolset({ timeout: 10_000, navigationTimeout: 30_000 });
  });
  afterAll(() => toolset.close());

  /** A client connected in process; `answer` is what its user does when asked (undefined: never answers). */
  async function connect(id: string, answer?: (message: string) => Promise<ElicitResult>, elicitation = true): Promise<{ client: Client; asked: string[] }> {
    const asked: string[] = [];
    const client = new Client({ name: `handoff-${id}`, version: '1.0.0' }, { capabilities: elicitation ? { elicitation: {} } : {} });
    if (elicitation) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        return answer ? answer(request.params.message) : new Promise<ElicitResult>(() => {});
      });
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(toolset, { version: 'test', connectionId: id }).connect(serverSide);
    await client.connect(clientSide);
    return { client, asked };
  }

  it('asks the client’s user, who solves the CAPTCHA in the browser and answers; the result says the wall is gone', async () => {
    const { client, asked } = await connect('answered', async () => {
      // The person, at the browser's window: ticks the box, then says so.
      const tab = toolset.sessions.peek('mcp:answered')!.tabs.current!;
      const page = tab.page;
      const box = (await page.locator('#tick').boundingBox())!;
      const at = { x: box.x + box.width / 2, y: box.y + box.height / 2, button: 'left' as const, clickCount: 1 };
      await dispatchMouse(tab, { type: 'mousePressed', ...at });
      await dispatchMouse(tab, { type: 'mouseReleased', ...at });
      await page.getByText('Winter timetable').waitFor();
      return { action: 'accept', content: { done: true } };
    });
    try {
      await callText(client, 'browser_navigate', { url: site.url('/gate') });
      const result = await callText(client, 'browser_handoff', { reason: 'Solve the CAPTCHA' });
      expect(asked).toEqual([expect.stringMatching(/^A person is needed in the browser: Solve the CAPTCHA\. It shows "Harbour Ferries" http:\/\/127\.0\.0\.1:\d+\/gate \(hCaptcha on this page\)\. Do it in the browser's window/)]);
      expect(result.text).toMatch(/^outcome: done$/m);
      expect(result.text).toMatch(/^wallGone: true$/m);
      expect(result.text).toContain('Ferries leave every 40 minutes');
    } finally {
      await client.close();
    }
  });

  it('ends within its time limit when nobody answers, and says so', async () => {
    const { client, asked } = await connect('unanswered');
    try {
      await callText(client, 'browser_navigate', { url: site.url('/login') });
      const result = await callText(client, 'browser_handoff', { reason: 'Type the code sent to your phone', timeoutSeconds: 2 });
      expect(asked).toHaveLength(1);
      expect(result.isError).toBe(false);
      expect(result.text).toMatch(/^outcome: expired$/m);
      expect(result.text).toMatch(/^wallBefore: sign-in form/m);
      // The session goes on.
      expect((await callText(client, 'browser_snapshot', {})).isError).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('says a person must act when the client cannot be asked', async () => {
    const { client } = await connect('no-elicitation', undefined, false);
    try {
      await callText(client, 'browser_navigate', { url: site.url('/gate') });
      const result = await callText(client, 'browser_handoff', { reason: 'Solve the CAPTCHA' });
      expect(result.text).toMatch(/^outcome: person_needed$/m);
      expect(result.text).toContain(`instructions: Tell the user a person must act in the browser: Solve the CAPTCHA, on ${site.url('/gate')}.`);
    } finally {
      await client.close();
    }
  });
});

