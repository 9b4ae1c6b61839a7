/** What a build needs from the store: the visible comments and the view counts, read in batches. */
import { dropCommentText, type Comment, type StoreSnapshot } from '@agora/generator';
import type { Store } from './types.ts';

/**
 * @param options.dropText The writer's start (`AGORA_COMMENT_TEXT_POSTS` not 0): each
 * comment's text is dropped as it is read, so the text of every comment is never in
 * memory at once, and the snapshot says where the build reads a post's back
 * (`loadComments`) when it shows it. Without it, every comment keeps its text.
 * @param options.onHidden Told each hidden comment (left out of the snapshot).
 */
export async function loadSnapshot(store: Store, views?: ReadonlyMap<string, number>, options: { dropText?: boolean; onHidden?: (comment: Comment) => void } = {}): Promise<StoreSnapshot> {
  const comments: Comment[] = [];
  const shared = new SharedStrings();
  for await (const batch of store.comments.scan()) {
    for (const c of batch) {
      if (c.hidden) {
        options.onHidden?.(c);
        continue;
      }
      if (options.dropText) dropCommentText(c);
      shared.share(c);
      comments.push(c);
    }
  }
  const snapshot: StoreSnapshot = { comments, views: views ?? (await store.views.load()) };
  if (options.dropText) snapshot.loadComments = (slug) => store.comments.forSlug(slug);
  return snapshot;
}

/**
 * One string for each value comments repeat. JSON.parse gives every comment its own copy
 * of its post's slug, author and model: at 10,000 posts and 133,000 comments that was
 * 15 MB of the writer's heap (a heap snapshot, eighth session's corpus), for a few
 * thousand distinct values.
 */
class SharedStrings {
  private readonly pool = new Map<string, string>();

  share(c: Comment): void {
    c.slug = this.one(c.slug);
    c.author = this.one(c.author);
    c.model = this.one(c.model);
    c.date = this.one(c.date);
  }

  private one(value: string): string {
    const known = this.pool.get(value);
    if (known !== undefined) return known;
    this.pool.set(value, value);
    return value;
  }
}
