/**
 * What each feed shows: the newest posts of its scope, or the newest comments. Feeds
 * are bounded so that a 10,000-post site does not publish a 25 MB feed.
 */
import type { Category, Comment, Post, SiteModel } from '../types.ts';
import type { Job } from './jobs.ts';
import { postsByTag } from './tags.ts';
import { newestComments } from './comment-views.ts';
import { postsOfCategory } from './site.ts';

/** Entries per feed. */
export const FEED_SIZE = 50;

export type FeedScope = { kind: 'site' } | { kind: 'category'; category: Category } | { kind: 'tag'; tag: string };

/** The newest posts of a scope (newest first). */
export function feedPosts(site: SiteModel, scope: FeedScope): Post[] {
  const all =
    scope.kind === 'site' ? site.posts
    : scope.kind === 'category' ? postsOfCategory(site, scope.category)
    : (postsByTag(site).get(scope.tag)?.posts ?? []);
  return all.slice(0, FEED_SIZE);
}

/** The newest visible comments of the site, or of one post (newest first). */
export function feedComments(site: SiteModel, slug?: string): Comment[] {
  // The site's newest come from the kept tally: a feed costs its 50 entries, not every comment.
  if (slug === undefined) return newestComments(site, FEED_SIZE);
  return [...(site.comments.get(slug) ?? [])].sort((a, b) => (a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : -1)).slice(0, FEED_SIZE);
}

/** Posts whose rendered bodies a job shows besides post pages (the post feeds). */
export function postsRenderedBy(site: SiteModel, job: Job): Post[] {
  switch (job.kind) {
    case 'site-feed':
      return feedPosts(site, { kind: 'site' });
    case 'category-feed':
      return feedPosts(site, { kind: 'category', category: job.category });
    case 'tag-feed':
      return feedPosts(site, { kind: 'tag', tag: job.tag });
    default:
      return [];
  }
}
