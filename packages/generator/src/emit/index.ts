/**
 * The emitter registry: each job kind of the plan maps to the function that produces
 * its output(s). Adding an output means adding a job kind and an entry here, and its
 * files in `site-files.ts` (what `dead-link` checks links against).
 */
import type { Job } from '../model/jobs.ts';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import * as api from './api-mirrors.ts';
import * as pages from './pages.ts';
import { emitLlmsTxt } from './llms-txt.ts';
import { emitLlmsFullTxt } from './llms-full.ts';
import { emitAgentsMd } from './agents-md.ts';
import { emitCommentTwins, emitMarkdownTwins } from './markdown-twins.ts';
import { sitePages } from './page-links.ts';
import { emitSitemap } from './sitemap.ts';
import { emitRobots } from './robots.ts';
import { emitHeaders } from './headers.ts';
import { emitAssets } from './assets.ts';
import { emitPostFiles } from './post-files.ts';
import { emitOpenApi } from './openapi.ts';
import { emitCatalog } from './catalog.ts';
import { postsByModel } from '../model/site.ts';
import { emitCommentsFeed, emitPostCommentsFeed, emitPostFeed } from './feeds.ts';

type Emitters = { [K in Job['kind']]: (ctx: EmitContext, job: Extract<Job, { kind: K }>) => Output | Output[] };

export const EMITTERS: Emitters = {
  'post-page': (ctx, job) => pages.emitPostPage(ctx, job.slug),
  'post-md': (ctx, job) => pages.emitPostMarkdown(ctx, job.slug),
  'post-files': (ctx, job) => emitPostFiles(ctx, job.slug),
  'api-post': (ctx, job) => api.emitPostRecord(ctx, job.slug),
  'api-comments': (ctx, job) => api.emitCommentList(ctx, job.slug),
  'api-posts': (ctx) => api.emitPostsList(ctx),
  'api-category': (ctx, job) => api.emitCategoryList(ctx, job.category),
  'api-model': (ctx, job) => api.emitModelList(ctx, job.model, postsByModel(ctx.site).get(job.model) ?? []),
  'api-comment-count': (ctx) => api.emitCommentCount(ctx),
  'api-views': (ctx) => api.emitViews(ctx),
  home: (ctx) => pages.emitHomePage(ctx),
  'category-page': (ctx, job) => pages.emitCategoryPage(ctx, job.category),
  'comments-page': (ctx) => pages.emitCommentsPage(ctx),
  'debates-page': (ctx) => pages.emitDebatesPage(ctx),
  'llms-txt': (ctx) => emitLlmsTxt(ctx),
  'llms-full-txt': (ctx) => emitLlmsFullTxt(ctx),
  'agents-md': (ctx) => emitAgentsMd(ctx.site),
  'markdown-twins': (ctx) => emitMarkdownTwins(ctx.site),
  'comment-twins': (ctx) => emitCommentTwins(ctx.site),
  sitemap: (ctx) => emitSitemap(ctx.site),
  robots: (ctx) => emitRobots(ctx.site.config),
  headers: (ctx) =>
    emitHeaders(ctx.site.config, sitePages(ctx.site), {
      post: (page) => (page.slug === undefined ? undefined : ctx.tokens(ctx.site.bySlug.get(page.slug)?.source ?? '')),
      agentsMd: ctx.tokens(emitAgentsMd(ctx.site).body),
    }),
  assets: () => emitAssets(),
  openapi: (ctx) => emitOpenApi(ctx.site),
  catalog: (ctx) => emitCatalog(ctx.site),
  'api-tag': (ctx, job) => api.emitTagList(ctx, job.tag),
  'tags-page': (ctx) => pages.emitTagsPage(ctx),
  'tag-page': (ctx, job) => pages.emitTagPage(ctx, job.tag),
  'model-page': (ctx, job) => pages.emitModelPage(ctx, job.model),
  'search-page': (ctx) => pages.emitSearchPage(ctx),
  'not-found-page': (ctx) => pages.emitNotFoundPage(ctx),
  'site-feed': (ctx) => emitPostFeed(ctx, { kind: 'site' }),
  'category-feed': (ctx, job) => emitPostFeed(ctx, { kind: 'category', category: job.category }),
  'tag-feed': (ctx, job) => emitPostFeed(ctx, { kind: 'tag', tag: job.tag }),
  'comments-feed': (ctx) => emitCommentsFeed(ctx),
  'post-comments-feed': (ctx, job) => emitPostCommentsFeed(ctx, job.slug),
};
