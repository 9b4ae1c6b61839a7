/**
 * Render many markdown bodies on every core: the main thread and `cores - 1` worker
 * threads (one unified processor each) take batches from one queue, so the work is
 * balanced whatever each batch costs. Workers take ~0.7 s to start (loading unified
 * and the grammars), so a cold build starts them early (`RenderPool.start`) while it
 * is still reading files; the main thread renders from the first moment.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { RenderedPost } from '../types.ts';
import { renderMarkdown } from './markdown.ts';
import type { RenderRequest, RenderResponse } from './worker.ts';

const BATCH = 24;

export class RenderPool {
  private constructor(private readonly workers: Worker[]) {}

  /** Start `count` worker threads (default: cores − 1, the main thread being the last core). */
  static start(count = Math.max(0, availableParallelism() - 1)): RenderPool {
    return new RenderPool(Array.from({ length: count }, () => new Worker(new URL('./worker-entry.mjs', import.meta.url))));
  }

  /** A pool without workers: everything renders on this thread. */
  static inline(): RenderPool {
    return new RenderPool([]);
  }

  /** Render every `[key, markdown]` item. */
  async render(items: readonly [string, string][]): Promise<Map<string, RenderedPost>> {
    const out = new Map<string, RenderedPost>();
    const batches: [string, string][][] = [];
    for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH));
    let next = 0;
    const take = () => (next < batches.length ? batches[next++] : undefined);
    const viaWorkers = this.workers.map((worker, index) => this.drain(worker, index, take, out));
    for (let batch = take(); batch; batch = take()) {
      for (const [key, markdown] of batch) out.set(key, renderMarkdown(markdown));
      // Let worker results in, so idle workers get their next batch promptly.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(viaWorkers);
    return out;
  }

  private drain(worker: Worker, id: number, take: () => [string, string][] | undefined, out: Map<string, RenderedPost>): Promise<void> {
    return new Promise((resolve, reject) => {
      const feed = () => {
        const batch = take();
        if (!batch) return done();
        worker.postMessage({ id, items: batch } satisfies RenderRequest);
      };
      const onMessage = (response: RenderResponse) => {
        for (const [key, rendered] of response.results) out.set(key, rendered);
        feed();
      };
      const onError = (error: unknown) => {
        done();
        reject(error);
      };
      const done = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      feed();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
