/**
 * Calls answered by one worker thread, a round trip each: the store's file thread
 * (appends to a post's comment file) and the write thread of dist/ files. The worker
 * answers `{ ready: true }` once loaded, then one `{ seq, … }` per call.
 *
 * - A call never throws: a worker that cannot be made (a container's thread limit) or a
 *   message that cannot be sent rejects its promise.
 * - A worker that dies fails the calls sent to it, and only those: a call made after it
 *   died starts another worker, and the old one's exit does not touch that call.
 * - The worker keeps the process alive only while calls are waiting (and while it loads:
 *   a process that ends while a worker loads may crash on its way out).
 * - With `idleMs`, a worker with no call for that long stops (each isolate is ~10 MB of
 *   a writer at rest); the next call starts another, ~30 ms later.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** An error as a worker sends it back: its message, and its code (`ENOSPC`, `ENOTDIR`) the caller maps. */
export interface WireError {
  message: string;
  code?: string;
}

/** `error` as a worker answers it (an Error does not cross `postMessage` with its code). */
export function errorToWire(error: unknown): WireError {
  const e = error as NodeJS.ErrnoException;
  return { message: e?.message ?? String(error), ...(e?.code ? { code: e.code } : {}) };
}

/** The Error a worker's `WireError` stands for, with its code. */
export function errorFromWire({ message, code }: WireError): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

/**
 * Terminate `worker` and resolve once it has exited. It is ref'd first: an idle worker is
 * unref'd, and a process with nothing else to do could end before the exit, leaving the
 * caller's close unsettled.
 */
export function stopWorker(worker: Worker): Promise<number> {
  worker.ref();
  return worker.terminate();
}

/** A call failed because its thread stopped (crashed, ran out of memory, was terminated). */
export class ThreadStopped extends Error {
  override name = 'ThreadStopped';
}

interface Waiting<Reply> {
  resolve: (reply: Reply) => void;
  reject: (error: unknown) => void;
}

/** One worker and the calls sent to it. */
interface Running<Reply> {
  worker: Worker;
  waiting: Map<number, Waiting<Reply>>;
  loaded: boolean;
}

export interface ThreadCallsOptions {
  /** The worker's module (compiled), or its tsx bootstrap when running from the sources. */
  url: URL;
  resourceLimits?: ResourceLimits;
  /** What the thread is, for errors: "The store's file thread". */
  name: string;
  /** Stop the worker after this long without a call (ms; default: keep it). */
  idleMs?: number;
}

export class ThreadCalls<Request extends object, Reply extends object> {
  private running: Running<Reply> | null = null;
  private seq = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ThreadCallsOptions) {}

  /** Calls sent and not answered yet. */
  get busy(): number {
    return this.running?.waiting.size ?? 0;
  }

  /** The worker now (tests). */
  get worker(): Worker | null {
    return this.running?.worker ?? null;
  }

  /**
   * Send `request` (with a sequence number added) and resolve with the worker's answer
   * to it; `transfer` is handed over, not copied.
   */
  call(request: Request, transfer: readonly ArrayBuffer[] = []): Promise<Reply> {
    this.clearIdle();
    return new Promise((resolve, reject) => {
      const seq = ++this.seq;
      let running: Running<Reply> | undefined;
      try {
        running = this.ensure();
        running.waiting.set(seq, { resolve, reject });
        running.worker.ref();
        running.worker.postMessage({ ...request, seq }, [...transfer]);
      } catch (error) {
        if (running) {
          running.waiting.delete(seq);
          if (running.waiting.size === 0 && running.loaded) running.worker.unref();
        }
        reject(error);
      }
    });
  }

  /** Stop the thread once the calls under way are answered. */
  async close(): Promise<void> {
    this.clearIdle();
    const running = this.running;
    this.running = null;
    if (!running) return;
    while (running.waiting.size > 0) await new Promise((r) => setTimeout(r, 5));
    await stopWorker(running.worker);
  }

  /** Start the worker now (so the first call does not wait for it to load). Throws if it cannot be made. */
  start(): void {
    this.ensure();
  }

  /** The worker, started if none is running. Throws if it cannot be made. */
  private ensure(): Running<Reply> {
    if (this.running) return this.running;
    const worker = new Worker(this.options.url, { resourceLimits: this.options.resourceLimits });
    const running: Running<Reply> = { worker, waiting: new Map(), loaded: false };
    worker.on('message', (reply: Reply & { seq?: number; ready?: true }) => {
      if (reply.ready) {
        running.loaded = true;
      } else if (reply.seq !== undefined) {
        const waiting = running.waiting.get(reply.seq);
        running.waiting.delete(reply.seq);
        waiting?.resolve(reply);
      }
      // Not once `close` has it: a "ready" still queued when `close` called `terminate()`
      // unref'd the worker it waits for, and the process could end with that wait unsettled.
      if (running.waiting.size === 0 && running.loaded && this.running === running) {
        worker.unref();
        this.stopWhenIdle(running);
      }
    });
    const fail = (why: string) => {
      if (this.running === running) this.running = null;
      for (const [, w] of running.waiting) w.reject(new ThreadStopped(`${this.options.name} stopped (${why})`));
      running.waiting.clear();
    };
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => fail(`exit code ${code}`));
    return (this.running = running);
  }

  /** With `idleMs`: stop this worker once it has had no call for that long. */
  private stopWhenIdle(running: Running<Reply>): void {
    const idleMs = this.options.idleMs;
    if (idleMs === undefined || this.running !== running) return;
    this.clearIdle();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.running !== running || running.waiting.size > 0) return;
      // Forgotten first: a call from now on starts another worker.
      this.running = null;
      void running.worker.terminate();
    }, idleMs).unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
