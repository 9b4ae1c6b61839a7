/**
 * View counting in front of any store engine, durable before the answer: `count`
 * resolves once its increment is stored (a 200 is a promise, as a comment's 201 is;
 * a SIGKILL right after it loses nothing).
 *
 * Group commit: a PUT after a quiet spell is stored at once; the PUTs that arrive while
 * a batch is being stored go into the next batch, which is one atomic add (a journal
 * line synced to disk, or one upsert on PostgreSQL that also adds up what other nodes
 * counted). A failed batch rejects each of its PUTs (503 or 507) and counts none of
 * them: nothing half-stored, nothing acknowledged that is not on disk.
 *
 * The mirrors that carry views follow apart: `onFlush` gets the new totals of the
 * batches stored since it was last called, one call at a time and at most once per
 * `publishMs`, so the rewrites they cause never hold back an answer. With several
 * writer nodes on one store, `refreshMs` re-reads every stored count now and then, so a
 * node also follows the slugs only the others count.
 */
import type { ViewStore } from '../store/types.ts';

export interface ViewCounterOptions {
  /** Called with the new totals of the posts that changed (stored batches, refreshes), one call at a time. */
  onFlush?: (totals: Map<string, number>) => Promise<void> | void;
  /** Shortest time between the starts of two `onFlush` calls: the totals of the batches in between are coalesced (default 1000 ms). */
  publishMs?: number;
  /** A batch that could not be stored (`failed`: refused batches in a row, its PUTs among them), or `failed` 0: the mirrors failed to follow. */
  onError?: (error: unknown, failed: number) => void;
  /** A batch was stored after `failed` refused ones. */
  onRecovered?: (failed: number) => void;
  /** Re-read every stored count this often (other nodes add to them); 0 or unset: never (one node). */
  refreshMs?: number;
}

interface Waiter {
  slug: string;
  /** Which of the batch's increments of `slug` this is (1-based): each PUT answers its own count. */
  rank: number;
  resolve: (views: number) => void;
  reject: (error: unknown) => void;
}

export class ViewCounter {
  /** Stored totals: every count a PUT was answered with is in it. */
  private base = new Map<string, number>();
  /** Increments of the next batch, and the PUTs waiting for it. */
  private pending = new Map<string, number>();
  private waiters: Waiter[] = [];
  /** The batch loop, while it runs. */
  private draining: Promise<void> | null = null;
  /** Batches and refreshes run one at a time: a refresh never sees increments in flight. */
  private chain: Promise<unknown> = Promise.resolve();
  /** Totals stored but not yet handed to `onFlush`, and the call in progress. */
  private unpublished = new Map<string, number>();
  private publishing: Promise<void> | null = null;
  private refresher: NodeJS.Timeout | null = null;
  private changes = 0;
  private failures = 0;
  private lastPublish = -Infinity;
  /** `flush` was asked for: hand the totals over without waiting for `publishMs`. */
  private hurry = false;
  /** Ends the publisher's wait for `publishMs`. */
  private wake: (() => void) | null = null;

  private constructor(
    private readonly store: ViewStore,
    private readonly options: ViewCounterOptions,
  ) {}

  static async open(store: ViewStore, options: ViewCounterOptions = {}): Promise<ViewCounter> {
    const counter = new ViewCounter(store, options);
    counter.base = await store.load();
    if (options.refreshMs) {
      counter.refresher = setInterval(() => void counter.refresh(), options.refreshMs);
      counter.refresher.unref();
    }
    return counter;
  }

  /** Changes whenever any total may have: a cache of `totals()` is good while it stays the same. */
  get version(): number {
    return this.changes;
  }

  /** Every stored total. */
  totals(): Map<string, number> {
    return new Map(this.base);
  }

  get(slug: string): number {
    return this.base.get(slug) ?? 0;
  }

  /** Add one view: resolves with the new count once it is stored, or rejects with the store's error (then it is not counted). */
  count(slug: string): Promise<number> {
    const rank = (this.pending.get(slug) ?? 0) + 1;
    this.pending.set(slug, rank);
    const answered = new Promise<number>((resolve, reject) => this.waiters.push({ slug, rank, resolve, reject }));
    this.draining ??= this.drain();
    return answered;
  }

  /** Wait until every increment counted so far is stored, and its totals handed to `onFlush` (now, not within `publishMs`). */
  async flush(): Promise<void> {
    this.hurry = true;
    this.wake?.();
    while (this.draining || this.publishing) await (this.draining ?? this.publishing);
    this.hurry = false;
  }

  /** Stop the timers (after a last `flush`). */
  close(): void {
    if (this.refresher) clearInterval(this.refresher);
    this.refresher = null;
  }

  /** Take in the stored counts (other nodes' increments) and report the slugs that changed. */
  refresh(): Promise<void> {
    const run = this.chain.then(() => this.refreshOnce());
    this.chain = run.catch(() => {});
    return run;
  }

  private async drain(): Promise<void> {
    // The first PUT after a quiet spell goes at once; those that come while it is stored make the next batch.
    while (this.waiters.length > 0) {
      const batch = this.pending;
      const waiters = this.waiters;
      this.pending = new Map();
      this.waiters = [];
      const run = this.chain.then(() => this.store.add(batch));
      this.chain = run.catch(() => {});
      try {
        const totals = await run;
        if (this.failures > 0) this.options.onRecovered?.(this.failures);
        this.failures = 0;
        for (const [slug, n] of totals) this.base.set(slug, n);
        this.changes++;
        // Each PUT of a slug in the batch answers its own count: the total less the batch's later ones.
        for (const w of waiters) w.resolve((totals.get(w.slug) ?? 0) - (batch.get(w.slug) ?? 0) + w.rank);
        this.publish(totals);
      } catch (error) {
        this.failures++;
        for (const w of waiters) w.reject(error);
        this.options.onError?.(error, this.failures);
      }
    }
    this.draining = null;
  }

  /**
   * Hand stored totals to `onFlush`: at once after a quiet spell, then at most once per
   * `publishMs`, coalesced (the mirrors are site-wide rewrites; a batch is a few PUTs).
   */
  private publish(totals: Map<string, number>): void {
    for (const [slug, n] of totals) this.unpublished.set(slug, n);
    this.publishing ??= (async () => {
      while (this.unpublished.size > 0) {
        const wait = this.lastPublish + (this.options.publishMs ?? 1000) - performance.now();
        if (wait > 0 && !this.hurry) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => resolve(), wait);
            // `flush` ends the wait.
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.wake = null;
        }
        const next = this.unpublished;
        this.unpublished = new Map();
        this.lastPublish = performance.now();
        try {
          await this.options.onFlush?.(next);
        } catch (error) {
          this.options.onError?.(error, 0);
        }
      }
      this.publishing = null;
      this.hurry = false;
    })();
  }

  private async refreshOnce(): Promise<void> {
    let stored: Map<string, number>;
    try {
      stored = await this.store.load();
    } catch {
      // The next refresh tries again; a store that is down shows in the refused PUTs and comments.
      return;
    }
    const changed = new Map<string, number>();
    for (const [slug, n] of stored) {
      if (this.base.get(slug) === n) continue;
      this.base.set(slug, n);
      changed.set(slug, n);
    }
    if (changed.size === 0) return;
    this.changes++;
    this.publish(changed);
  }
}
