/**
 * Locks the operating system releases when their holder dies: open-file-description
 * locks (`fcntl(F_OFD_SETLK)` on Linux, `flock` elsewhere) through
 * fs-native-extensions. A SIGKILL, a crash or a full disk can never leave a lock
 * behind, so nothing ever has to guess from a pid whether a lock is stale.
 *
 * - `claimExclusive` holds a lock for the life of the process: the writer takes
 *   `data/.writer.lock`, so a second writer on the same folder is refused at once.
 * - `FileMutex` is a short lock around each write (`data/.store.lock`), shared by the
 *   writer and the CLI (moderation, import, tokens), queued within a process. `run`
 *   takes the whole file; `runFor(key)` takes one byte of it chosen by the key (a
 *   post's comments), so writes of different posts run side by side and a slow write
 *   of one post (a big file, a slow fsync) never holds another's. A whole-file run
 *   excludes every keyed one, in this process (queues) and across processes (the
 *   kernel: a lock on the whole file conflicts with any byte of it).
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { tryLock, unlock } from 'fs-native-extensions';
import { StoreError } from '../types.ts';

/** A held process-lifetime lock. */
export interface HeldLock {
  release(): Promise<void>;
}

/**
 * Take `path` exclusively for as long as the process lives, or fail with `locked`.
 * The holder's pid is written into the file only so the refusal can name it.
 */
export async function claimExclusive(path: string, what: string): Promise<HeldLock> {
  const handle = await open(path, 'a+');
  if (!tryLock(handle.fd)) {
    const holder = (await handle.readFile('utf8').catch(() => '')).trim();
    await handle.close();
    throw new StoreError('locked', `Cannot start: ${what} is already used by another agora writer${holder ? ` (pid ${holder})` : ''} (\`${path}\` is locked). Stop that process, give this one its own AGORA_DATA_DIR, or use the postgres store to run several writers on one site.`);
  }
  await handle.truncate(0);
  await handle.write(`${process.pid}\n`, 0);
  return {
    async release() {
      unlock(handle.fd);
      await handle.close();
    },
  };
}

/** The byte of the lock file a key locks (never byte 0 … the whole-file lock covers all). */
function byteOf(key: string): number {
  return 1 + (createHash('sha1').update(key).digest().readUInt32BE(0) % 2 ** 30);
}

/** A short exclusive lock on a file (or on one key's byte of it), shared across processes and queued within this one. */
export class FileMutex {
  private handle: FileHandle | null = null;
  /** Whole-file runs, one after another. */
  private tail: Promise<unknown> = Promise.resolve();
  /** The last keyed run of each key (runs of one key go one after another). */
  private readonly keyed = new Map<string, Promise<unknown>>();

  constructor(
    readonly path: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Run `fn` while holding the whole lock (after every keyed run queued before it). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const keyedBefore = [...this.keyed.values()];
    const next = this.tail.then(() => Promise.all(keyedBefore)).then(() => this.locked(0, 0, fn));
    this.tail = next.catch(() => {});
    return next;
  }

  /** Run `fn` while holding the lock of `key` only (after the whole-file runs queued before it). */
  runFor<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.keyed.get(key) ?? Promise.resolve();
    const next = Promise.all([previous, this.tail]).then(() => this.locked(byteOf(key), 1, fn));
    const settled = next.then(() => {}, () => {});
    this.keyed.set(key, settled);
    void settled.then(() => {
      if (this.keyed.get(key) === settled) this.keyed.delete(key);
    });
    return next;
  }

  async close(): Promise<void> {
    await Promise.all([this.tail, ...this.keyed.values()]);
    await this.handle?.close();
    this.handle = null;
  }

  private async locked<T>(offset: number, length: number, fn: () => Promise<T>): Promise<T> {
    this.handle ??= await open(this.path, 'a+');
    const fd = this.handle.fd;
    const deadline = Date.now() + this.timeoutMs;
    // Polling tryLock keeps the thread pool free (a blocking wait would hold a thread).
    for (let delay = 1; !tryLock(fd, offset, length); delay = Math.min(delay * 2, 25)) {
      if (Date.now() > deadline) {
        throw new StoreError('unavailable', `Cannot lock \`${this.path}\` within ${this.timeoutMs} ms: another agora process holds it for a long write; try again`);
      }
      await new Promise((r) => setTimeout(r, delay));
    }
    try {
      return await fn();
    } finally {
      unlock(fd, offset, length);
    }
  }
}
