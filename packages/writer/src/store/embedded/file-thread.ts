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
 * another.
 */
import { Worker } from 'node:worker_threads';
import type { Comment } from '@agora/generator';
import { StoreError, type StoreErrorCode } from '../types.ts';
import type { AppendReply, AppendRequest } from './file-thread-worker.ts';

interface Waiting {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Workers that append (each holds one post's file at a time). */
const THREADS = 2;

/** Appends to post files on `THREADS` worker threads. */
export class FileThreads {
  private readonly threads = Array.from({ length: THREADS }, () => new FileThread());

  /** Append `comments` to the post file at `path` and make it durable (under the post's lock). */
  appendComments(path: string, slug: string, comments: readonly Comment[], fix: string): Promise<void> {
    const idlest = this.threads.reduce((a, b) => (b.busy < a.busy ? b : a));
    return idlest.appendComments(path, slug, comments, fix);
  }

  /** Start the workers now (the writer, at its start), so the first comment does not wait for them to load. */
  start(): void {
    for (const t of this.threads) t.start();
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
  }
}

/** One worker thread that appends to post files, one call after another. */
export class FileThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private seq = 0;

  /** Calls sent and not answered yet. */
  get busy(): number {
    return this.waiting.size;
  }

  /** Append `comments` to the post file at `path` and make it durable (under the post's lock). */
  appendComments(path: string, slug: string, comments: readonly Comment[], fix: string): Promise<void> {
    const worker = this.start();
    const seq = ++this.seq;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      // Kept alive only while it has work: a CLI process that stored comments may exit.
      worker.ref();
      worker.postMessage({ seq, path, slug, comments: [...comments], fix } satisfies AppendRequest);
    });
  }

  /** Stop the thread (after the calls under way are answered). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    while (this.waiting.size > 0) await new Promise((r) => setTimeout(r, 5));
    await worker.terminate();
  }

  /** The worker, started if it is not running. */
  start(): Worker {
    if (this.worker) return this.worker;
    // Compiled (lib/*.js): the worker itself; from the sources (tsx): the bootstrap that registers tsx.
    const worker = new Worker(new URL(import.meta.url.endsWith('.ts') ? './file-thread-entry.mjs' : './file-thread-worker.js', import.meta.url), {
      // It holds one post's file at a time.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    let loaded = false;
    worker.on('message', (reply: AppendReply) => {
      if ('ready' in reply) {
        loaded = true;
        if (this.waiting.size === 0) worker.unref();
        return;
      }
      const waiting = this.waiting.get(reply.seq);
      this.waiting.delete(reply.seq);
      if (this.waiting.size === 0 && loaded) worker.unref();
      if (!waiting) return;
      if (!('error' in reply)) return waiting.resolve();
      const { message, code, storeCode } = reply.error;
      waiting.reject(storeCode ? new StoreError(storeCode as StoreErrorCode, message) : Object.assign(new Error(message), code ? { code } : {}));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const [, w] of this.waiting) w.reject(new StoreError('unavailable', `The store's file thread stopped (${error.message}); nothing of these comments was stored, try again`));
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.worker === worker || this.waiting.size > 0) fail(new Error(`exit code ${code}`));
    });
    // Kept referenced until it has loaded (its 'ready'): a process that ends while a
    // worker is still loading may crash on the way out instead of exiting cleanly.
    return (this.worker = worker);
  }
}
