/**
 * Comment render worker: renders untrusted comment markdown one item at a time and
 * answers each as soon as it is done. Before each item it writes the item's sequence
 * number and start time to shared memory, so the pool can tell "still on this item
 * since t" from "done, answer queued" even when the main thread was busy.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { renderCommentMarkdown } from './comment-markdown.ts';

export interface CommentWorkerData {
  /** [0]: sequence number of the item being rendered; [1]: its start, ms since the epoch. */
  progress: SharedArrayBuffer;
}
export interface CommentRenderRequest {
  items: { seq: number; markdown: string }[];
}
export type CommentRenderReply = { ready: true } | { seq: number; html: string } | { seq: number; error: string };

const progress = new BigInt64Array((workerData as CommentWorkerData).progress);

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
