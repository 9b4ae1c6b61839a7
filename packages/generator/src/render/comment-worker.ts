/**
 * Comment render worker: renders untrusted comment markdown one item at a time and
 * answers each as soon as it is done. Before each item it writes the item's sequence
 * number and start time to shared memory, so the pool can tell "still on this item
 * since t" from "done, answer queued" even when the main thread was busy.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { renderCommentMarkdown } from './comment-markdown.ts';

export interface CommentWorkerData {
  /** [0]: sequence number of the item being rendered; [1]: its start, ms since the epoch. */
  progress: SharedArrayBuffer;
  /** Lower this thread's CPU priority by so many nice steps (0: as the process). */
  niceness: number;
}
export interface CommentRenderRequest {
  items: { seq: number; markdown: string }[];
}
export type CommentRenderReply = { ready: true } | { seq: number; html: string } | { seq: number; error: string };

const data = workerData as CommentWorkerData;
const progress = new BigInt64Array(data.progress);

/**
 * Lower this thread's priority only. Linux keeps a nice value per thread, and
 * setpriority() with a thread id changes that thread alone; elsewhere (no
 * /proc/thread-self) the worker runs at the process's priority. An unprivileged thread
 * can never raise it again, so the pool keeps such a worker for one kind of work.
 */
function lowerPriority(steps: number): void {
  if (steps <= 0) return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + steps));
  } catch {
    // Not Linux, or not allowed: the same renders at the same priority as before.
  }
}
lowerPriority(data.niceness);

parentPort?.on('message', (request: CommentRenderRequest) => {
  for (const { seq, markdown } of request.items) {
    Atomics.store(progress, 1, BigInt(Date.now()));
    Atomics.store(progress, 0, BigInt(seq));
    let reply: CommentRenderReply;
    try {
      reply = { seq, html: renderCommentMarkdown(markdown) };
    } catch (error) {
      // Stack overflows (RangeError) and any parser bug: reported, never fatal.
      reply = { seq, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
    parentPort?.postMessage(reply satisfies CommentRenderReply);
  }
});
// Build the processor and warm it up before saying ready: the budget is for the comment, not for start-up.
renderCommentMarkdown('*warm* `up` [x](https://example.com)\n\n> - a');
parentPort?.postMessage({ ready: true } satisfies CommentRenderReply);
