/**
 * The store's file thread: a worker that appends new comments to a post's file (read,
 * check, add, durable replace) with synchronous calls. Done on the main thread through
 * the thread pool, that is a dozen round trips (open, read, close, open, write, fsync,
 * close, rename, open, fsync, close the folder, …), and each waits for the main thread
 * to get a turn: behind a busy site-wide flush, a comment's store step took 150–550 ms
 * at 10,000 posts, though its disk work is a few. Here it is one round trip, and the
 * parse and stringify of the post's file run off the main thread.
 *
 * The caller holds the post's lock (`FileMutex.runFor`) around each call, as before,
 * so one post's appends never overlap. There are `THREADS` workers and a call goes to
 * the one with the least work waiting: a busy post's big file (a heavy client's, MBs)
 * holds one of them, never every other post's comment. A worker that dies fails what it
 * was doing (nothing half-written: the replacement is atomic) and the next call starts
 * another (`ThreadCalls`).
 */
import type { Comment } from '@agora/generator';
import { errorFromWire, ThreadCalls, ThreadStopped } from '@agora/generator/files';
import { StoreError, type StoreErrorCode } from '../types.ts';
import type { AppendReply, AppendRequest } from './file-thread-worker.ts';

/** Workers that append (each holds one post's file at a time). */
const THREADS = 2;

/** Appends to post files on `THREADS` worker threads. */
export class FileThreads {
  private readonly threads = Array.from({ length: THREADS }, () => new FileThread());

  /** Load the workers now (the writer, at its start): the first comment does not wait for them. */
  start(): void {
    for (const t of this.threads) t.start();
  }

  /** Append `comments` to the post file at `path` and make it durable (under the post's lock). */
  appendComments(path: string, slug: string, comments: readonly Comment[], fix: string): Promise<void> {
    const idlest = this.threads.reduce((a, b) => (b.busy < a.busy ? b : a));
    return idlest.appendComments(path, slug, comments, fix);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
  }
}

/** One worker thread that appends to post files, one call after another. */
export class FileThread extends ThreadCalls<Omit<AppendRequest, 'seq'>, Exclude<AppendReply, { ready: true }>> {
  constructor() {
    super({
      // Compiled (lib/*.js): the worker itself; from the sources (tsx): the bootstrap that registers tsx.
      url: new URL(import.meta.url.endsWith('.ts') ? './file-thread-entry.mjs' : './file-thread-worker.js', import.meta.url),
      // It holds one post's file at a time.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      name: "The store's file thread",
      // A writer at rest for a while holds no file thread; the first comment after a calm spell starts one (~30 ms).
      idleMs: 30_000,
    });
  }

  /** Append `comments` to the post file at `path` and make it durable (under the post's lock). */
  async appendComments(path: string, slug: string, comments: readonly Comment[], fix: string): Promise<void> {
    const reply = await this.call({ path, slug, comments: [...comments], fix }).catch((error: unknown) => {
      if (error instanceof ThreadStopped) throw new StoreError('unavailable', `${error.message}; nothing of these comments was stored, try again`);
      throw new StoreError('unavailable', `The store's file thread could not be used (${(error as Error)?.message ?? String(error)}); nothing of these comments was stored, try again`);
    });
    if (!('error' in reply)) return;
    const { storeCode } = reply.error;
    throw storeCode ? new StoreError(storeCode as StoreErrorCode, reply.error.message) : errorFromWire(reply.error);
  }
}
