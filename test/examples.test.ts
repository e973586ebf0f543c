/**
 * The examples a user copies run as written, on a fresh machine with no key and no network: each starts its own
 * local site, and without OPENAI_API_KEY a scripted model stands in for the LLM. None leans on the test helpers.
 * (`npm run demo`, examples/demo.ts, has its own test: demo.test.ts.)
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

function example(file: string) {
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  return run(process.execPath, [`${root}node_modules/tsx/dist/cli.mjs`, `examples/${file}`], { cwd: root, timeout: 120_000, env });
}

it('no example imports from test/', () => {
  const files = readdirSync(join(root, 'examples')).filter((file) => file.endsWith('.ts'));
  const leaning = files.filter((file) => /from\s+['"]\.\.\/test\//.test(readFileSync(join(root, 'examples', file), 'utf8')));
  expect(files.length).toBeGreaterThan(0);
  expect(leaning).toEqual([]);
});

for (const file of ['agent.ts', 'provider.ts']) {
  it(`examples/${file} signs up on its own local site with no API key`, async () => {
    const { stdout } = await example(file);
    expect(stdout).toContain('No OPENAI_API_KEY: a scripted model stands in');
    expect(stdout).toContain('Signed up. The page says: Welcome, Ada Lovelace!');
    expect(stdout).toContain('The site received: {"name":"Ada Lovelace","email":"ada@example.com","password":"correct horse battery","terms":"yes"}');
  }, 150_000);
}
