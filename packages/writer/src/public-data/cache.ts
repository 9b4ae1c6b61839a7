/**
 * In-memory response cache with per-entry expiry and a size bound (oldest entry
 * evicted first). Answers served from it spend no quota.
 */

/** A cached answer. */
export interface CacheEntry {
  data: unknown;
  /** When the provider answered. */
  fetchedAt: Date;
  expiresAt: number;
}

/** The cache. */
export interface ResponseCache {
  get(key: string): CacheEntry | undefined;
  set(key: string, data: unknown, fetchedAt: Date, expiresAt: Date): void;
  readonly size: number;
}

/**
 * Create a cache.
 *
 * @param options Clock and the largest number of entries (0 turns caching off).
 */
export function createResponseCache(options: { now: () => Date; maxEntries: number }): ResponseCache {
  const entries = new Map<string, CacheEntry>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= options.now().getTime()) {
        entries.delete(key);
        return undefined;
      }
      return entry;
    },
    set(key, data, fetchedAt, expiresAt) {
      if (options.maxEntries <= 0 || expiresAt.getTime() <= options.now().getTime()) return;
      entries.delete(key);
      entries.set(key, { data, fetchedAt, expiresAt: expiresAt.getTime() });
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
}
