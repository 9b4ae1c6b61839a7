/**
 * View counting in front of any store engine. An increment is a synchronous change to
 * an in-memory map, so concurrent PUTs never lose a count; pending increments are
 * added to the store at most `flushMs` later (one atomic add per batch, which also
 * brings in what other writer nodes counted) and on shutdown. A failed flush keeps
 * its increments and is retried on a timer of its own, with backoff.
 *
 * With several writer nodes on one store, `refreshMs` re-reads every stored count now
 * and then, so a node also follows the slugs only the others count. Flushes and
 * refreshes run one at a time: a refresh never sees increments still in flight.
 */
import type { ViewStore } from '../store/types.ts';

export interface ViewCounterOptions {
  /** Longest time a count stays only in memory (default 1000 ms). */
  flushMs?: number;
  /** Called after each flush with the new totals of the posts that changed. */
  onFlush?: (totals: Map<string, number>) => Promise<void> | void;
  onError?: (error: unknown, attempt: number) => void;
  /** Re-read every stored count this often (other nodes add to them); 0 or unset: never (one node). */
  refreshMs?: number;
}

export class ViewCounter {
  private base = new Map<string, number>();
  private pending = new Map<string, number>();
  /** Increments being added by the flush in progress: still counted until the store answers. */
  private inflight = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private failures = 0;
  private refresher: NodeJS.Timeout | null = null;
  private changes = 0;

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

  /** Every known total, pending increments included. */
  totals(): Map<string, number> {
    const all = new Map(this.base);
    for (const map of [this.inflight, this.pending]) for (const [slug, n] of map) all.set(slug, (all.get(slug) ?? 0) + n);
    return all;
  }

  get(slug: string): number {
    return (this.base.get(slug) ?? 0) + (this.inflight.get(slug) ?? 0) + (this.pending.get(slug) ?? 0);
  }

  /** Add one view; returns the new count. */
  increment(slug: string): number {
    this.pending.set(slug, (this.pending.get(slug) ?? 0) + 1);
    this.changes++;
    this.schedule(this.options.flushMs ?? 1000);
    return this.get(slug);
  }

  /** Add pending increments to the store now (also waits for a flush in progress). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0) return;
    this.flushing = this.flushOnce().finally(() => (this.flushing = null));
    await this.flushing;
  }

  /** Stop the timers (after a last `flush`). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.refresher) clearInterval(this.refresher);
    this.timer = null;
    this.refresher = null;
  }

  /** Take in the stored counts (other nodes' increments) and report the slugs that changed. */
  async refresh(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.refreshOnce().finally(() => (this.flushing = null));
    await this.flushing;
  }

  private async refreshOnce(): Promise<void> {
    let stored: Map<string, number>;
    try {
      stored = await this.store.load();
    } catch {
      // The next refresh tries again; a store that is down shows in the flush errors and the 503s of writes.
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
    try {
      await this.options.onFlush?.(changed);
    } catch (error) {
      this.options.onError?.(error, 0);
    }
  }

  private schedule(ms: number): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
  }

  private async flushOnce(): Promise<void> {
    const batch = this.pending;
    this.inflight = batch;
    this.pending = new Map();
    let totals: Map<string, number>;
    try {
      totals = await this.store.add(batch);
    } catch (error) {
      // Keep every increment and try again later by ourselves, not only on the next PUT.
      this.inflight = new Map();
      for (const [slug, n] of batch) this.pending.set(slug, (this.pending.get(slug) ?? 0) + n);
      this.failures++;
      this.options.onError?.(error, this.failures);
      this.schedule(Math.min((this.options.flushMs ?? 1000) * 2 ** this.failures, 30_000));
      return;
    }
    this.failures = 0;
    // Swap in the stored totals and drop the in-flight part in the same tick.
    for (const [slug, n] of totals) this.base.set(slug, n);
    this.inflight = new Map();
    this.changes++;
    try {
      await this.options.onFlush?.(totals);
    } catch (error) {
      this.options.onError?.(error, 0);
    }
  }
}
