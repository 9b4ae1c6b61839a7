/**
 * Public JSON records (spec 2.1, 2.2, 2.4), with fields in the specification's order.
 */
import type { Comment, CommentRecord, Post, PostRecord, SiteModel } from '../types.ts';
import { commentTotals } from './comment-views.ts';
import { changeLogOf } from './change-log.ts';
import { memoised } from './memo.ts';
import { bodyHashOf, isTextStripped } from './comment-identity.ts';

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
 * every field of its public record is, the body compared by its SHA-256, and its stored
 * HTML came from the same renderer (its HTML key): job keys, and the reuse of its
 * memoised card. Without the key, HTML re-rendered by a new renderer version was stored
 * but never reached the pages, even after a restart. Also for a comment whose text is
 * on disk only.
 */
export function commentIdentity(c: Comment): string {
  return `${JSON.stringify(recordOf(c, bodyHashOf(c)))}${c.html_key ?? ''}`;
}

/** The public record; the comment must hold its text (`build/comment-texts.ts` reads it back). */
export function toCommentRecord(c: Comment): CommentRecord {
  if (isTextStripped(c)) throw new Error(`Comment \`${c.id}\` of \`${c.slug}\` holds no text in memory: read it back (\`CommentTexts.hold\`) before showing it`);
  return recordOf(c, c.body);
}

function recordOf(c: Comment, body: string): CommentRecord {
  return {
    id: c.id,
    slug: c.slug,
    author: c.author,
    model: c.model,
    date: c.date,
    type: c.type,
    position: c.position,
    body,
    created_at: c.created_at,
    agent: c.agent ? { origin: c.agent.origin, keyid: c.agent.keyid } : null,
  };
}

/**
 * `{slug: n}` for every post in the site's order, as JSON text: at 10,000 posts a
 * site-wide flush makes it every second, and writing the text costs a tenth of
 * building a 10,000-key object and stringifying it. Each post's `"slug":n` is kept
 * with the model and made again only for the posts its change log names since
 * (`model/change-log.ts`): remaking all of them took ~20 ms per flush.
 */
function perPostJson(site: SiteModel, kind: symbol, value: (slug: string) => number): string {
  // The `"slug":` of every post and each post's place, made once per model.
  const keys = memoised(site, SLUG_KEYS, () => site.posts.map((p) => `${JSON.stringify(p.slug)}:`));
  const kept = memoised(site, kind, () => ({ parts: null as string[] | null, seen: 0 }));
  const log = changeLogOf(site);
  const changed = kept.parts && log ? log.since(kept.seen) : null;
  if (kept.parts && changed) {
    const at = memoised(site, SLUG_PLACES, () => new Map(site.posts.map((p, i) => [p.slug, i])));
    for (const slug of changed) {
      const i = at.get(slug);
      if (i !== undefined) kept.parts[i] = keys[i]! + value(slug);
    }
  } else kept.parts = site.posts.map((post, i) => keys[i]! + value(post.slug));
  kept.seen = log?.end ?? 0;
  return `{${kept.parts.join(',')}}`;
}

const SLUG_KEYS = Symbol('post slugs as JSON keys');
const SLUG_PLACES = Symbol('post places by slug');
const COUNT_PARTS = Symbol('comment counts as JSON members');
const VIEW_PARTS = Symbol('view counts as JSON members');

/** `{total, by_model: {model: n}, by_post: {slug: n}}` as JSON; by_post lists every post, 0 included. */
export function commentCountsJson(site: SiteModel): string {
  const { total, by_model } = commentTotals(site);
  return `{"total":${total},"by_model":${JSON.stringify(by_model)},"by_post":${perPostJson(site, COUNT_PARTS, (slug) => site.comments.get(slug)?.length ?? 0)}}`;
}

/** `{slug: views}` for every post, as JSON. */
export function viewsJson(site: SiteModel): string {
  return perPostJson(site, VIEW_PARTS, (slug) => site.views.get(slug) ?? 0);
}
