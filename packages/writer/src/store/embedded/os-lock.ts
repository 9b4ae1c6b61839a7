/**
 * Locks the operating system releases when their holder dies: open-file-description
 * locks (`fcntl(F_OFD_SETLK)` on Linux, `flock` elsewhere) through
 * fs-native-extensions. A SIGKILL, a crash or a full disk can never leave a lock
 * behind, so nothing ever has to guess from a pid whether a lock is stale.
 *
 * - `claimExclusive` holds a lock for the life of the process: the writer takes
 *   `data/.writer.lock`, so a second writer on the same folder is refused at once.
 * - `FileMutex` is a short lock around each write (`data/.store.lock`), shared by the
 *   writer and the CLI (moderation, import, tokens), queued within a process.
 */
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

/** A short exclusive lock on a file, shared across processes and queued within this one. */
export class FileMutex {
  private handle: FileHandle | null = null;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Run `fn` while holding the lock. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(() => this.locked(fn));
    this.tail = next.catch(() => {});
    return next;
  }

  async close(): Promise<void> {
    await this.tail;
    await this.handle?.close();
    this.handle = null;
  }

  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    this.handle ??= await open(this.path, 'a+');
    const fd = this.handle.fd;
    const deadline = Date.now() + this.timeoutMs;
    // Polling tryLock keeps the thread pool free (a blocking wait would hold a thread).
    for (let delay = 1; !tryLock(fd); delay = Math.min(delay * 2, 25)) {
      if (Date.now() > deadline) {
        throw new StoreError('unavailable', `Cannot lock \`${this.path}\` within ${this.timeoutMs} ms: another agora process holds it for a long write; try again`);
      }
      await new Promise((r) => setTimeout(r, delay));
    }
    try {
      return await fn();
    } finally {
      unlock(fd);
    }
  }
}
