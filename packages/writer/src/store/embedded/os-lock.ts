/**
 * Locks the operating system releases when their holder dies: open-file-description
 * locks (`fcntl(F_OFD_SETLK)` on Linux, `flock` elsewhere) through
 * fs-native-extensions. A SIGKILL, a crash or a full disk can never leave a lock
 * behind, so nothing ever has to guess from a pid whether a lock is stale.
 *
 * - `claimExclusive` holds a lock for the life of the process: the writer takes
 *   `data/.writer.lock`, so a second writer on the same folder is refused at once. The
 *   file holds the holder's pid, then any lines it records (`record`: where the writer
 *   listens, read by `agora mcp`); `readHolder` reads them back.
 * - `FileMutex` is a short lock around each write (`data/.store.lock`), shared by the
 *   writer and the CLI (moderation, import, tokens), queued within a process. `run`
 *   takes the whole file; `runFor(key)` takes one byte of it chosen by the key (a
 *   post's comments), so writes of different posts run side by side and a slow write
 *   of one post (a big file, a slow fsync) never holds another's. A whole-file run
 *   excludes every keyed one, in this process (queues) and across processes (the
 *   kernel: a lock on the whole file conflicts with any byte of it). A waiter holds a
 *   gate (byte 0, the turnstile, for the whole file; the key's intent byte for a key),
 *   and no other process takes the lock while its gate is held, so a steady stream of
 *   post locks (a writer under load) cannot starve a command.
 */
import { createHash } from 'node:crypto';
import { constants, ftruncateSync, writeSync } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { tryLock, unlock } from 'fs-native-extensions';
import { StoreError } from '../types.ts';

/** A held process-lifetime lock. */
export interface HeldLock {
  /**
   * Write `lines` after the pid line, for whoever finds the lock held (the writer's
   * address for `agora mcp`). Synchronous: a few bytes, written once, in place (the
   * pid line stays readable throughout).
   */
  record(lines: readonly string[]): void;
  release(): Promise<void>;
}

/**
 * What a lock file says about its holder: the pid (null if unreadable), the lines recorded
 * after it, and where it listens: the first of them that is an http(s) URL (null when none,
 * as in a file an older writer wrote, or `agora build`'s).
 */
export interface LockHolder {
  pid: number | null;
  lines: string[];
  url: string | null;
}

/** Parse a lock file's text (`<pid>\n<line>\n…`); any text parses, a stale or foreign file included. */
export function parseHolder(text: string): LockHolder {
  const [first = '', ...rest] = text.split('\n');
  const pid = /^\d+$/.test(first.trim()) ? Number(first.trim()) : null;
  const lines = rest.map((line) => line.trim()).filter(Boolean);
  return { pid, lines, url: lines.find((line) => URL.canParse(line) && /^https?:$/.test(new URL(line).protocol)) ?? null };
}

/** Read what the holder of the lock at `path` wrote (a missing file reads as nothing). */
export async function readHolder(path: string): Promise<LockHolder> {
  return parseHolder(await readFile(path, 'utf8').catch(() => ''));
}

/**
 * Take `path` exclusively for as long as the process lives, or fail with `locked`.
 * The holder's pid is written into the file only so the refusal can name it (and
 * `record` adds lines after it).
 */
export async function claimExclusive(path: string, what: string): Promise<HeldLock> {
  // Read-write, created if missing, not append: `record` writes at offset 0.
  const handle = await open(path, constants.O_RDWR | constants.O_CREAT).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EROFS' && error.code !== 'EACCES' && error.code !== 'EPERM') throw error;
    throw new StoreError('unavailable', `Cannot start: ${what} is not writable (${error.code}: cannot open \`${path}\` for writing). Make it writable by this user, or give this process another folder (AGORA_DATA_DIR, AGORA_DIST_DIR).`, { cause: error });
  });
  if (!tryLock(handle.fd)) {
    const { pid } = parseHolder(await handle.readFile('utf8').catch(() => ''));
    await handle.close();
    throw new StoreError('locked', `Cannot start: ${what} is already used by another agora writer${pid !== null ? ` (pid ${pid})` : ''} (\`${path}\` is locked). Stop that process, give this one its own AGORA_DATA_DIR, or use the postgres store to run several writers on one site.`);
  }
  try {
    await handle.truncate(0);
    await handle.write(`${process.pid}\n`, 0);
  } catch (error) {
    unlock(handle.fd);
    await handle.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOSPC' && code !== 'EDQUOT') throw error;
    throw new StoreError('disk_full', `Cannot start: no space left on the disk holding ${what} (${code} while writing \`${path}\`). Free some space on it, then start again; nothing stored was changed.`, { cause: error });
  }
  return {
    record(lines) {
      // Write over the old text, then cut what is left of it: never an empty file.
      const text = Buffer.from([String(process.pid), ...lines].map((line) => `${line}\n`).join(''));
      writeSync(handle.fd, text, 0, text.length, 0);
      ftruncateSync(handle.fd, text.length);
    },
    async release() {
      unlock(handle.fd);
      await handle.close();
    },
  };
}

/**
 * The lock file's bytes: 0 is the turnstile a whole-file waiter holds; 1 … 2^30 are the
 * keys' (`byteOf`); the whole-file lock covers both. Past them, each key has its own
 * intent byte (`INTENTS + byteOf(key)`), held by a process waiting for that key, outside
 * the whole-file range so a waiter for a key never holds up a whole-file run.
 */
const TURNSTILE = 0;
const WHOLE = 2 ** 31;
const INTENTS = WHOLE;

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
    const next = this.tail.then(() => Promise.all(keyedBefore)).then(() => this.locked(TURNSTILE, WHOLE, fn));
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
    // What a waiter holds so no one takes the lock before it: under a steady comment load
    // some post's byte is always held (a whole-file run never found the file free) and a
    // busy post is locked again at once (a moderator's hide never found it free).
    const gate = length === WHOLE ? TURNSTILE : INTENTS + offset;
    let waiting = false;
    // Polling tryLock keeps the thread pool free (a blocking wait would hold a thread).
    for (let delay = 1; !this.tryTake(fd, offset, length, waiting); delay = Math.min(delay * 2, 25)) {
      if (Date.now() > deadline) {
        if (waiting) unlock(fd, gate, 1);
        throw new StoreError('unavailable', `Cannot lock \`${this.path}\` within ${this.timeoutMs} ms: another agora process holds it for a long write; try again`);
      }
      if (!waiting) waiting = tryLock(fd, gate, 1);
      await new Promise((r) => setTimeout(r, delay));
    }
    try {
      return await fn();
    } finally {
      unlock(fd, offset, length);
      // (The whole-file range includes the turnstile.)
      if (waiting && length !== WHOLE) unlock(fd, gate, 1);
    }
  }

  /**
   * Take the lock of `offset`/`length` if it is free and no other process waits for it
   * (a key: neither the turnstile nor the key's intent byte is held; `ownIntent`: the
   * intent byte is this run's own, not tested, as testing it would let go of it).
   */
  private tryTake(fd: number, offset: number, length: number, ownIntent: boolean): boolean {
    if (length !== WHOLE && !(isFree(fd, TURNSTILE) && (ownIntent || isFree(fd, INTENTS + offset)))) return false;
    return tryLock(fd, offset, length);
  }
}

/** No other process holds `byte` (a shared lock on it is taken and let go at once). */
function isFree(fd: number, byte: number): boolean {
  if (!tryLock(fd, byte, 1, { shared: true })) return false;
  unlock(fd, byte, 1);
  return true;
}
