/** Processes of a process tree, to check that a server leaves no Chromium behind. Linux `ps`; no test-runner imports. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Chromium processes anywhere below `root` (its children, their children, ...). */
export function browserPidsUnder(root: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) if (below.has(row.ppid) && !below.has(row.pid)) grew = below.add(row.pid).size > 0;
  }
  return rows.filter((row) => row.pid !== root && below.has(row.pid) && /chrom/i.test(row.args)).map((row) => row.pid);
}

/** Running, not exited: a zombie (exited, waiting for a parent to reap it) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until none of `pids` is alive, for at most `limitMs`; returns the ones still alive. */
export async function waitForExit(pids: number[], limitMs = 30_000): Promise<number[]> {
  const end = Date.now() + limitMs;
  let alive = pids.filter(isAlive);
  while (alive.length && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    alive = alive.filter(isAlive);
  }
  return alive;
}

/** Ends a process and the browsers under it at once, as a crash or an OOM kill would, and waits until they are gone. */
export async function killWithBrowsers(pid: number): Promise<void> {
  const browsers = browserPidsUnder(pid);
  for (const each of [pid, ...browsers]) {
    try {
      process.kill(each, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await waitForExit([pid, ...browsers]);
}
