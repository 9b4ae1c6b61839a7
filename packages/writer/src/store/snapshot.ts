/** What a build needs from the store: the visible comments and the view counts, read in batches. */
import type { Comment, StoreSnapshot } from '@agora/generator';
import type { Store } from './types.ts';

export async function loadSnapshot(store: Store, views?: ReadonlyMap<string, number>): Promise<StoreSnapshot> {
  const comments: Comment[] = [];
  for await (const batch of store.comments.scan()) for (const c of batch) if (!c.hidden) comments.push(c);
  // A long-lived build reads a post's comment text back from here when it shows it.
  return { comments, views: views ?? (await store.views.load()), loadComments: (slug) => store.comments.forSlug(slug) };
}
