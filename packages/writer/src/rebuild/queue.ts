/**
 * The rebuild queue for the posts' own outputs: coalescing, in lanes. Every slug
 * scheduled while none of its rebuilds runs starts in the next free lane, with the
 * other waiting slugs; a slug scheduled while its own rebuild runs waits for the next
 * one (one rebuild per post at a time, so two never race on its files). So a post's
 * rebuild waits for another post's only when every lane is busy (issue 19: a post with
 * heavy comments does not hold the others' pages).
 *
 * A caller's promise settles with `true` when a rebuild that started after its request
 * succeeded, `false` when it failed (the slugs are then retried with backoff until a
 * rebuild succeeds; nothing is dropped).
 */

export interface RebuildQueueOptions {
  run: (slugs: Set<string>) => Promise<void>;
  onError?: (error: unknown, attempt: number) => void;
  onRecovered?: () => void;
  /** Retry delay after a failure (doubles up to 30 s; default 200 ms). */
  retryMs?: number;
  /** Rebuilds running at once, on disjoint posts (default 4). */
  lanes?: number;
}

export class RebuildQueue {
  /** Slugs waiting for a rebuild, with their callers, in arrival order. */
  private readonly waiting = new Map<string, ((ok: boolean) => void)[]>();
  /** Slugs being rebuilt now. */
  private readonly busy = new Set<string>();
  private readonly runs = new Set<Promise<void>>();
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private closed = false;

  constructor(private readonly options: RebuildQueueOptions) {}

  /** Queue a rebuild of these posts' outputs; resolves with whether it succeeded. */
  schedule(slugs: Iterable<string>): Promise<boolean> {
    const list = [...new Set(slugs)];
    if (list.length === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      // One answer for the caller: true once every slug of its request was rebuilt.
      let left = list.length;
      let ok = true;
      const settle = (done: boolean) => {
        ok &&= done;
        if (--left === 0 || !done) {
          left = -Infinity;
          resolve(ok);
        }
      };
      for (const slug of list) {
        const callers = this.waiting.get(slug);
        if (callers) callers.push(settle);
        else this.waiting.set(slug, [settle]);
      }
      if (!this.retryTimer) this.kick();
    });
  }

  /** Whether a rebuild is running or waiting to run (not: only for a retry after a failure, as `idle`). */
  get pending(): boolean {
    return this.runs.size > 0 || (this.waiting.size > 0 && !this.retryTimer);
  }

  /**
   * Resolves when nothing is running or waiting, or after `timeoutMs`. Slugs waiting
   * only for a retry after a failure do not hold it (a failing disk must not hold a
   * shutdown; the next start rebuilds them).
   */
  async idle(timeoutMs = Infinity): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.runs.size > 0 || (this.waiting.size > 0 && !this.retryTimer)) && Date.now() < deadline) {
      const wait = new Promise((r) => setTimeout(r, Math.max(0, Math.min(10, deadline - Date.now()))));
      await (this.runs.size > 0 ? Promise.race([...this.runs, wait]) : wait);
    }
  }

  /** Stop retrying (shutdown); waiting callers get `false`. */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    for (const callers of this.waiting.values()) for (const settle of callers) settle(false);
    this.waiting.clear();
  }

  /** Start rebuilds in free lanes for waiting slugs that are not being rebuilt. */
  private kick(): void {
    const lanes = Math.max(1, this.options.lanes ?? 4);
    while (!this.closed && this.runs.size < lanes) {
      const batch = new Map<string, ((ok: boolean) => void)[]>();
      for (const [slug, callers] of this.waiting) if (!this.busy.has(slug)) batch.set(slug, callers);
      if (batch.size === 0) return;
      for (const slug of batch.keys()) {
        this.waiting.delete(slug);
        this.busy.add(slug);
      }
      this.start(batch);
    }
  }

  private start(batch: Map<string, ((ok: boolean) => void)[]>): void {
    const run: Promise<void> = this.options
      .run(new Set(batch.keys()))
      .then(
        () => {
          if (this.attempt > 0) this.options.onRecovered?.();
          this.attempt = 0;
          for (const callers of batch.values()) for (const settle of callers) settle(true);
        },
        (error: unknown) => {
          this.attempt++;
          this.options.onError?.(error, this.attempt);
          for (const callers of batch.values()) for (const settle of callers) settle(false);
          // Not dropped: the slugs wait again (callers already told), for a retry.
          for (const slug of batch.keys()) if (!this.waiting.has(slug)) this.waiting.set(slug, []);
          if (this.retryTimer || this.closed) return;
          const delay = Math.min((this.options.retryMs ?? 200) * 2 ** (this.attempt - 1), 30_000);
          this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            this.kick();
          }, delay);
          this.retryTimer.unref();
        },
      )
      .finally(() => {
        for (const slug of batch.keys()) this.busy.delete(slug);
        this.runs.delete(run);
        if (!this.retryTimer) this.kick();
      });
    this.runs.add(run);
  }
}
