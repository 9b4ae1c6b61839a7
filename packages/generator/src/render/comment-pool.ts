/**
 * Render untrusted comment markdown off the main thread, with a time budget per
 * comment (issue 9). The main thread only waits, so a pathological body never blocks
 * the event loop; a worker that overruns the budget is terminated and replaced, and
 * the comment is reported as failed (a stack overflow or any other error too), so the
 * caller can leave it out and carry on with the rest.
 *
 * Timing is measured by the worker itself: before each comment it writes the
 * comment's sequence number and start time to shared memory. A timer that fires late
 * because the main thread was busy therefore never blames a comment that finished.
 * A comment that times out is tried once more on a fresh worker after the others
 * (a loaded machine can be slow once); a second timeout is final.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { CommentRenderReply, CommentRenderRequest, CommentWorkerData } from './comment-worker.ts';
import { stopWorker } from '../thread-calls.ts';

/** What rendering one comment gave: its HTML, or why there is none. */
export type CommentRenderOutcome = { html: string } | { error: string; timeout?: boolean };

export interface CommentPoolOptions {
  /** Longest one comment may render, in ms (default 1000). */
  budgetMs?: number;
  /** Most worker threads for a large batch (default 2, at most the cores). */
  maxWorkers?: number;
  /** Try a comment that timed out once more on a fresh worker (default true). */
  retryTimeouts?: boolean;
  /**
   * Run the workers this many nice steps below the process (Linux; default 0): for
   * renders that may wait while the machine is busy with others (the writer's heavy
   * comments).
   */
  niceness?: number;
}

export const DEFAULT_COMMENT_BUDGET_MS = 1000;

/**
 * Young-generation size of a comment worker, in MB (V8's default is 48). Rendering the
 * heaviest bodies the limits accept, a worker's heap grew to ~72 MB with the default and
 * ~50 MB with 16; the writer kept 40–60 MB less after a steady comment load (three
 * alternated pairs). The price: those heaviest bodies render ~15 % slower (80
 * worst-case renders: 2.8–3.1 s against 2.4–2.6 s, three alternated rounds); an
 * ordinary comment allocates too little to notice. docs/performance.md, ninth session.
 */
export const COMMENT_WORKER_YOUNG_MB = 16;
/** Batches at least this large use more than one worker (a cold start with many comments). */
const PARALLEL_THRESHOLD = 200;
const CHUNK = 64;
/** A worker that has not loaded the renderer by then is broken (the machine, not a comment). */
const START_TIMEOUT_MS = 60_000;

interface Item {
  id: string;
  markdown: string;
  seq: number;
  timedOut: boolean;
}

type Outcome = (item: Item, outcome: CommentRenderOutcome, timeout: boolean) => void;

/** One worker thread, replaced whenever it overruns or dies. */
class Lane {
  private worker: Worker | null = null;
  private starting: Promise<Worker> | null = null;
  private closed = false;
  private readonly progress = new SharedArrayBuffer(16);
  private readonly view = new BigInt64Array(this.progress);

  constructor(
    private readonly budgetMs: number,
    private readonly niceness = 0,
  ) {}

  /** Render `items` in order, reporting each; a killed worker is replaced and the rest go to the new one. */
  async run(items: Item[], report: Outcome): Promise<void> {
    let pending = items;
    while (pending.length > 0) {
      const worker = await this.start();
      worker.ref();
      try {
        pending = await this.runOn(worker, pending, report);
      } finally {
        this.worker?.unref();
      }
    }
  }

  /** Start the worker now, so the first comment does not wait for it. */
  async warm(): Promise<void> {
    await this.start();
  }

  get running(): boolean {
    return this.worker !== null;
  }

  /** Stop the worker, also one still loading (it would otherwise load after the close and stay). */
  async close(): Promise<void> {
    this.closed = true;
    const starting = this.starting;
    const worker = this.worker;
    this.worker = null;
    if (worker) await stopWorker(worker);
    const late = await starting?.catch(() => null);
    if (late) await stopWorker(late);
  }

  /** The worker, started if none runs; callers while it loads share the one loading. */
  private start(): Promise<Worker> {
    if (this.worker) return Promise.resolve(this.worker);
    if (this.closed) return Promise.reject(new Error('Cannot start the comment renderer: it is closed'));
    this.starting ??= this.load().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private load(): Promise<Worker> {
    // Compiled (lib/*.js): the worker itself; from the sources (tsx): the bootstrap that registers tsx.
    const worker = new Worker(new URL(import.meta.url.endsWith('.ts') ? './comment-worker-entry.mjs' : './comment-worker.js', import.meta.url), {
      workerData: { progress: this.progress, niceness: this.niceness } satisfies CommentWorkerData,
      // A 16 KiB comment needs little memory; one that needs more is the problem.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: COMMENT_WORKER_YOUNG_MB },
    });
    return new Promise((resolve, reject) => {
      // Only our own listeners come off: Worker keeps internal ones (removeAllListeners breaks messaging).
      const settle = () => {
        clearTimeout(timer);
        worker.off('message', onReady).off('error', onError).off('exit', onExit);
      };
      const fail = (reason: string) => {
        settle();
        void worker.terminate();
        reject(new Error(`Cannot start the comment renderer: ${reason}`));
      };
      const onReady = () => {
        settle();
        worker.unref();
        // An idle worker that dies is simply replaced on next use (and never crashes this process).
        const forget = () => {
          if (this.worker === worker) this.worker = null;
        };
        worker.on('error', forget).on('exit', forget);
        this.worker = worker;
        resolve(worker);
      };
      const onError = (error: Error) => fail(error.message);
      const onExit = (code: number) => fail(`worker exited with code ${code}`);
      const timer = setTimeout(() => fail(`no answer within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
      worker.once('message', onReady).once('error', onError).once('exit', onExit);
    });
  }

  /** Resolves with the items left to do when the worker had to be killed, else []. */
  private runOn(worker: Worker, items: Item[], report: Outcome): Promise<Item[]> {
    return new Promise((resolve) => {
      let next = 0;
      let timer: NodeJS.Timeout | undefined;
      const arm = (ms: number) => {
        clearTimeout(timer);
        timer = setTimeout(check, Math.max(1, ms));
      };
      const finish = (rest: Item[]) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(rest);
      };
      const kill = (error: string, timeout: boolean) => {
        this.worker = null;
        void worker.terminate();
        finish(items.slice(next + 1));
        report(items[next]!, timeout ? { error, timeout } : { error }, timeout);
      };
      const check = () => {
        const current = items[next]!;
        // Not yet on this item, or done with it and the answer is queued: wait on.
        if (Number(Atomics.load(this.view, 0)) !== current.seq) return arm(this.budgetMs);
        const elapsed = Date.now() - Number(Atomics.load(this.view, 1));
        if (elapsed < this.budgetMs) return arm(this.budgetMs - elapsed);
        kill(`rendering took longer than ${this.budgetMs} ms`, true);
      };
      const onMessage = (reply: CommentRenderReply) => {
        if (!('seq' in reply)) return;
        const item = items[next++]!;
        report(item, 'html' in reply ? { html: reply.html } : { error: reply.error }, false);
        if (next === items.length) finish([]);
        else arm(this.budgetMs);
      };
      const onError = (error: Error) => kill(`the renderer crashed: ${error.message}`, false);
      const onExit = (code: number) => kill(`the renderer exited with code ${code}`, false);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage({ items: items.map(({ seq, markdown }) => ({ seq, markdown })) } satisfies CommentRenderRequest);
      arm(this.budgetMs);
    });
  }
}

/** Worker threads that render comment markdown within a time budget per comment. */
export class CommentRenderPool {
  private readonly lanes: Lane[] = [];
  private readonly budgetMs: number;
  private readonly maxWorkers: number;
  private readonly retryTimeouts: boolean;
  private readonly niceness: number;
  private seq = 0;
  /** Batches run one at a time: lanes are not shared between batches. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: CommentPoolOptions = {}) {
    this.budgetMs = options.budgetMs ?? DEFAULT_COMMENT_BUDGET_MS;
    this.maxWorkers = Math.max(1, Math.min(options.maxWorkers ?? 2, availableParallelism()));
    this.retryTimeouts = options.retryTimeouts ?? true;
    this.niceness = options.niceness ?? 0;
  }

  /** Render `[id, markdown]` pairs; every id gets an outcome. Rejects only when no worker can start. */
  render(items: readonly (readonly [id: string, markdown: string])[]): Promise<Map<string, CommentRenderOutcome>> {
    const run = this.queue.then(() => this.renderNow(items));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Start one worker ahead of the first comment (a long-lived writer). */
  warm(): Promise<void> {
    if (this.lanes.length === 0) this.lanes.push(new Lane(this.budgetMs, this.niceness));
    return this.lanes[0]!.warm();
  }

  /** Whether a worker is running (started and not closed). */
  get running(): boolean {
    return this.lanes.some((lane) => lane.running);
  }

  /** Stop every worker. The pool starts new ones if it is used again. */
  async close(): Promise<void> {
    await Promise.all(this.lanes.splice(0).map((lane) => lane.close()));
  }

  private async renderNow(items: readonly (readonly [string, string])[]): Promise<Map<string, CommentRenderOutcome>> {
    const out = new Map<string, CommentRenderOutcome>();
    if (items.length === 0) return out;
    const retry: Item[] = [];
    const report: Outcome = (item, outcome, timeout) => {
      if (timeout && !item.timedOut && this.retryTimeouts) retry.push({ ...item, seq: ++this.seq, timedOut: true });
      else out.set(item.id, outcome);
    };
    const work = items.map(([id, markdown]) => ({ id, markdown, seq: ++this.seq, timedOut: false }));
    const lanes = work.length >= PARALLEL_THRESHOLD ? this.maxWorkers : 1;
    while (this.lanes.length < lanes) this.lanes.push(new Lane(this.budgetMs, this.niceness));
    let next = 0;
    try {
      await Promise.all(
        this.lanes.slice(0, lanes).map(async (lane) => {
          for (let chunk = work.slice(next, (next += CHUNK)); chunk.length > 0; chunk = work.slice(next, (next += CHUNK))) {
            await lane.run(chunk, report);
          }
        }),
      );
      for (const item of retry) await this.lanes[0]!.run([item], report);
    } finally {
      // Extra workers served a large batch; one stays warm for the next comment.
      await Promise.all(this.lanes.splice(1).map((lane) => lane.close()));
    }
    return out;
  }
}
