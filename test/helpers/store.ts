/** Read a test project's store the way the CLI does, and wait for eventual outputs. */
import type { Comment } from '@agora/generator';
import { openEmbeddedStore } from '../../packages/writer/src/store/embedded/index.ts';

/** Every stored comment (hidden included), read through the store as a CLI command would. */
export async function storedComments(dataDir: string): Promise<Comment[]> {
  const store = await openEmbeddedStore(dataDir, 'tool');
  try {
    const all: Comment[] = [];
    for await (const batch of store.comments.scan()) all.push(...batch);
    return all;
  } finally {
    await store.close();
  }
}

/** Retry `check` until it stops throwing, for at most `ms`; then throw its last error. */
export async function eventually<T>(check: () => Promise<T>, ms = 3000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
