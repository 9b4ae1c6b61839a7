/** Open the configured store engine. */
import type { AgoraConfig } from '@agora/generator';
import type { Store, StoreRole } from './types.ts';
import { openEmbeddedStore } from './embedded/index.ts';

export async function openStore(config: AgoraConfig, role: StoreRole): Promise<Store> {
  if (config.store.engine === 'postgres') {
    // Loaded only when configured: the pg driver stays out of a files-only start.
    const { openPostgresStore } = await import('./postgres/index.ts');
    return openPostgresStore(config.store.databaseUrl, role);
  }
  return openEmbeddedStore(config.dataDir, role);
}

/** Whether `store` is the PostgreSQL engine (its pool is shared with the rate limiter). */
export function isPostgresStore(store: Store): store is import('./postgres/index.ts').PostgresStore {
  return store.engine === 'postgres' && 'pool' in store;
}
