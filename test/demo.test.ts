import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

// The README's first command. It runs under tsx (esbuild), which transforms code differently from vitest:
// this is where functions serialised into the page would break.
it('npm run demo drives the tools on the bundled page and the form arrives', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [`${root}node_modules/tsx/dist/cli.mjs`, 'examples/demo.ts'], {
    cwd: root,
    timeout: 120_000,
  });
  expect(stdout).toContain('The local server received: {"name":"Ada Lovelace","email":"ada@example.com"');
  expect(stdout.match(/^ {2}ok: false$/gm)).toHaveLength(1); // the deliberate wrong ref, and nothing else
  expect(stdout).toContain('"code":"element_not_found"');
  expect(stdout).not.toContain('browser_error');
});
