/**
 * What the browsers started by this Node process cost: the Chromium processes below it in the process tree
 * and their memory, read from /proc (Linux only). PSS (proportional set size) splits pages shared between
 * processes, so the PSS of a tree adds up to what it really holds; RSS counts shared pages in every process
 * that maps them, so it overstates a tree of many renderers. PSS also shares pages with processes outside the
 * tree (other Chromiums run from the same binary), so it moves when they come and go; private memory (pages
 * mapped by one process only, USS) does not, which makes it the steadier measure of growth.
 */
import { readdir, readFile } from 'node:fs/promises';

export interface TreeMemory {
  processes: number;
  pssKb: number;
  rssKb: number;
  /** Private_Clean + Private_Dirty. */
  privateKb: number;
}

async function parentOf(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isFinite(ppid) ? ppid : undefined;
}

/** Every process below `root`, at any depth. */
async function descendants(root: number): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const children = new Map<number, number[]>();
  await Promise.all(
    pids.map(async (pid) => {
      const ppid = await parentOf(pid);
      if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    }),
  );
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function kb(text: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
}

/** Chromium processes started (directly or not) by this Node process, with their summed PSS and RSS. */
export async function chromiumTree(root = process.pid): Promise<TreeMemory> {
  const total: TreeMemory = { processes: 0, pssKb: 0, rssKb: 0, privateKb: 0 };
  await Promise.all(
    (await descendants(root)).map(async (pid) => {
      const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (!/chrom/i.test(command.split('\0')[0] ?? '')) return; // tsx's esbuild service, shells
      const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
      if (!rollup) return; // exited meanwhile
      total.processes++;
      total.pssKb += kb(rollup, 'Pss');
      total.rssKb += kb(rollup, 'Rss');
      total.privateKb += kb(rollup, 'Private_Clean') + kb(rollup, 'Private_Dirty');
    }),
  );
  return total;
}

export interface Peak extends TreeMemory {
  /** Most processes seen at once (not necessarily in the sample of highest PSS). */
  maxProcesses: number;
  samples: number;
}

/** Samples the tree every `ms` while a phase runs, to catch its peak; one sample at a time. */
export class Sampler {
  private readonly samples: TreeMemory[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;

  start(ms = 1_000): this {
    this.timer = setInterval(() => {
      this.inFlight ??= chromiumTree()
        .then((sample) => void this.samples.push(sample))
        .finally(() => (this.inFlight = undefined));
    }, ms);
    return this;
  }

  /** Stops sampling and returns the peak, counting `last` (a sample taken at the end of the phase) too. */
  async stop(last?: TreeMemory): Promise<Peak> {
    clearInterval(this.timer);
    await this.inFlight;
    const all = last ? [...this.samples, last] : this.samples;
    const top = all.reduce((a, b) => (b.pssKb > a.pssKb ? b : a), { processes: 0, pssKb: 0, rssKb: 0, privateKb: 0 });
    return { ...top, maxProcesses: Math.max(0, ...all.map((s) => s.processes)), samples: all.length };
  }
}

/** Waits until the tree has at most `processes` processes (closed renderers take a moment to exit), or `ms` passed. */
export async function settleTo(processes: number, ms = 5_000): Promise<TreeMemory> {
  const end = Date.now() + ms;
  for (;;) {
    const tree = await chromiumTree();
    if (tree.processes <= processes || Date.now() > end) return tree;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
