/**
 * Daily call counters (per provider, per agent token) that reset at midnight Korea
 * time and survive restarts: kept in `quotas.json`, written atomically and coalesced
 * (at most one write in flight, one more queued).
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../../generator/src/emit/atomic-write.ts';
import { AppError } from '../errors.ts';
import { kstDay, secondsUntilKstMidnight } from '../upstream/kst.ts';

/** One counter to spend from. */
export interface QuotaBucket {
  /** Stable key, e.g. `service:weather-forecast` or `token:tok_1a2b3c4d`. */
  key: string;
  /** Calls allowed per KST day. */
  limit: number;
  /** Words for the 429 message, e.g. "the daily quota of `weather-forecast`". */
  label: string;
}

/** The counters. */
export interface QuotaStore {
  /** Resolves once the file is read. */
  ready: Promise<void>;
  /** Spend one call from every bucket, or none: throws 429 with Retry-After when any is spent. */
  take(buckets: readonly QuotaBucket[]): void;
  /** Calls spent today from a bucket. */
  used(key: string): number;
  /** Write pending counts now. */
  flush(): Promise<void>;
}

/** Options of `createQuotaStore`. */
export interface QuotaStoreOptions {
  /** Path of `quotas.json`. */
  file: string;
  now: () => Date;
  /** Delay before a coalesced write (default 200 ms). */
  flushDelayMs?: number;
}

interface QuotaFile {
  day: string;
  counts: Record<string, number>;
}

function readState(text: string): QuotaFile | undefined {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { day, counts } = parsed as Partial<QuotaFile>;
  if (typeof day !== 'string' || typeof counts !== 'object' || counts === null) return undefined;
  const clean = Object.fromEntries(Object.entries(counts).filter(([, n]) => Number.isInteger(n) && n >= 0));
  return { day, counts: clean };
}

/**
 * Create the quota store for a data folder.
 *
 * @param options File path, clock and flush delay.
 */
export function createQuotaStore(options: QuotaStoreOptions): QuotaStore {
  let state: QuotaFile = { day: kstDay(options.now()), counts: {} };
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let dirty = false;

  const ready = readFile(options.file, 'utf8').then(
    (text) => {
      const loaded = readState(text);
      if (loaded) state = loaded;
    },
    () => undefined,
  ).catch(() => undefined);

  const current = (): QuotaFile => {
    const day = kstDay(options.now());
    if (state.day !== day) {
      state = { day, counts: {} };
      dirty = true;
    }
    return state;
  };

  const write = async (): Promise<void> => {
    while (dirty) {
      dirty = false;
      await writeFileAtomic(options.file, `${JSON.stringify(state, null, 2)}\n`);
    }
  };
  const flush = async (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    while (writing) await writing;
    if (!dirty) return;
    writing = write().finally(() => (writing = undefined));
    await writing;
  };
  const schedule = () => {
    dirty = true;
    timer ??= setTimeout(() => {
      timer = undefined;
      flush().catch(() => (dirty = true));
    }, options.flushDelayMs ?? 200);
    timer.unref();
  };

  return {
    ready,
    used: (key) => current().counts[key] ?? 0,
    take(buckets) {
      const { counts } = current();
      const spent = buckets.find((bucket) => (counts[bucket.key] ?? 0) >= bucket.limit);
      if (spent) {
        const retryAfter = secondsUntilKstMidnight(options.now());
        throw new AppError('rate_limited', `${spent.label} (${spent.limit} calls per day) is spent; it resets at midnight Korea time, in ${retryAfter} s`, {
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
      for (const bucket of buckets) counts[bucket.key] = (counts[bucket.key] ?? 0) + 1;
      schedule();
    },
    flush,
  };
}
