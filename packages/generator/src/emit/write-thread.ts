/**
 * A thread that writes the small dist/ files of a long-lived process's rebuilds (the
 * writer, `agora dev`). Written on the main thread, each file is open, write, close and
 * a rename over the old file, and on ext4 a rename over a file starts writing the new
 * one back to disk at once (`auto_da_alloc`): under 50 clients on a 10,000-post site on
 * disk, renames and opens took ~30 % of the writer's main thread, and on the 16-post
 * site ~38 % (a comment rewrites ~18 files there); through the thread pool each call
 * would wait for a turn of that saturated thread. Here a batch of files is one round trip
 * (docs/performance.md, twenty-second session).
 *
 * A worker that dies fails the batches it held (each file is whole or untouched: the
 * replacement is atomic) and the next batch starts another.
 */
import { Worker } from 'node:worker_threads';
import type { WriteBatch, WriteBatchReply, WriteFailure } from './write-thread-worker.ts';

export type { WriteFailure };

interface Waiting {
  resolve: (failures: WriteFailure[]) => void;
  reject: (error: unknown) => void;
}

export class WriteThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private seq = 0;

  /**
   * Replace each file at its (absolute) path with its bytes, atomically. Resolves with a
   * failure per file (null: written); rejects if the thread stopped. The bytes are handed
   * over, not copied: the caller must not use them again.
   */
  write(files: readonly { path: string; bytes: Uint8Array }[]): Promise<WriteFailure[]> {
    const worker = this.start();
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      // Kept alive only while it has work: a process done with its rebuilds may exit.
      worker.ref();
      worker.postMessage({ seq, files: [...files] } satisfies WriteBatch, files.map((f) => f.bytes.buffer as ArrayBuffer));
    });
  }

  /** Stop the thread once the batches under way are answered. */
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
    const worker = new Worker(new URL(import.meta.url.endsWith('.ts') ? './write-thread-entry.mjs' : './write-thread-worker.js', import.meta.url), {
      // It holds one batch of small files at a time.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 },
    });
    let loaded = false;
    worker.on('message', (reply: WriteBatchReply) => {
      if ('ready' in reply) {
        loaded = true;
        if (this.waiting.size === 0) worker.unref();
        return;
      }
      const waiting = this.waiting.get(reply.seq);
      this.waiting.delete(reply.seq);
      if (this.waiting.size === 0 && loaded) worker.unref();
      waiting?.resolve(reply.failures);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const [, w] of this.waiting) w.reject(new Error(`The dist/ write thread stopped (${error.message}); the files it was writing are whole, old or new`));
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
