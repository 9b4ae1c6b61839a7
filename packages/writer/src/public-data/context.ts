/**
 * The state one public-data router shares between its routes: catalog, provider
 * settings, quota counters, response cache, in-flight calls and the clock.
 */
import type { Catalog } from '@agora/generator';
import type { OperationTable, ProviderId } from '../upstream/types.ts';
import type { PublicDataConfig } from './config.ts';
import type { Quota } from './quota.ts';
import type { ResponseCache } from './cache.ts';

/** Shared state of a router. */
export interface PublicDataContext {
  catalog: Catalog;
  config: PublicDataConfig;
  quota: Quota;
  cache: ResponseCache;
  /** Calls under way, by cache key, so identical concurrent requests share one upstream call. */
  inflight: Map<string, Promise<{ data: unknown; fetchedAt: Date }>>;
  operations: Record<ProviderId, OperationTable>;
  now: () => Date;
}
