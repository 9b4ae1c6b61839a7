/**
 * Render many markdown bodies on every core: one worker thread per core (one frozen
 * unified processor each) takes batches from one queue, so the work is balanced
 * whatever each batch costs, and the main thread stays free to emit and write what is
 * ready. Each worker holds two batches, so it never waits for a busy main thread to
 * hand it the next one. Workers take ~0.5 s to start (loading unified), so a cold build
 * starts them before it reads the content (`RenderPool.start`). Handing each post over
 * as soon as it was read (a `prefetch`) was tried and dropped: on two cores the read
 * then competed with the workers, and the build took more CPU and ~80 MB more memory at
 * 10,000 posts (docs/performance.md). A pool without workers renders on the main
 * thread. (The main thread rendering a share as well, with one worker fewer, was tried
 * for issue 13: it costs more CPU than it saves, because every collection on the main
 * thread marks the whole site model; see docs/performance.md.)
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { RenderedPost } from '../types.ts';
import type { RenderRequest, RenderResponse } from './worker.ts';

/** Posts per batch handed to a worker. */
const BATCH = 16;
/** Batches a worker holds at once (one rendering, one waiting). */
const IN_FLIGHT = 2;

/**
 * Old-generation limit of a render worker, in MB. A worker's live data is small (~12 MB:
 * its processors, the grammars used, one batch); what fills its heap is garbage. V8
 * scales how far it lets the heap grow before collecting with this limit: with the
 * default (from the machine's memory, 2 GB and more) up to 4× the live data, at 1 GB
 * far less. That saves ~30 MB per worker with no more collections (docs/performance.md);
 * 1 GB is still far more than any post needs (a worker over it fails the build with an
 * out-of-memory error, as over the default limit).
 */
const WORKER_OLD_SPACE_MB = 1024;

/**
 * Young-generation size of a render worker, in MB (smaller than V8's default). Each
 * worker's garbage is short-lived; with 8 MB semi-spaces it is scavenged about twice as
 * often. That is the price of the 500 MB budget: the
 * 10,000-post build peaks at 472–492 MB instead of 512–530 MB, and a cold 4,000-post
 * build takes 1.1–1.8 s longer (three alternated pairs; 32 MB saved nothing).
 * docs/performance.md has the runs.
 */
const WORKER_YOUNG_SPACE_MB = 24;

/** Below this many bodies, rendering stays on the calling thread (workers take ~0.5 s to start). */
export const POOL_THRESHOLD = 200;

export class RenderPool {
  /** Bodies waiting for a worker, in order. */
  private readonly queue: [string, string][] = [];
  /** Keys queued or being rendered. */
  private readonly submitted = new Set<string>();
  /** Who waits for a key's rendering (`render` calls). */
  private readonly claims = new Map<string, ((rendered: RenderedPost) => void)[]>();
  private readonly inFlight: number[];
  private failure: unknown = null;
  private readonly failed = new Set<(error: unknown) => void>();

  private constructor(private readonly workers: Worker[]) {
    this.inFlight = workers.map(() => 0);
    workers.forEach((worker, index) => {
      worker.on('message', (response: RenderResponse) => this.receive(index, response));
      worker.once('error', (error) => this.fail(error));
    });
  }

  /** Start `count` worker threads (default: one per core). */
  static start(count = availableParallelism()): RenderPool {
    const url = new URL(import.meta.url.endsWith('.ts') ? './worker-entry.mjs' : './worker.js', import.meta.url);
    return new RenderPool(Array.from({ length: count }, () => new Worker(url, { resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_SPACE_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_SPACE_MB } })));
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
   * Render every `[key, markdown]` item, handing each rendering to `onResult` as soon as
   * it arrives (so the caller can emit pages while the rest still renders). The pool
   * keeps none it has handed over: what the caller drops is free.
   */
  async render(items: readonly [string, string][], onResult: (key: string, rendered: RenderedPost) => void): Promise<void> {
    if (this.workers.length === 0) {
      // Loaded on first use: a build that renders nothing never loads unified.
      const { renderMarkdown } = await import('./markdown.ts');
      for (const [key, markdown] of items) onResult(key, renderMarkdown(markdown));
      return;
    }
    if (this.failure) throw this.failure;
    let left = items.length;
    if (left === 0) return;
    return new Promise((resolve, reject) => {
      this.failed.add(reject);
      const claim = (key: string, rendered: RenderedPost) => {
        onResult(key, rendered);
        if (--left === 0) {
          this.failed.delete(reject);
          resolve();
        }
      };
      for (const [key, markdown] of items) {
        this.claims.set(key, [...(this.claims.get(key) ?? []), (rendered) => claim(key, rendered)]);
        if (!this.submitted.has(key)) {
          this.submitted.add(key);
          this.queue.push([key, markdown]);
        }
      }
      this.pump();
    });
  }

  /** Hand batches to workers that hold fewer than `IN_FLIGHT`. */
  private pump(): void {
    for (let index = 0; index < this.workers.length; index++) {
      while (this.inFlight[index]! < IN_FLIGHT && this.queue.length > 0) {
        this.inFlight[index]!++;
        this.workers[index]!.postMessage({ id: index, items: this.queue.splice(0, BATCH) } satisfies RenderRequest);
      }
    }
  }

  private receive(index: number, response: RenderResponse): void {
    this.inFlight[index]!--;
    this.pump();
    for (const [key, rendered] of response.results) {
      this.submitted.delete(key);
      const claims = this.claims.get(key);
      this.claims.delete(key);
      for (const claim of claims ?? []) claim(rendered);
    }
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    for (const reject of this.failed) reject(error);
    this.failed.clear();
    this.claims.clear();
  }

  /** Stop the workers (again: nothing more happens). */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
