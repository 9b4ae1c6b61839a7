/**
 * Render many markdown bodies on every core: one worker thread per core (one frozen
 * unified processor each) takes batches from one queue, so the work is balanced
 * whatever each batch costs, and the main thread stays free to emit and write what is
 * ready. Each worker holds two batches, so it never waits for a busy main thread to
 * hand it the next one. Workers take ~0.5 s to start (loading unified), so a cold build
 * starts them early (`RenderPool.start`) while it is still reading files. A pool
 * without workers renders on the main thread. (The main thread rendering a share as
 * well, with one worker fewer, was tried for issue 13: it costs more CPU than it saves,
 * because every collection on the main thread marks the whole site model; see
 * docs/performance.md.)
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { RenderedPost } from '../types.ts';
import type { RenderRequest, RenderResponse } from './worker.ts';

/** Posts per batch handed to a worker. */
const BATCH = 16;
/** Batches a worker holds at once (one rendering, one waiting). */
const IN_FLIGHT = 2;

/** Below this many bodies, rendering stays on the calling thread (workers take ~0.5 s to start). */
export const POOL_THRESHOLD = 200;

export class RenderPool {
  private constructor(private readonly workers: Worker[]) {}

  /** Start `count` worker threads (default: one per core). */
  static start(count = availableParallelism()): RenderPool {
    return new RenderPool(Array.from({ length: count }, () => new Worker(new URL(import.meta.url.endsWith('.ts') ? './worker-entry.mjs' : './worker.js', import.meta.url))));
  }

  /** Workers for `items` bodies when there are enough to pay for starting them, else this thread. */
  static forItems(items: number, workers?: number): RenderPool {
    return items >= POOL_THRESHOLD ? RenderPool.start(workers) : RenderPool.inline();
  }

  /** A pool without workers: everything renders on this thread. */
  static inline(): RenderPool {
    return new RenderPool([]);
  }

  /**
   * Render every `[key, markdown]` item. `onResult` sees each rendering as soon as it
   * arrives, so the caller can emit pages while the rest still renders.
   */
  async render(items: readonly [string, string][], onResult?: (key: string, rendered: RenderedPost) => void): Promise<Map<string, RenderedPost>> {
    const out = new Map<string, RenderedPost>();
    const accept = (key: string, rendered: RenderedPost) => {
      out.set(key, rendered);
      onResult?.(key, rendered);
    };
    if (this.workers.length === 0) {
      // Loaded on first use: a build that renders nothing never loads unified.
      const { renderMarkdown } = await import('./markdown.ts');
      for (const [key, markdown] of items) accept(key, renderMarkdown(markdown));
      return out;
    }
    const batches: [string, string][][] = [];
    for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH));
    let next = 0;
    const take = () => (next < batches.length ? batches[next++] : undefined);
    await Promise.all(this.workers.map((worker, index) => this.drain(worker, index, take, accept)));
    return out;
  }

  private drain(worker: Worker, id: number, take: () => [string, string][] | undefined, accept: (key: string, rendered: RenderedPost) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      let pending = 0;
      const feed = () => {
        const batch = take();
        if (!batch) return;
        pending++;
        worker.postMessage({ id, items: batch } satisfies RenderRequest);
      };
      const onMessage = (response: RenderResponse) => {
        pending--;
        feed();
        for (const [key, rendered] of response.results) accept(key, rendered);
        if (pending === 0) done();
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
      for (let i = 0; i < IN_FLIGHT; i++) feed();
      if (pending === 0) done();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
