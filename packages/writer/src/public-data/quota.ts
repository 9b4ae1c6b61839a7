/**
 * Daily call quotas (per provider, per agent token) that reset at midnight Korea time
 * and survive restarts. The counting itself is the store's (`QuotaStore`: a file for
 * one writer, a table shared by several nodes); this module adds the KST day and
 * turns a spent bucket into a 429 with `Retry-After`.
 */
import { AppError } from '../errors.ts';
import { kstDay, secondsUntilKstMidnight } from '../upstream/kst.ts';
import type { QuotaBucket as StoredBucket, QuotaStore } from '../store/types.ts';

/** One counter to spend from, with words for the 429 message. */
export interface QuotaBucket extends StoredBucket {
  /** e.g. "The daily quota of `weather-forecast`". */
  label: string;
}

export interface Quota {
  /** Spend one call from every bucket, or none: throws 429 with Retry-After when any is spent. */
  take(buckets: readonly QuotaBucket[]): Promise<void>;
  /** Calls spent today from a bucket. */
  used(key: string): Promise<number>;
  flush(): Promise<void>;
}

export function createQuota(store: QuotaStore, now: () => Date): Quota {
  return {
    async take(buckets) {
      const spent = (await store.take(kstDay(now()), buckets)) as QuotaBucket | null;
      if (!spent) return;
      const retryAfter = secondsUntilKstMidnight(now());
      throw new AppError('rate_limited', `${spent.label} (${spent.limit} calls per day) is spent; it resets at midnight Korea time, in ${retryAfter} s`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    },
    used: (key) => store.used(kstDay(now()), key),
    flush: () => store.flush(),
  };
}
