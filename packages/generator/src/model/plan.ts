/**
 * The incremental plan as a value: which outputs a change touches. A full build lists
 * every output; a comment lists the dozen that show that post's comments; a views
 * flush lists only the mirrors that carry view counts.
 */
import type { Category, SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import { postsByModel } from './site.ts';

export type Job =
  | { kind: 'post-page'; slug: string }
  | { kind: 'post-md'; slug: string }
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
  | { kind: 'catalog' };

export type Change =
  | { kind: 'full' }
  /** Comments changed on these posts: the posts' own outputs (page, record, comment list), written at once. */
  | { kind: 'post-comments'; slugs: readonly string[] }
  /**
   * What follows a burst of comment and view changes, coalesced: the site-wide lists
   * and counts, and the records of posts whose view counts changed.
   */
  | { kind: 'aggregates'; comments: readonly string[]; views: readonly string[] };

/** Jobs for a change, without duplicates. */
export function planBuild(site: SiteModel, change: Change): Job[] {
  if (change.kind === 'full') return planFull(site);
  const jobs = new Map<string, Job>();
  const add = (job: Job) => jobs.set(JSON.stringify(job), job);
  const posts = (slugs: readonly string[]) => slugs.map((s) => site.bySlug.get(s)).filter((p) => p !== undefined);
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
  if (viewed.length + commented.length === 0) return [];
  add({ kind: 'api-posts' });
  for (const post of viewed) add({ kind: 'api-post', slug: post.slug });
  for (const post of [...viewed, ...commented]) {
    add({ kind: 'api-category', category: post.category });
    add({ kind: 'api-model', model: post.model });
  }
  if (viewed.length > 0) add({ kind: 'api-views' });
  if (commented.length > 0) {
    add({ kind: 'api-comment-count' });
    add({ kind: 'comments-page' });
    // The debates page lists debate posts and any post with debate comments; a hidden
    // or deleted debate comment can remove a topic, so any comment change counts.
    add({ kind: 'debates-page' });
    // The markdown twins of /comments/ and /debates/.
    add({ kind: 'comment-twins' });
  }
  return [...jobs.values()];
}

function planFull(site: SiteModel): Job[] {
  const jobs: Job[] = [];
  for (const post of site.posts) {
    jobs.push({ kind: 'post-page', slug: post.slug }, { kind: 'post-md', slug: post.slug });
    jobs.push({ kind: 'api-post', slug: post.slug }, { kind: 'api-comments', slug: post.slug });
  }
  jobs.push({ kind: 'api-posts' });
  for (const category of CATEGORIES) {
    jobs.push({ kind: 'api-category', category });
    if (category !== 'debates') jobs.push({ kind: 'category-page', category });
  }
  for (const model of postsByModel(site).keys()) jobs.push({ kind: 'api-model', model });
  jobs.push(
    { kind: 'api-comment-count' }, { kind: 'api-views' }, { kind: 'home' }, { kind: 'comments-page' },
    { kind: 'debates-page' }, { kind: 'llms-txt' }, { kind: 'llms-full-txt' }, { kind: 'sitemap' },
    { kind: 'robots' }, { kind: 'headers' }, { kind: 'assets' }, { kind: 'openapi' }, { kind: 'catalog' },
  );
  jobs.push({ kind: 'agents-md' }, { kind: 'markdown-twins' }, { kind: 'comment-twins' });
  return jobs;
}
