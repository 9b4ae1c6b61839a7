/**
 * Threads that write the small dist/ files of a long-lived process's rebuilds (the
 * writer, `agora dev`). Written on the main thread, each file is open, write, close and
 * a rename over the old file, and on ext4 a rename over a file starts writing the new
 * one back to disk at once (`auto_da_alloc`): under 50 clients on a 10,000-post site on
 * disk, renames and opens took ~30 % of the writer's main thread, and on the 16-post
 * site ~38 % (a comment rewrites ~18 files there); through the thread pool each call
 * would wait for a turn of that saturated thread. Here a batch of files is one round
 * trip (docs/performance.md, twenty-second session).
 *
 * Two lanes, each its own thread: a post's rebuild (what a comment's 201 waits for)
 * never queues behind the hundreds of files of a site-wide flush. Writes of one path
 * keep their order across the lanes: the sink releases a write's claim only once its
 * thread has answered.
 */
import { ThreadCalls, ThreadStopped } from '../thread-calls.ts';
import type { WriteBatch, WriteBatchReply, WriteFailure } from './write-thread-worker.ts';

export type { WriteFailure };

/** A write thread with no batch for this long stops (ms). */
const IDLE_MS = 30_000;

/** One thread that replaces small files atomically, a batch per call. */
export class WriteThread extends ThreadCalls<Omit<WriteBatch, 'seq'>, Exclude<WriteBatchReply, { ready: true }>> {
  constructor() {
    super({
      // Compiled (lib/*.js): the worker itself; from the sources (tsx): the bootstrap that registers tsx.
      url: new URL(import.meta.url.endsWith('.ts') ? './write-thread-entry.mjs' : './write-thread-worker.js', import.meta.url),
      // It holds one batch of small files at a time (their bytes are handed over, outside its heap).
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 },
      name: 'The dist/ write thread',
      // A writer at rest for a while holds no write thread; the first rebuild after a calm spell starts one.
      idleMs: IDLE_MS,
    });
  }

  /**
   * Replace each file at its (absolute) path with its bytes, atomically. Resolves with a
   * failure per file (null: written); rejects (`ThreadStopped`) if the thread stopped:
   * each of its files is then whole, old or new. The bytes are handed over, not copied:
   * the caller must not use them again.
   */
  async write(files: readonly { path: string; bytes: Uint8Array }[]): Promise<WriteFailure[]> {
    const reply = await this.call({ files: [...files] }, files.map((f) => f.bytes.buffer as ArrayBuffer));
    return reply.failures;
  }
}

export { ThreadStopped };

/** The write threads of one build state: a lane for posts' own rebuilds, one for site-wide flushes. */
export class WriteThreads {
  readonly rebuilds = new WriteThread();
  readonly flushes = new WriteThread();

  /** Load both now (the writer, after its start): the first comment does not wait for them. */
  start(): void {
    this.rebuilds.start();
    this.flushes.start();
  }

  async close(): Promise<void> {
    await Promise.all([this.rebuilds.close(), this.flushes.close()]);
  }
}
