/**
 * The site model: posts in their published order plus the comments and views that
 * belong to them, and the indexes every emitter reads.
 */
import { ChangeLog, LoggedMap } from './change-log.ts';
import type { Category, Comment, Post, SiteConfig, SiteModel } from '../types.ts';
import type { Catalog } from '../catalog/types.ts';
import { memoised } from './memo.ts';
import { groupBy, sortedIndex } from '../sorted.ts';

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
  const comments = new LoggedMap<Comment[]>();
  for (const c of input.comments) {
    if (c.hidden || !bySlug.has(c.slug)) continue;
    const list = comments.get(c.slug);
    if (list) list.push(c);
    else comments.set(c.slug, [c]);
  }
  for (const list of comments.values()) list.sort(compareComments);
  const views = new LoggedMap<number>();
  for (const p of posts) views.set(p.slug, viewCount(input.views.get(p.slug)));
  // From now on every change is noted (the job keys follow them: `model/change-log.ts`).
  comments.log = views.log = new ChangeLog();
  return { config: input.config, posts, bySlug, comments, views, catalog: input.catalog, memo: new Map() };
}

/**
 * Visible stored comments whose post no content file has now (a post renamed or
 * removed), counted by slug: the model leaves them out, so a build says so instead of
 * letting them vanish from the site without a word.
 */
export function commentsWithoutPost(comments: Iterable<Comment>, bySlug: ReadonlyMap<string, unknown>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of comments) if (!c.hidden && !bySlug.has(c.slug)) counts.set(c.slug, (counts.get(c.slug) ?? 0) + 1);
  return counts;
}

/** A stored view count as the model holds it (anything but a positive safe integer is 0). */
function viewCount(n: number | undefined): number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
}

const BY_MODEL = Symbol('posts by model');
const BY_CATEGORY = Symbol('posts by category');

/** Each category's posts (newest first; memoised with the model). */
export function postsOfCategory(site: SiteModel, category: Category): readonly Post[] {
  return memoised(site, BY_CATEGORY, () => groupBy(site.posts, (p) => p.category)).get(category) ?? [];
}

/** Model names with their posts (newest first), in order of first appearance (memoised with the model). */
export function postsByModel(site: SiteModel): Map<string, Post[]> {
  return memoised(site, BY_MODEL, () => groupBy(site.posts, (p) => p.model));
}

/** What changed in the posts of a model: slugs that go, posts that come (or replace the post of their slug). */
export interface PostsChange {
  remove: Iterable<string>;
  add: Iterable<Post>;
  /** The new catalog, when it changed. */
  catalog?: Catalog | null;
}

/**
 * More changes than this in one update re-sort the posts instead of moving each one
 * (each move shifts the list: a checkout of thousands of files would cost their product).
 */
const MOVES_MAX = 64;

/**
 * The model after some posts changed, made from `site` without going over every post
 * (`agora dev`: an edit's first half costs the edit, not the site): the posts' order,
 * `bySlug`, and the comments and views of the posts that remain (a new post starts with
 * none). Equal to `buildSiteModel` of the resulting posts with this model's comments and
 * views (a test checks it after random edits); a new model, so its memo starts empty.
 *
 * `site` is used up: its maps move into the new model and change there (copying them
 * was most of the cost at 10,000 posts), so only the new model may be read afterwards.
 */
export function updateSiteModel(site: SiteModel, change: PostsChange): SiteModel {
  const added = new Map<string, Post>();
  for (const post of change.add) added.set(post.slug, post);
  const touched = new Set([...change.remove, ...added.keys()]);
  const { bySlug, views, comments } = site;
  // The posts of `site` that go or are replaced.
  const gone: Post[] = [];
  for (const slug of touched) {
    const old = bySlug.get(slug);
    if (old) gone.push(old);
    const post = added.get(slug);
    if (post) {
      bySlug.set(slug, post);
      views.set(slug, viewCount(views.get(slug)));
    } else {
      bySlug.delete(slug);
      views.delete(slug);
      comments.delete(slug);
    }
  }
  let posts: Post[];
  if (gone.length + added.size > MOVES_MAX) posts = [...bySlug.values()].sort(comparePosts);
  else {
    posts = site.posts.slice();
    for (const post of gone) {
      const at = sortedIndex(posts, post, comparePosts);
      if (posts[at] === post) posts.splice(at, 1);
    }
    for (const post of added.values()) posts.splice(sortedIndex(posts, post, comparePosts), 0, post);
  }
  return { config: site.config, posts, bySlug, comments, views, catalog: change.catalog === undefined ? site.catalog : change.catalog, memo: new Map() };
}

