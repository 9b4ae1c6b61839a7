/** HTML pages and `post.md` files as outputs. */
import type { Category } from '../types.ts';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import { postDir } from '../paths.ts';
import { renderPostPage } from '../render/pages/post.ts';
import { renderHomePages } from '../render/pages/home.ts';
import { renderCategoryPages } from '../render/pages/category.ts';
import { renderTagPages, renderTagsPage } from '../render/pages/tags.ts';
import { renderModelPages } from '../render/pages/model.ts';
import { renderSearchPage } from '../render/pages/search.ts';
import { pageFile } from '../render/pages/pagination.ts';
import { postsByTag } from '../model/tags.ts';
import { postsByModel } from '../model/site.ts';
import { modelDir, tagDir } from '../paths.ts';
import { renderCommentsPage } from '../render/pages/comments.ts';
import { renderDebatesPage } from '../render/pages/debates.ts';
import { modelTwin, notFoundTwin, searchTwin, tagTwin, tagsTwin } from './markdown-twins.ts';
import { renderNotFoundPage } from '../render/pages/not-found.ts';

export function emitPostPage(ctx: EmitContext, slug: string): Output {
  const post = ctx.site.bySlug.get(slug);
  if (!post) throw new Error(`Cannot \`emitPostPage\` without post \`${slug}\``);
  return {
    path: `${postDir(post.category, slug)}/index.html`,
    body: renderPostPage({
      site: ctx.site.config,
      catalog: ctx.site.catalog !== null,
      post,
      bodyHtml: ctx.rendered(slug).html,
      comments: ctx.site.comments.get(slug) ?? [],
      cards: ctx.cards,
    }),
  };
}

/** The post's source exactly as authored. */
export function emitPostMarkdown(ctx: EmitContext, slug: string): Output {
  const post = ctx.site.bySlug.get(slug);
  if (!post) throw new Error(`Cannot \`emitPostMarkdown\` without post \`${slug}\``);
  return { path: `${postDir(post.category, slug)}/post.md`, body: post.source };
}

/** The pages of a list as files: `{dir}/index.html`, `{dir}/page/2/index.html` … */
function listFiles(dir: string, pages: readonly string[]): Output[] {
  return pages.map((body, i) => ({ path: pageFile(dir, i + 1), body }));
}

export function emitHomePage(ctx: EmitContext): Output[] {
  return listFiles('', renderHomePages(ctx.site));
}

export function emitCategoryPage(ctx: EmitContext, category: Category): Output[] {
  return listFiles(category, renderCategoryPages(ctx.site, category));
}

export function emitTagsPage(ctx: EmitContext): Output[] {
  return [{ path: 'tags/index.html', body: renderTagsPage(ctx.site) }, tagsTwin(ctx.site)];
}

export function emitTagPage(ctx: EmitContext, key: string): Output[] {
  const tag = postsByTag(ctx.site).get(key);
  if (!tag) throw new Error(`Cannot \`emitTagPage\` without tag \`${key}\``);
  return [...listFiles(tagDir(key), renderTagPages(ctx.site, tag)), tagTwin(ctx.site, tag)];
}

export function emitModelPage(ctx: EmitContext, model: string): Output[] {
  const posts = postsByModel(ctx.site).get(model) ?? [];
  return [...listFiles(modelDir(model), renderModelPages(ctx.site, model, posts)), modelTwin(ctx.site, model, posts)];
}

export function emitSearchPage(ctx: EmitContext): Output[] {
  return [{ path: 'search/index.html', body: renderSearchPage(ctx.site.config, ctx.site.catalog !== null) }, searchTwin(ctx.site)];
}

/** `404.html` for static hosts (Netlify, Cloudflare Pages, GitHub Pages serve it for a missing path; docs/deploy.md for nginx and Caddy), and its twin. */
export function emitNotFoundPage(ctx: EmitContext): Output[] {
  return [{ path: '404.html', body: renderNotFoundPage(ctx.site.config, ctx.site.catalog !== null) }, notFoundTwin(ctx.site)];
}

export function emitCommentsPage(ctx: EmitContext): Output {
  return { path: 'comments/index.html', body: renderCommentsPage(ctx.site, ctx.cards) };
}

export function emitDebatesPage(ctx: EmitContext): Output {
  return { path: 'debates/index.html', body: renderDebatesPage(ctx.site, ctx.cards) };
}
