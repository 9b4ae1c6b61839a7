/** The store contract on the embedded engine (lowdb files under a temporary data folder). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../packages/writer/src/store/embedded/index.ts';
import { storeContract } from './contract.ts';

storeContract('files', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-store-'));
  const store = await openEmbeddedStore(dir, 'server');
  const others: { close(): Promise<void> }[] = [];
  return {
    store,
    multiNode: false,
    // A second process on an embedded store is a CLI command (the writer is exclusive).
    openAnother: async () => {
      const other = await openEmbeddedStore(dir, 'tool');
      others.push(other);
      return other;
    },
    cleanup: async () => {
      for (const o of others) await o.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
