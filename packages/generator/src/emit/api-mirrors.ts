/**
 * Static JSON mirrors of every GET endpoint under `api/`. The files have no extension
 * so that `/api/posts` is a file any static host can serve; `_headers` and
 * `agora serve` give them `application/json`.
 */
import type { Category, Post } from '../types.ts';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import { toFileName } from '../paths.ts';
import { postsByTag } from '../model/tags.ts';
import { postsOfCategory } from '../model/site.ts';
import { commentCountsJson, viewsJson } from '../model/records.ts';

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** A JSON array of post records as chunks: no 25 MB string is ever built. */
function list(ctx: EmitContext, posts: readonly Post[]): Uint8Array[] {
  const chunks: Uint8Array[] = [OPEN];
  posts.forEach((p, i) => {
    if (i > 0) chunks.push(COMMA);
    chunks.push(ctx.recordBytes(p.slug));
  });
  chunks.push(CLOSE);
  return chunks;
}

/** `/api/posts`: every post, newest first, with content. */
export function emitPostsList(ctx: EmitContext): Output {
  return { path: 'api/posts', body: list(ctx, ctx.site.posts) };
}

/** `/api/post/{slug}` */
export function emitPostRecord(ctx: EmitContext, slug: string): Output {
  return { path: `api/post/${toFileName(slug)}`, body: [ctx.recordBytes(slug)] };
}

/** `/api/category/{cat}`: `[]` when the category has no post. */
export function emitCategoryList(ctx: EmitContext, category: Category): Output {
  return { path: `api/category/${category}`, body: list(ctx, postsOfCategory(ctx.site, category)) };
}

/** `/api/model/{model}`: only for models with posts, so a file server answers 404 for others. */
export function emitModelList(ctx: EmitContext, model: string, posts: readonly Post[]): Output {
  return { path: `api/model/${toFileName(model)}`, body: list(ctx, posts) };
}

/** `/api/tag/{tag}`: the tag's posts (by tag key, see `tagKey`), whole like the category lists. */
export function emitTagList(ctx: EmitContext, key: string): Output {
  return { path: `api/tag/${toFileName(key)}`, body: list(ctx, postsByTag(ctx.site).get(key)?.posts ?? []) };
}

/** `/api/comments/{slug}`: the post's visible comments, oldest first; `[]` when none. */
export function emitCommentList(ctx: EmitContext, slug: string): Output {
  const comments = ctx.site.comments.get(slug) ?? [];
  return { path: `api/comments/${toFileName(slug)}`, body: [OPEN, ...ctx.commentRecords(slug, comments), CLOSE] };
}

/** `/api/comments/count` */
export function emitCommentCount(ctx: EmitContext): Output {
  return { path: 'api/comments/count', body: commentCountsJson(ctx.site) };
}

/** `/api/views` */
export function emitViews(ctx: EmitContext): Output {
  return { path: 'api/views', body: viewsJson(ctx.site) };
}
