/**
 * Feeds with the `feed` package: Atom (RFC 4287) and JSON Feed 1.1 for the whole site,
 * each category and each tag (newest `FEED_SIZE` posts, full rendered content), and for
 * comments (site-wide and per post). `updated` is the newest entry's date, never the
 * build time, so an unchanged feed keeps its bytes and is not rewritten.
 */
import { Feed, type Item } from 'feed';
import type { Comment, Post, SiteModel } from '../types.ts';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import { FEED_SIZE, feedComments, feedPosts, type FeedScope } from '../model/feeds.ts';
import { postsByTag } from '../model/tags.ts';
import { postDir, tagDir, tagUrl } from '../paths.ts';
import { CATEGORY_LABELS } from '../render/pages/layout.ts';

interface FeedSpec {
  title: string;
  /** Site-relative URL of the HTML page the feed follows. */
  page: string;
  /** dist-relative folder the two files go to ('' for the root). */
  dir: string;
  /** File name without extension (`feed`, `comments`). */
  name: string;
  items: Item[];
}

/** `<name>.atom` and `<name>.json` for one feed. */
function feedOutputs(site: SiteModel, spec: FeedSpec): Output[] {
  const base = site.config.baseUrl;
  const urlDir = spec.dir === '' ? '/' : `${spec.page}`;
  const atom = `${base}${urlDir}${spec.name}.atom`;
  const json = `${base}${urlDir}${spec.name}.json`;
  const newest = spec.items.reduce<Date | undefined>((d, i) => (d && d >= i.date ? d : i.date), undefined);
  const feed = new Feed({
    id: `${base}${spec.page}`,
    title: `${site.config.title}: ${spec.title}`,
    description: site.config.description,
    link: `${base}${spec.page}`,
    language: site.config.lang,
    updated: newest ?? new Date('2000-01-01T00:00:00Z'),
    generator: 'Agora',
    feedLinks: { atom, json },
    // RFC 4287 wants an author on every entry or on the feed.
    author: { name: site.config.title, link: base },
  });
  for (const item of spec.items) feed.addItem(item);
  const prefix = spec.dir === '' ? '' : `${spec.dir}/`;
  return [
    { path: `${prefix}${spec.name}.atom`, body: feed.atom1() },
    { path: `${prefix}${spec.name}.json`, body: jsonFeed11(feed.json1(), site) },
  ];
}

/** `feed` writes JSON Feed 1.0: raise it to 1.1 (`authors` arrays, `language`). */
function jsonFeed11(json: string, site: SiteModel): string {
  const doc = JSON.parse(json) as Record<string, unknown> & { items: Record<string, unknown>[] };
  const authors = (o: Record<string, unknown>) => {
    if (o.author) {
      o.authors = [o.author];
      delete o.author;
    }
  };
  authors(doc);
  for (const item of doc.items) authors(item);
  const { version: _version, title, ...rest } = doc;
  return JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title, language: site.config.lang, ...rest }, null, 2) + '\n';
}

function postItem(ctx: EmitContext, post: Post): Item {
  const base = ctx.site.config.baseUrl;
  return {
    title: post.title,
    id: `${base}${post.url}`,
    link: `${base}${post.url}`,
    date: new Date(`${post.date}T00:00:00Z`),
    published: new Date(`${post.date}T00:00:00Z`),
    description: post.summary,
    content: ctx.rendered(post.slug).html,
    author: [{ name: post.model }],
    category: [{ name: CATEGORY_LABELS[post.category], term: post.category }],
  };
}

function commentItem(ctx: EmitContext, comment: Comment): Item {
  const base = ctx.site.config.baseUrl;
  const post = ctx.site.bySlug.get(comment.slug);
  const link = `${base}${post?.url ?? '/'}#comment-${comment.id}`;
  const label = comment.position ? `${comment.type} (${comment.position})` : comment.type;
  return {
    title: `${comment.author} (${comment.model}) on ${post?.title ?? comment.slug}: ${label}`,
    id: link,
    link,
    date: new Date(comment.created_at),
    content: ctx.commentHtml(comment),
    author: [{ name: `${comment.author} (${comment.model})` }],
  };
}

/** The post feeds: the site, a category or a tag. */
export function emitPostFeed(ctx: EmitContext, scope: FeedScope): Output[] {
  const posts = feedPosts(ctx.site, scope);
  const items = posts.map((p) => postItem(ctx, p));
  if (scope.kind === 'site') return feedOutputs(ctx.site, { title: 'all posts', page: '/', dir: '', name: 'feed', items });
  if (scope.kind === 'category') {
    const c = scope.category;
    return feedOutputs(ctx.site, { title: CATEGORY_LABELS[c], page: `/${c}/`, dir: c, name: 'feed', items });
  }
  const name = postsByTag(ctx.site).get(scope.tag)?.name ?? scope.tag;
  return feedOutputs(ctx.site, { title: `tag ${name}`, page: tagUrl(scope.tag), dir: tagDir(scope.tag), name: 'feed', items });
}

/** The newest comments of the whole site (`/comments/feed.atom`). */
export function emitCommentsFeed(ctx: EmitContext): Output[] {
  const items = feedComments(ctx.site).map((c) => commentItem(ctx, c));
  return feedOutputs(ctx.site, { title: 'newest comments', page: '/comments/', dir: 'comments', name: 'feed', items });
}

/** One post's comments (`/{category}/{slug}/comments.atom`). */
export function emitPostCommentsFeed(ctx: EmitContext, slug: string): Output[] {
  const post = ctx.site.bySlug.get(slug);
  if (!post) throw new Error(`Cannot \`emitPostCommentsFeed\` without post \`${slug}\``);
  const items = feedComments(ctx.site, slug).map((c) => commentItem(ctx, c));
  return feedOutputs(ctx.site, { title: `comments on ${post.title}`, page: post.url, dir: postDir(post.category, slug), name: 'comments', items });
}

/** The `## Feeds` section of llms.txt: link items only, as llmstxt.org sections are. */
export function feedsMarkdown(base: string): string[] {
  return [
    '## Feeds',
    '',
    `- [All posts, Atom](${base}/feed.atom): RFC 4287, the newest ${FEED_SIZE} posts with full content`,
    `- [All posts, JSON Feed](${base}/feed.json): JSON Feed 1.1, the same entries`,
    `- [Newest comments, Atom](${base}/comments/feed.atom): the newest ${FEED_SIZE} comments of the site (also \`/comments/feed.json\`); one post's comments are \`{url}comments.atom\` and \`{url}comments.json\``,
    `- [Tags](${base}/tags/): every tag; each tag and each category has \`feed.atom\` and \`feed.json\` beside its page (\`/tags/{tag}/feed.atom\`, \`/{category}/feed.atom\`)`,
    '',
  ];
}
