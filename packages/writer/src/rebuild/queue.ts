/**
 * The rebuild queue: single flight and coalescing. At most one rebuild runs and one
 * waits; every slug scheduled while a rebuild runs joins the waiting one. A caller's
 * promise settles when a rebuild that started after its request has finished. A failed
 * rebuild is logged and retried with backoff; it never loses a slug.
 */

export interface RebuildQueueOptions {
  run: (slugs: Set<string>) => Promise<void>;
  onError?: (error: unknown, attempt: number) => void;
  /** Retry delay after a failure (doubles up to 30 s; default 200 ms). */
  retryMs?: number;
}

interface Waiter {
  resolve: () => void;
}

export class RebuildQueue {
  private waitingSlugs = new Set<string>();
  private waiters: Waiter[] = [];
  private running: Promise<void> | null = null;
  private attempt = 0;
  private closed = false;

  constructor(private readonly options: RebuildQueueOptions) {}

  /** Queue a rebuild of these posts' outputs; resolves after it ran (or failed and was queued for retry). */
  schedule(slugs: Iterable<string>): Promise<void> {
    for (const s of slugs) this.waitingSlugs.add(s);
    const done = new Promise<void>((resolve) => this.waiters.push({ resolve }));
    this.kick();
    return done;
  }

  /** Resolves when nothing is running or waiting. */
  async idle(): Promise<void> {
    while (this.running || this.waitingSlugs.size > 0) {
      if (this.running) await this.running;
      else await new Promise((r) => setTimeout(r, 10));
    }
  }

  close(): void {
    this.closed = true;
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
          this.attempt = 0;
        },
        (error: unknown) => {
          this.attempt++;
          this.options.onError?.(error, this.attempt);
          for (const s of slugs) this.waitingSlugs.add(s);
          const delay = Math.min((this.options.retryMs ?? 200) * 2 ** (this.attempt - 1), 30_000);
          setTimeout(() => this.kick(), delay).unref();
        },
      )
      .finally(() => {
        for (const w of waiters) w.resolve();
        this.running = null;
        if (this.attempt === 0) this.kick();
      });
  }
}
