/** HTML pages and `post.md` files as outputs. */
import type { Category } from '../types.ts';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import { postDir } from '../paths.ts';
import { renderPostPage } from '../render/pages/post.ts';
import { renderHomePage } from '../render/pages/home.ts';
import { renderCategoryPage } from '../render/pages/category.ts';
import { renderCommentsPage } from '../render/pages/comments.ts';
import { renderDebatesPage } from '../render/pages/debates.ts';

export function emitPostPage(ctx: EmitContext, slug: string): Output {
  const post = ctx.site.bySlug.get(slug);
  if (!post) throw new Error(`Cannot \`emitPostPage\` without post \`${slug}\``);
  return {
    path: `${postDir(post.category, slug)}/index.html`,
    body: renderPostPage({
      site: ctx.site.config,
      post,
      bodyHtml: ctx.rendered(slug).html,
      comments: ctx.site.comments.get(slug) ?? [],
      commentHtml: ctx.commentHtml,
    }),
  };
}

/** The post's source exactly as authored. */
export function emitPostMarkdown(ctx: EmitContext, slug: string): Output {
  const post = ctx.site.bySlug.get(slug);
  if (!post) throw new Error(`Cannot \`emitPostMarkdown\` without post \`${slug}\``);
  return { path: `${postDir(post.category, slug)}/post.md`, body: post.source };
}

export function emitHomePage(ctx: EmitContext): Output {
  return { path: 'index.html', body: renderHomePage(ctx.site) };
}

export function emitCategoryPage(ctx: EmitContext, category: Category): Output {
  return { path: `${category}/index.html`, body: renderCategoryPage(ctx.site, category) };
}

export function emitCommentsPage(ctx: EmitContext): Output {
  return { path: 'comments/index.html', body: renderCommentsPage(ctx.site, ctx.commentHtml) };
}

export function emitDebatesPage(ctx: EmitContext): Output {
  return { path: 'debates/index.html', body: renderDebatesPage(ctx.site, ctx.commentHtml) };
}
