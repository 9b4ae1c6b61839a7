/**
 * The comments a moderator hid, by what they say and who sent them, so that sending
 * one again never undoes the hide: the twin is answered 200 with the hidden comment
 * and nothing is stored. Unlike the duplicate guard's memory (a window, one process),
 * this is rebuilt from the store: at start from every hidden comment, and whenever a
 * post's comments are read again after a change in the store (a hide by `agora comments
 * hide`, another node's), so it holds after a restart and on every node. Hidden
 * comments are few; only a fingerprint and an id are kept for each.
 */
import type { Comment } from '@agora/generator';
import { fingerprint, senderKey } from '../http/duplicate-guard.ts';

export class HiddenTwins {
  private readonly byKey = new Map<string, string>();
  private readonly keysBySlug = new Map<string, string[]>();

  /** A hidden comment (read at start). */
  add(comment: Comment): void {
    if (!comment.hidden) return;
    const key = fingerprint(comment.slug, senderKey(comment.author, comment.agent), comment.body);
    // Known already (a start that retries reads the store again): not listed twice.
    if (this.byKey.get(key) === comment.id) return;
    this.byKey.set(key, comment.id);
    const keys = this.keysBySlug.get(comment.slug);
    if (keys) keys.push(key);
    else this.keysBySlug.set(comment.slug, [key]);
  }

  /** A post's comments as the store now has them (hidden ones included): its hidden ones replace what was known. */
  replace(slug: string, comments: readonly Comment[]): void {
    for (const key of this.keysBySlug.get(slug) ?? []) this.byKey.delete(key);
    this.keysBySlug.delete(slug);
    for (const c of comments) if (c.hidden) this.add(c);
  }

  /** The id of a hidden comment with this post, sender (`senderKey`) and body, or null. */
  find(slug: string, who: string, body: string): string | null {
    return this.byKey.size === 0 ? null : (this.byKey.get(fingerprint(slug, who, body)) ?? null);
  }
}
