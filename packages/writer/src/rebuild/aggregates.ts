/**
 * The second speed of consistency: site-wide outputs (`/api/posts`, the category and
 * model lists, `/api/comments/count`, `/api/views`, `/comments/`, `/debates/`) follow
 * comment and view changes within `delayMs`, coalesced, so a burst of N comments or
 * view flushes costs one rewrite of each. A failed flush is retried with backoff.
 */
export interface AggregateSchedulerOptions {
  /**
   * Write the site-wide outputs. `now`: asked for by `flushNow` (shutdown, tests), so
   * write everything; `inline`: a change waits for this flush before it is answered
   * (`flushSoon`), so write what it shows and do not give way to it.
   */
  flush: (now: boolean, inline: boolean) => Promise<void>;
  /** Longest delay between a change and its site-wide outputs (default 1000 ms). */
  delayMs?: number;
  onError?: (error: unknown, attempt: number) => void;
  onRecovered?: () => void;
}

export class AggregateScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<boolean> | null = null;
  /** When a change came in during the running flush (`performance.now()`), or 0. */
  private again = 0;
  private failures = 0;
  private closed = false;
  /** Changes asked to be covered by `flushSoon`, and how many a finished flush covered. */
  private requested = 0;
  private covered = 0;

  constructor(private readonly options: AggregateSchedulerOptions) {}

  /** How long the oldest change that came in during the running flush has waited for the next one (ms; 0 if none). */
  get waitingMs(): number {
    return this.again ? performance.now() - this.again : 0;
  }

  /** Something changed: make sure a flush happens within the delay. */
  touch(): void {
    if (this.running) {
      // Counted from now, not from the end of the running flush: a change waits the delay, not a flush plus the delay.
      this.again ||= performance.now();
      return;
    }
    this.arm(this.options.delayMs ?? 1000);
  }

  /**
   * Something changed, and its answer waits for the site-wide outputs: resolves true once
   * a flush that started after this call has written them (a flush running now may
   * predate the change, so the next one is awaited too). False when that flush failed
   * (its retry is armed) or the scheduler is closed.
   */
  async flushSoon(): Promise<boolean> {
    if (this.closed) return false;
    const want = ++this.requested;
    while (this.covered < want) {
      if (this.running) {
        await this.running;
        continue;
      }
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      if (!(await this.run(false, true))) return false;
    }
    return true;
  }

  /** Flush now (shutdown, tests); waits for a flush in progress. */
  async flushNow(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running) await this.running;
    await this.run(true);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(ms: number): void {
    if (this.closed) return;
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.run();
    }, ms);
    this.timer.unref();
  }

  /** Run a flush; resolves with whether it succeeded. */
  private run(now = false, inline = false): Promise<boolean> {
    this.again = 0;
    const covers = this.requested;
    const running = this.options.flush(now, inline).then(
      () => {
        if (this.failures > 0) this.options.onRecovered?.();
        this.failures = 0;
        this.covered = Math.max(this.covered, covers);
        return true;
      },
      (error: unknown) => {
        this.failures++;
        this.options.onError?.(error, this.failures);
        this.again = 0;
        this.arm(Math.min((this.options.delayMs ?? 1000) * 2 ** this.failures, 30_000));
        return false;
      },
    ).finally(() => {
      this.running = null;
      if (this.again) this.arm(Math.max(0, (this.options.delayMs ?? 1000) - (performance.now() - this.again)));
    });
    this.running = running;
    return running;
  }
}
