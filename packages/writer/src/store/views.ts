/**
 * View counters. An increment is a synchronous change to an in-memory map (so
 * concurrent PUTs can never lose a count); the map is flushed to `data/views.json`
 * at most `flushMs` later, coalescing every increment in between, and on shutdown.
 */
import { join } from 'node:path';
import { Low } from 'lowdb';
import { VIEWS_FILE, type ViewsFile } from '@agora/generator';
import { DurableJSONFile } from './durable-adapter.ts';

export interface ViewCounterOptions {
  /** Longest time a count stays only in memory (default 1000 ms). */
  flushMs?: number;
  /** Called after each flush with the counts that changed (to update the static mirrors). */
  onFlush?: (changed: Map<string, number>) => Promise<void> | void;
  onError?: (error: unknown) => void;
}

export class ViewCounter {
  private readonly db: Low<ViewsFile>;
  private readonly counts = new Map<string, number>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  private constructor(path: string, private readonly options: ViewCounterOptions) {
    this.db = new Low<ViewsFile>(new DurableJSONFile<ViewsFile>(path), { views: {} });
  }

  static async open(dataDir: string, options: ViewCounterOptions = {}): Promise<ViewCounter> {
    const counter = new ViewCounter(join(dataDir, VIEWS_FILE), options);
    await counter.db.read();
    const views = counter.db.data?.views ?? {};
    for (const [slug, n] of Object.entries(views)) if (Number.isSafeInteger(n) && n > 0) counter.counts.set(slug, n);
    return counter;
  }

  get(slug: string): number {
    return this.counts.get(slug) ?? 0;
  }

  /** Add one view; returns the new count. */
  increment(slug: string): number {
    const n = (this.counts.get(slug) ?? 0) + 1;
    this.counts.set(slug, n);
    this.dirty.add(slug);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.options.flushMs ?? 1000);
    return n;
  }

  /** Write pending counts now (also waits for a flush in progress). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.flushing) await this.flushing;
    if (this.dirty.size === 0) return;
    this.flushing = this.writeOnce().finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async writeOnce(): Promise<void> {
    const changed = new Map<string, number>();
    for (const slug of this.dirty) changed.set(slug, this.counts.get(slug) ?? 0);
    this.dirty.clear();
    try {
      this.db.data = { views: Object.fromEntries(this.counts) };
      await this.db.write();
    } catch (error) {
      for (const slug of changed.keys()) this.dirty.add(slug);
      this.options.onError?.(error);
      return;
    }
    try {
      await this.options.onFlush?.(changed);
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
