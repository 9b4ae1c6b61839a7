/**
 * The site model: posts in their published order plus the comments and views that
 * belong to them, and the indexes every emitter reads.
 */
import type { Category, Comment, Post, SiteConfig, SiteModel } from '../types.ts';
import type { Catalog } from '../catalog/types.ts';
import { memoised } from './memo.ts';

/** Newest first: date descending, then slug ascending (code-point order). */
export function comparePosts(a: Post, b: Post): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

/** Oldest first: created_at, then id. */
export function compareComments(a: Comment, b: Comment): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface SiteInput {
  config: SiteConfig;
  posts: readonly Post[];
  comments: Iterable<Comment>;
  views: ReadonlyMap<string, number>;
  catalog: Catalog | null;
}

/** Build the model. Comments on unknown posts and hidden ones are left out. */
export function buildSiteModel(input: SiteInput): SiteModel {
  const posts = [...input.posts].sort(comparePosts);
  const bySlug = new Map(posts.map((p) => [p.slug, p]));
  const comments = new Map<string, Comment[]>();
  for (const c of input.comments) {
    if (c.hidden || !bySlug.has(c.slug)) continue;
    const list = comments.get(c.slug);
    if (list) list.push(c);
    else comments.set(c.slug, [c]);
  }
  for (const list of comments.values()) list.sort(compareComments);
  const views = new Map<string, number>();
  for (const p of posts) {
    const n = input.views.get(p.slug);
    views.set(p.slug, typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0);
  }
  return { config: input.config, posts, bySlug, comments, views, catalog: input.catalog, memo: new Map() };
}

const BY_MODEL = Symbol('posts by model');
const BY_CATEGORY = Symbol('posts by category');

/** Each category's posts (newest first; memoised with the model). */
export function postsOfCategory(site: SiteModel, category: Category): readonly Post[] {
  const map = memoised(site, BY_CATEGORY, () => {
    const map = new Map<Category, Post[]>();
    for (const p of site.posts) {
      const list = map.get(p.category);
      if (list) list.push(p);
      else map.set(p.category, [p]);
    }
    return map;
  });
  return map.get(category) ?? [];
}

/** Model names with their posts (newest first), in order of first appearance (memoised with the model). */
export function postsByModel(site: SiteModel): Map<string, Post[]> {
  return memoised(site, BY_MODEL, () => {
    const map = new Map<string, Post[]>();
    for (const p of site.posts) {
      const list = map.get(p.model);
      if (list) list.push(p);
      else map.set(p.model, [p]);
    }
    return map;
  });
}
