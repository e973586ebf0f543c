import { afterAll, beforeAll } from 'vitest';
import { BrowserToolset, type BrowserToolsetConfig } from '../../src/index.js';
import { OFFLINE_ARGS, startServer, type TestServer } from './server.js';

export { OFFLINE_ARGS };

/**
 * A toolset for a test, with the product's own deadlines (10 s an action, 30 s a navigation): a busy machine makes
 * a test slower, not wrong. A test about a deadline sets its own, short one.
 */
export function createTestToolset(config: BrowserToolsetConfig = {}): BrowserToolset {
  return new BrowserToolset({ ...config, args: [...OFFLINE_ARGS, ...(config.args ?? [])] });
}

type Tools = BrowserToolset['tools'];

/** Calls a tool the way Mastra does and returns its structured result. */
export async function call<K extends keyof Tools>(toolset: BrowserToolset, id: K, input: Parameters<NonNullable<Tools[K]['execute']>>[0]): Promise<any> {
  const tool = toolset.tools[id] as any;
  return tool.execute(input, {});
}

export { refOf } from './refs.js';

/** Chromium processes started by this test process. */
export async function childBrowserPids(): Promise<number[]> {
  const { execFileSync } = await import('node:child_process');
  try {
    const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
    return out
      .split('\n')
      .filter((line) => /chrom/i.test(line))
      .map((line) => Number(line.trim().split(/\s+/)[0]));
  } catch {
    return [];
  }
}

/**
 * One local server and one toolset for a test file, started before its tests and closed after them.
 * Read `env.server` and `env.browser` inside tests (they are set by the time tests run).
 */
export function useServerAndBrowser(config: BrowserToolsetConfig = {}) {
  const env = {} as { server: TestServer; browser: BrowserToolset };
  beforeAll(async () => {
    env.server = await startServer();
    env.browser = createTestToolset(config);
  });
  afterAll(async () => {
    await env.browser.close();
    await env.server.close();
  });
  return env;
}
