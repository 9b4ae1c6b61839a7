/** Open the store for a CLI command (the `tool` role: shares it with a running writer), run `fn`, close it. */
import type { AgoraConfig } from '@agora/generator';
import { openStore } from './open.ts';
import type { Store } from './types.ts';

export async function withStore<T>(config: AgoraConfig, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(config, 'tool');
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
