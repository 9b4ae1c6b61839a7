/**
 * The rebuild queue for the posts' own outputs: single flight and coalescing. At most
 * one rebuild runs and one waits; every slug scheduled while a rebuild runs joins the
 * waiting one. A caller's promise settles with `true` when a rebuild that started
 * after its request succeeded, `false` when it failed (the slugs are then retried with
 * backoff until a rebuild succeeds; nothing is dropped).
 */

export interface RebuildQueueOptions {
  run: (slugs: Set<string>) => Promise<void>;
  onError?: (error: unknown, attempt: number) => void;
  onRecovered?: () => void;
  /** Retry delay after a failure (doubles up to 30 s; default 200 ms). */
  retryMs?: number;
}

export class RebuildQueue {
  private waitingSlugs = new Set<string>();
  private waiters: ((ok: boolean) => void)[] = [];
  private running: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private closed = false;

  constructor(private readonly options: RebuildQueueOptions) {}

  /** Queue a rebuild of these posts' outputs; resolves with whether it succeeded. */
  schedule(slugs: Iterable<string>): Promise<boolean> {
    for (const s of slugs) this.waitingSlugs.add(s);
    const done = new Promise<boolean>((resolve) => this.waiters.push(resolve));
    if (!this.retryTimer) this.kick();
    return done;
  }

  /**
   * Resolves when nothing is running or waiting, or after `timeoutMs`. Slugs waiting
   * only for a retry after a failure do not hold it (a failing disk must not hold a
   * shutdown; the next start rebuilds them).
   */
  async idle(timeoutMs = Infinity): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.running || (this.waitingSlugs.size > 0 && !this.retryTimer)) && Date.now() < deadline) {
      if (this.running) await Promise.race([this.running, new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())))]);
      else await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Stop retrying (shutdown); waiting callers get `false`. */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    for (const w of this.waiters.splice(0)) w(false);
  }

  private kick(): void {
    if (this.running || this.waitingSlugs.size === 0 || this.closed) return;
    const slugs = this.waitingSlugs;
    const waiters = this.waiters;
    this.waitingSlugs = new Set();
    this.waiters = [];
    this.running = this.options
      .run(slugs)
      .then(
        () => {
          if (this.attempt > 0) this.options.onRecovered?.();
          this.attempt = 0;
          for (const w of waiters) w(true);
        },
        (error: unknown) => {
          this.attempt++;
          this.options.onError?.(error, this.attempt);
          for (const s of slugs) this.waitingSlugs.add(s);
          for (const w of waiters) w(false);
          const delay = Math.min((this.options.retryMs ?? 200) * 2 ** (this.attempt - 1), 30_000);
          this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            this.kick();
          }, delay);
          this.retryTimer.unref();
        },
      )
      .finally(() => {
        this.running = null;
        if (this.attempt === 0) this.kick();
      });
  }
}
