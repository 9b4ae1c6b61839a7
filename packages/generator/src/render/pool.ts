/**
 * Render many markdown bodies on every core: one worker thread per core (one unified
 * processor each) takes batches from one queue, so the work is balanced whatever each
 * batch costs, and the main thread stays free to emit and write what is ready. Workers
 * take ~0.7 s to start (loading unified and the grammars), so a cold build starts them
 * early (`RenderPool.start`) while it is still reading files. A pool without workers
 * renders on the main thread.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { RenderedPost } from '../types.ts';
import type { RenderRequest, RenderResponse } from './worker.ts';

const BATCH = 24;

export class RenderPool {
  private constructor(private readonly workers: Worker[]) {}

  /** Start `count` worker threads (default: one per core). */
  static start(count = availableParallelism()): RenderPool {
    return new RenderPool(Array.from({ length: count }, () => new Worker(new URL(import.meta.url.endsWith('.ts') ? './worker-entry.mjs' : './worker.js', import.meta.url))));
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
      const feed = () => {
        const batch = take();
        if (!batch) return done();
        worker.postMessage({ id, items: batch } satisfies RenderRequest);
      };
      const onMessage = (response: RenderResponse) => {
        feed();
        for (const [key, rendered] of response.results) accept(key, rendered);
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
