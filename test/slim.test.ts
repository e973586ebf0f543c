/**
 * A slim container: the system has no NSS/NSPR libraries, which the npm-shipped Chromium links to. The
 * toolset gives the browser the copies its package carries, and the page works. Simulated by hiding the
 * system's copies in a private mount namespace (needs root, as in CI containers; skipped otherwise).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const LIB_DIRS = ['/lib', '/usr/lib', '/lib64', '/usr/lib64', '/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib/aarch64-linux-gnu', '/usr/lib/aarch64-linux-gnu'];
const system = LIB_DIRS.flatMap((dir) => ['libnss3.so', 'libnspr4.so', 'libnssutil3.so', 'libplc4.so', 'libplds4.so'].map((lib) => join(dir, lib))).filter(existsSync);
const canHide = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0;

it.skipIf(!canHide)('without the system’s NSS libraries (a slim container), the npm-shipped Chromium still opens a page', async () => {
  const script = join(tmpdir(), `mbt-slim-${process.pid}.mts`);
  writeFileSync(
    script,
    `import { BrowserToolset } from ${JSON.stringify(join(root, 'src/index.ts'))};
     const browser = new BrowserToolset({ chromium: 'bundled' });
     const result = await browser.tools.browser_navigate.execute({ url: 'about:blank' }, {});
     const page = await browser.page();
     await page.setContent('<button>Works</button>');
     const snap = await browser.tools.browser_snapshot.execute({}, {});
     console.log(JSON.stringify({ ok: result.ok, error: result.error, snapshot: snap.snapshot, ld: process.env.LD_LIBRARY_PATH }));
     await browser.close();`,
  );
  rmSync(join(tmpdir(), 'mastra-browser-toolset-libs'), { recursive: true, force: true });
  const hide = system.map((file) => `mount --bind /dev/null ${file}`).join(' && ');
  const out = execFileSync('unshare', ['-m', 'sh', '-c', `${hide || 'true'} && exec ${process.execPath} ${join(root, 'node_modules/tsx/dist/cli.mjs')} ${script}`], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  rmSync(script, { force: true });
  const seen = JSON.parse(out.trim().split('\n').at(-1)!);
  expect(seen.error).toBeUndefined();
  expect(seen.snapshot).toContain('button "Works"');
  if (system.length) expect(seen.ld).toContain('mastra-browser-toolset-libs');
});
