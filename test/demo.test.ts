import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

function demo(env: NodeJS.ProcessEnv = process.env) {
  return run(process.execPath, [`${root}node_modules/tsx/dist/cli.mjs`, 'examples/demo.ts'], { cwd: root, timeout: 120_000, env });
}

// The README's first command. It runs under tsx (esbuild), which transforms code differently from vitest:
// this is where functions serialised into the page would break.
it('npm run demo drives the tools on the bundled page, says which browser it used, and the form arrives', async () => {
  const { stdout } = await demo();
  expect(stdout).toContain('The local server received: {"name":"Ada Lovelace","email":"ada@example.com"');
  expect(stdout).toMatch(/\(browser: (system|bundled|CHROME_PATH) \/\S+, Chromium \d+/);
  expect(stdout.match(/^ {2}ok: false$/gm)).toHaveLength(1); // the deliberate wrong ref, and nothing else
  expect(stdout).toContain('"code":"element_not_found"');
  expect(stdout).not.toContain('browser_error');
});

it('the demo without a usable browser prints the structured error and what to do, exits 1, no stack trace', async () => {
  // A CHROME_PATH that is not there is reported whichever browser the environment would otherwise pick.
  const failed = await demo({ ...process.env, CHROME_PATH: '/nonexistent/chrome', MASTRA_BROWSER_CHROMIUM: 'auto' }).then(
    () => undefined,
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stdout).toContain('"code":"browser_not_found"');
  expect(failed?.stderr).toMatch(/The demo stopped: browser_navigate gave browser_not_found[\s\S]*What to do: .*CHROME_PATH/);
  expect(failed?.stderr).not.toMatch(/\n\s+at /); // no stack trace
});
