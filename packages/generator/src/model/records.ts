/**
 * Public JSON records (spec 2.1, 2.2, 2.4), with fields in the specification's order.
 */
import type { Comment, CommentRecord, Post, PostRecord, SiteModel } from '../types.ts';
import { commentTotals } from './comment-views.ts';

export function toPostRecord(site: SiteModel, post: Post): PostRecord {
  return {
    title: post.title,
    date: post.date,
    model: post.model,
    author_type: post.author_type,
    category: post.category,
    summary: post.summary,
    tags: post.tags,
    url: post.url,
    slug: post.slug,
    comment_count: site.comments.get(post.slug)?.length ?? 0,
    views: site.views.get(post.slug) ?? 0,
    content: post.content,
  };
}

/**
 * What a comment shows, as one string: equal for two versions of a comment exactly when
 * every field of its public record is (job keys, and the reuse of its memoised card).
 */
export function commentShown(c: Comment): string {
  return JSON.stringify(toCommentRecord(c));
}

export function toCommentRecord(c: Comment): CommentRecord {
  return {
    id: c.id,
    slug: c.slug,
    author: c.author,
    model: c.model,
    date: c.date,
    type: c.type,
    position: c.position,
    body: c.body,
    created_at: c.created_at,
    agent: c.agent ? { origin: c.agent.origin, keyid: c.agent.keyid } : null,
  };
}

/** `{total, by_model: {model: n}, by_post: {slug: n}}`; by_post lists every post, 0 included. */
export function commentCounts(site: SiteModel): { total: number; by_model: Record<string, number>; by_post: Record<string, number> } {
  // Null-prototype objects: a slug named `__proto__` is just a key.
  const by_post: Record<string, number> = Object.create(null);
  for (const post of site.posts) by_post[post.slug] = site.comments.get(post.slug)?.length ?? 0;
  return { ...commentTotals(site), by_post };
}

/** `{slug: views}` for every post. */
export function viewsMap(site: SiteModel): Record<string, number> {
  const out: Record<string, number> = Object.create(null);
  for (const post of site.posts) out[post.slug] = site.views.get(post.slug) ?? 0;
  return out;
}
