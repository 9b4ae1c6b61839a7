/**
 * The jobs of a change: which outputs it touches. A full build lists every output; a
 * comment lists the few that show that post's comments; a views flush lists only the
 * mirrors that carry view counts. Which of them are emitted, skipped or removed, and
 * why, is decided by `build/plan.ts`.
 */
import type { Category, Post, SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import { postsByModel } from './site.ts';
import { postsByTag, postTags } from './tags.ts';
import { tagKey } from '../paths.ts';

export type Job =
  | { kind: 'post-page'; slug: string }
  | { kind: 'post-md'; slug: string }
  /** The files a post refers to, copied into its folder (`validate/local-files.ts`): only for a post that refers to any. */
  | { kind: 'post-files'; slug: string }
  | { kind: 'api-post'; slug: string }
  | { kind: 'api-comments'; slug: string }
  | { kind: 'api-posts' }
  | { kind: 'api-category'; category: Category }
  | { kind: 'api-model'; model: string }
  | { kind: 'api-comment-count' }
  | { kind: 'api-views' }
  | { kind: 'home' }
  | { kind: 'category-page'; category: Category }
  | { kind: 'comments-page' }
  | { kind: 'debates-page' }
  | { kind: 'llms-txt' }
  | { kind: 'llms-full-txt' }
  | { kind: 'agents-md' }
  | { kind: 'markdown-twins' }
  | { kind: 'comment-twins' }
  | { kind: 'sitemap' }
  | { kind: 'robots' }
  | { kind: 'headers' }
  | { kind: 'assets' }
  | { kind: 'openapi' }
  | { kind: 'catalog' }
  | { kind: 'api-tag'; tag: string }
  | { kind: 'tags-page' }
  | { kind: 'tag-page'; tag: string }
  | { kind: 'model-page'; model: string }
  | { kind: 'search-page' }
  /** `404.html` (and its twin `404.md`): the page static hosts answer for a missing path. */
  | { kind: 'not-found-page' }
  /** Atom and JSON Feed of the newest posts, with full content. */
  | { kind: 'site-feed' }
  | { kind: 'category-feed'; category: Category }
  | { kind: 'tag-feed'; tag: string }
  /** Atom and JSON Feed of the newest comments: site-wide, and per post. */
  | { kind: 'comments-feed' }
  | { kind: 'post-comments-feed'; slug: string };


export type Change =
  | { kind: 'full' }
  /** Comments changed on these posts: the posts' own outputs (page, record, comment list), written at once; their comment feeds follow with the aggregates. */
  | { kind: 'post-comments'; slugs: readonly string[] }
  /**
   * What follows a burst of comment and view changes, coalesced: the site-wide lists
   * and counts (tag mirrors included), the site-wide comment feed and the commented
   * posts' comment feeds, and the records of
   * posts whose view counts changed. Post feeds and HTML lists show neither comments
   * nor views, so they are left to content builds.
   */
  | {
      kind: 'aggregates';
      comments: readonly string[];
      views: readonly string[];
      /**
       * Posts whose category, model and tag mirrors to rewrite, by what changed (default:
       * `comments` and `views`). The writer passes none: it writes the mirrors (~140 MB
       * at 10,000 posts) as a `lists` change of their own, in rounds paced by
       * `AGORA_LIST_INTERVAL_MS` that stop for the next `/api/posts`.
       */
      lists?: { comments: readonly string[]; views: readonly string[] };
      /** Posts whose comment feeds to rewrite (default: `comments`); the writer bounds them per flush. */
      feeds?: readonly string[];
    }
  /**
   * Posts whose source changed (`agora dev`): their own outputs (page, `post.md`, record,
   * comment list, comment feed), written at once so the edited page is in `dist/` in
   * milliseconds; the lists that show them follow in the full plan that comes next.
   * A slug that is no longer a post lists nothing: its files go through the plan's removals.
   */
  | { kind: 'post-sources'; slugs: readonly string[] }
  /**
   * Category, model and tag mirrors left over from an earlier flush (`listJobsOf`),
   * listed apart by what changed: the writer writes them a slice at a time between the
   * flushes that carry `/api/posts`, so a 140 MB rewrite never holds those back.
   */
  | { kind: 'lists'; comments: readonly Job[]; views: readonly Job[] };

/** Jobs for a change, without duplicates. */
export function listJobs(site: SiteModel, change: Change): Job[] {
  if (change.kind === 'full') return planFull(site);
  const jobs = new Map<string, Job>();
  const add = (job: Job) => jobs.set(JSON.stringify(job), job);
  const posts = (slugs: readonly string[]) => slugs.map((s) => site.bySlug.get(s)).filter((p) => p !== undefined);
  if (change.kind === 'post-sources') {
    for (const post of posts(change.slugs)) {
      add({ kind: 'post-page', slug: post.slug });
      add({ kind: 'post-md', slug: post.slug });
      add({ kind: 'api-post', slug: post.slug });
      add({ kind: 'api-comments', slug: post.slug });
      add({ kind: 'post-comments-feed', slug: post.slug });
      if (post.files) add({ kind: 'post-files', slug: post.slug });
    }
    return [...jobs.values()];
  }
  if (change.kind === 'lists') {
    for (const job of [...change.comments, ...change.views]) add(job);
    return [...jobs.values()];
  }
  if (change.kind === 'post-comments') {
    for (const post of posts(change.slugs)) {
      add({ kind: 'post-page', slug: post.slug });
      add({ kind: 'api-post', slug: post.slug });
      add({ kind: 'api-comments', slug: post.slug });
    }
    return [...jobs.values()];
  }
  const viewed = posts(change.views);
  const commented = posts(change.comments);
  const listed = change.lists ? posts([...change.lists.comments, ...change.lists.views]) : [...viewed, ...commented];
  // In the order they are written: the counts first (`/api/posts` is what a client
  // checks after a 201), then the records and feeds of the posts, then the lists.
  if (viewed.length + commented.length > 0) add({ kind: 'api-posts' });
  if (commented.length > 0) {
    add({ kind: 'api-comment-count' });
    add({ kind: 'comments-page' });
    // The debates page lists debate posts and any post with debate comments; a hidden
    // or deleted debate comment can remove a topic, so any comment change counts.
    add({ kind: 'debates-page' });
    add({ kind: 'comments-feed' });
    // The markdown twins of /comments/ and /debates/.
    add({ kind: 'comment-twins' });
  }
  if (viewed.length > 0) add({ kind: 'api-views' });
  for (const post of viewed) add({ kind: 'api-post', slug: post.slug });
  // A post's comment feeds are feeds like the site's: coalesced, so a busy post's
  // feeds are written once per flush, not once per comment.
  for (const post of change.feeds ? posts(change.feeds) : commented) add({ kind: 'post-comments-feed', slug: post.slug });
  for (const job of listJobsOf(listed)) add(job);
  return [...jobs.values()];
}

/** The category, model and tag mirrors that list these posts (with repeats). */
export function listJobsOf(posts: readonly Post[]): Job[] {
  return posts.flatMap((post): Job[] => [
    { kind: 'api-category', category: post.category },
    { kind: 'api-model', model: post.model },
    ...tagsOf(post).map((tag): Job => ({ kind: 'api-tag', tag })),
  ]);
}

function planFull(site: SiteModel): Job[] {
  // The documents that count every post's tokens and hold every post's text at once
  // (the largest passing allocations of a build) come first, while the build holds
  // little else: no post records yet, few renderings, an empty manifest (`build/schedule.ts`
  // emits jobs in this order, pages and post feeds aside).
  const jobs: Job[] = [{ kind: 'llms-txt' }, { kind: 'llms-full-txt' }];
  for (const post of site.posts) {
    jobs.push({ kind: 'post-page', slug: post.slug }, { kind: 'post-md', slug: post.slug });
    jobs.push({ kind: 'api-post', slug: post.slug }, { kind: 'api-comments', slug: post.slug });
    jobs.push({ kind: 'post-comments-feed', slug: post.slug });
    if (post.files) jobs.push({ kind: 'post-files', slug: post.slug });
  }
  jobs.push({ kind: 'api-posts' });
  for (const category of CATEGORIES) {
    jobs.push({ kind: 'api-category', category });
    if (category !== 'debates') jobs.push({ kind: 'category-page', category });
    jobs.push({ kind: 'category-feed', category });
  }
  for (const model of postsByModel(site).keys()) jobs.push({ kind: 'api-model', model }, { kind: 'model-page', model });
  for (const tag of postsByTag(site).keys()) jobs.push({ kind: 'api-tag', tag }, { kind: 'tag-page', tag }, { kind: 'tag-feed', tag });
  jobs.push(
    { kind: 'api-comment-count' }, { kind: 'api-views' }, { kind: 'home' }, { kind: 'comments-page' },
    { kind: 'debates-page' }, { kind: 'sitemap' },
    { kind: 'robots' }, { kind: 'headers' }, { kind: 'assets' }, { kind: 'openapi' }, { kind: 'catalog' },
    { kind: 'tags-page' }, { kind: 'search-page' }, { kind: 'not-found-page' }, { kind: 'site-feed' }, { kind: 'comments-feed' },
  );
  jobs.push({ kind: 'agents-md' }, { kind: 'markdown-twins' }, { kind: 'comment-twins' });
  return jobs;
}

/** Tag keys of a post. */
function tagsOf(post: Post): string[] {
  return [...new Set(postTags(post).map(tagKey))].filter((k) => k !== '');
}
