/**
 * A session store in a directory on disk: for one host whose process restarts or runs several times (a deploy,
 * a crash, a few workers). Each session is one file, written whole to a temporary file and renamed over the old
 * one, so a reader never sees half of it. Each lease is a small file with its holder and expiry, changed only
 * under a lock file created exclusively, so two processes never both take it; a lease whose holder process has
 * ended is free at once.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Lease, SessionStore } from './types.js';

/** A lock file older than this was left by a process that died while holding it (it is held for a few ms). */
const STALE_LOCK_MS = 5_000;

interface LeaseFile {
  holder?: string;
  expires: number;
  stamp?: string;
}

/**
 * Whether a lease's holder is a process of this host that has ended (a crash, a kill): holders are named
 * `host:pid:…` (store/keeper.ts). One host is what this store is for, so a restarted server need not wait for
 * the lease of the process it replaces to expire.
 */
function holderGone(holder: string): boolean {
  const [host, pid] = holder.split(':');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return errorCode(error) === 'ESRCH';
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

export class DirectoryStore implements SessionStore {
  private ready: Promise<unknown> | undefined;

  constructor(readonly dir: string) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.path(key, 'session'));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    await this.writeWhole(this.path(key, 'session'), data);
  }

  async delete(key: string): Promise<void> {
    await this.locked(key, async () => {
      await Promise.all(['session', 'lease'].map((ext) => unlink(this.path(key, ext)).catch(() => {})));
    });
  }

  async acquire(key: string, holder: string, ttlMs: number): Promise<Lease | undefined> {
    return this.locked(key, async () => {
      const lease = await this.readLease(key);
      const now = Date.now();
      if (lease.holder && lease.holder !== holder && lease.expires > now && !holderGone(lease.holder)) return undefined;
      await this.writeWhole(this.path(key, 'lease'), JSON.stringify({ holder, expires: now + ttlMs, stamp: lease.stamp } satisfies LeaseFile));
      return { stamp: lease.stamp };
    });
  }

  async renew(key: string, holder: string, ttlMs: number): Promise<boolean> {
    return this.locked(key, async () => {
      const lease = await this.readLease(key);
      if (lease.holder !== holder || lease.expires <= Date.now()) return false;
      await this.writeWhole(this.path(key, 'lease'), JSON.stringify({ ...lease, expires: Date.now() + ttlMs }));
      return true;
    });
  }

  async release(key: string, holder: string, stamp?: string): Promise<void> {
    await this.locked(key, async () => {
      const lease = await this.readLease(key);
      if (lease.holder !== holder) return;
      await this.writeWhole(this.path(key, 'lease'), JSON.stringify({ expires: 0, stamp: stamp ?? lease.stamp } satisfies LeaseFile));
    });
  }

  /** File names are a hash of the key: keys are any strings, and a thread id says nothing on disk. */
  private path(key: string, ext: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.${ext}`);
  }

  private async readLease(key: string): Promise<LeaseFile> {
    try {
      return JSON.parse(await readFile(this.path(key, 'lease'), 'utf8')) as LeaseFile;
    } catch {
      return { expires: 0 };
    }
  }

  private async writeWhole(path: string, data: Uint8Array | string): Promise<void> {
    await (this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 }));
    const temp = `${path}.${randomUUID()}.tmp`;
    try {
      await writeFile(temp, data, { mode: 0o600 });
      await rename(temp, path);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
  }

  /** Runs `work` while holding the key's lock file, which only one process can create at a time. */
  private async locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    await (this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 }));
    const lock = this.path(key, 'lock');
    for (;;) {
      try {
        await (await open(lock, 'wx', 0o600)).close();
        break;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
        const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
        if (age > STALE_LOCK_MS) await unlink(lock).catch(() => {});
        else await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    try {
      return await work();
    } finally {
      await unlink(lock).catch(() => {});
    }
  }
}
