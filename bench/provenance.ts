/** What a benchmark report says about the code and packages it measured. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The commit, and whether src/ differs from it: only src/ decides what our system does. BENCH_SOURCE overrides. */
export function describeSource(): string {
  if (process.env.BENCH_SOURCE) return process.env.BENCH_SOURCE;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const dirty = git('status', '--porcelain', '--', 'src') !== '';
    return `commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in src/' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** The installed version of a package, as seen from `from` (the repository by default). */
export function packageVersion(name: string, from = ROOT): string {
  try {
    return (JSON.parse(readFileSync(join(from, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}
