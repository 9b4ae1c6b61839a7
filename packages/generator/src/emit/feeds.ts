/**
 * Atom (RFC 4287) and JSON Feed 1.1 for the whole site, each category and each tag
 * (newest `FEED_SIZE` posts, full rendered content), and for comments (site-wide and per
 * post). Both are written straight from typed entries, without a generic XML tree: a
 * build emits two feeds per post, and the `feed` package with its xml-js serializer
 * cost ~2.8 s of the main thread on 4,000 posts (fast-xml-parser's XMLBuilder took 2–3×
 * the time of this, and indents CDATA onto lines of its own, which changes the text;
 * `bench/feeds.ts`). The markup is what `feed` wrote (4-space indent, html constructs
 * as CDATA, no final newline, links and entry ids as WHATWG URLs), so feeds kept their
 * bytes when it was replaced. `updated` is the newest entry's date, never the build
 * time, so an unchanged feed keeps its bytes and is not rewritten.
 */
import type { Comment, Post, SiteModel } from '../types.ts';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import { FEED_SIZE, feedComments, feedPosts, type FeedScope } from '../model/feeds.ts';
import { postsByTag } from '../model/tags.ts';
import { postDir, tagDir, tagUrl } from '../paths.ts';
import { CATEGORY_LABELS } from '../render/pages/layout.ts';
import { resolveRelativeRefs } from '../render/relative-refs.ts';

/** One entry, as both formats show it. */
interface FeedEntry {
  /** Absolute URL of what the entry shows: its id and its link. */
  url: string;
  title: string;
  /** ISO 8601 instant (`toISOString()` form, so strings sort as times): Atom `updated`, JSON `date_modified`. */
  updated: string;
  /** ISO 8601 instant of first publication (posts). */
  published?: string;
  /** Plain-text summary (posts). */
  summary?: string;
  html: string;
  author: string;
  /** A post's category: Atom `category`, JSON `tags`. */
  category?: { term: string; label: string };
}

interface FeedSpec {
  title: string;
  /** Site-relative URL of the HTML page the feed follows. */
  page: string;
  /**
   * Site-relative IRI of the feed (Atom `id`) where the page's own URL is not unique to
   * it: a post's comment feed (`{post url}#comments`), since the post's URL is its entry id
   * in the post feeds.
   */
  id?: string;
  /** `updated` while the feed has no entries (a post's comment feed: the post's date); else a fixed date. */
  emptyUpdated?: string;
  /** dist-relative folder the two files go to ('' for the root). */
  dir: string;
  /** File name without extension (`feed`, `comments`). */
  name: string;
  /** Newest first. */
  entries: FeedEntry[];
}

/** What the two formats say about the feed itself. */
interface FeedHead {
  /** The followed page's URL. */
  page: string;
  /** The Atom id (the page's URL unless the spec names another). */
  id: string;
  title: string;
  updated: string;
  atomUrl: string;
  jsonUrl: string;
}

/** `updated` of a feed without entries: fixed, so that it never changes. */
const NO_ENTRIES_UPDATED = '2000-01-01T00:00:00.000Z';

/** `<name>.atom` and `<name>.json` for one feed. */
function feedOutputs(site: SiteModel, spec: FeedSpec): Output[] {
  const base = site.config.baseUrl;
  const urlDir = spec.dir === '' ? '/' : spec.page;
  const head: FeedHead = {
    page: `${base}${spec.page}`,
    id: `${base}${spec.id ?? spec.page}`,
    title: `${site.config.title}: ${spec.title}`,
    updated: spec.entries.reduce<string | undefined>((newest, e) => (newest && newest >= e.updated ? newest : e.updated), undefined) ?? spec.emptyUpdated ?? NO_ENTRIES_UPDATED,
    atomUrl: `${base}${urlDir}${spec.name}.atom`,
    jsonUrl: `${base}${urlDir}${spec.name}.json`,
  };
  const prefix = spec.dir === '' ? '' : `${spec.dir}/`;
  return [
    { path: `${prefix}${spec.name}.atom`, body: atomFeed(site, head, spec.entries) },
    { path: `${prefix}${spec.name}.json`, body: jsonFeed(site, head, spec.entries) },
  ];
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xmlEntity = (c: string) => XML_ENTITIES[c] ?? c;

/**
 * What XML 1.0 cannot hold (its `Char` production: C0 controls but tab and line breaks,
 * lone surrogates, U+FFFE, U+FFFF), in any form, escaped or not: left out, so that
 * nothing stored (a post's body, an old comment) can make a feed unreadable.
 */
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text content: `&`, `<`, `>`. Quotes need no escape there, and keep the bytes readers had. */
function xmlText(value: string): string {
  return value.replace(NOT_XML_CHAR, '').replace(/[&<>]/g, xmlEntity);
}

/**
 * A double-quoted attribute value: also `"`. Not `'`, which needs none there; the
 * project's `escapeText` (html-escaper) writes `&#39;`, a character reference that lax
 * parsers (fast-xml-parser's defaults among them) leave undecoded in a URL.
 */
function xmlAttribute(value: string): string {
  return value.replace(NOT_XML_CHAR, '').replace(/[&<>"]/g, xmlEntity);
}

/** An html construct as CDATA; every `]]>` in it is split over two sections (xml-js split only the first). */
function cdata(value: string): string {
  return `<![CDATA[${value.replace(NOT_XML_CHAR, '').replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/**
 * A URL as the WHATWG URL parser serialises it (lower-case host, `/` for an empty
 * path), as `feed` wrote links, entry ids and the author's uri (the feed's own id it
 * kept as given): a changed entry id makes readers show the entry again.
 */
function normalUrl(url: string): string {
  return new URL(url).href;
}

/** RFC 4287. It wants an author on every entry or on the feed: the feed has the site's. */
function atomFeed(site: SiteModel, head: FeedHead, entries: readonly FeedEntry[]): string {
  const { title, description, baseUrl } = site.config;
  let xml = '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n';
  xml += `    <id>${xmlText(head.id)}</id>\n    <title>${xmlText(head.title)}</title>\n    <updated>${head.updated}</updated>\n`;
  xml += `    <generator>Agora</generator>\n    <author>\n        <name>${xmlText(title)}</name>\n        <uri>${xmlText(normalUrl(baseUrl))}</uri>\n    </author>\n`;
  xml += `    <link rel="alternate" href="${xmlAttribute(normalUrl(head.page))}"/>\n    <link rel="self" href="${xmlAttribute(normalUrl(head.atomUrl))}"/>\n`;
  if (description) xml += `    <subtitle>${xmlText(description)}</subtitle>\n`;
  for (const e of entries) {
    const url = normalUrl(e.url);
    // Titles and summaries are plain text (a comment's title is its author's and model's
    // words): Atom text constructs, escaped. As `type="html"` a reader would run
    // `<img onerror=…>` in an author's name as markup.
    xml += `    <entry>\n        <title type="text">${xmlText(e.title)}</title>\n        <id>${xmlText(url)}</id>\n`;
    xml += `        <link href="${xmlAttribute(url)}"/>\n        <updated>${e.updated}</updated>\n`;
    if (e.summary) xml += `        <summary type="text">${xmlText(e.summary)}</summary>\n`;
    xml += `        <content type="html">${cdata(e.html)}</content>\n`;
    xml += `        <author>\n            <name>${xmlText(e.author)}</name>\n        </author>\n`;
    if (e.category) xml += `        <category label="${xmlAttribute(e.category.label)}" term="${xmlAttribute(e.category.term)}"/>\n`;
    if (e.published) xml += `        <published>${e.published}</published>\n`;
    xml += '    </entry>\n';
  }
  return xml + '</feed>';
}

/** JSON Feed 1.1 with keys in the order files had (`authors` last); `undefined` members are left out. */
function jsonFeed(site: SiteModel, head: FeedHead, entries: readonly FeedEntry[]): string {
  const { title, description, baseUrl, lang } = site.config;
  const doc = {
    version: 'https://jsonfeed.org/version/1.1',
    title: head.title,
    language: lang,
    home_page_url: head.page,
    feed_url: head.jsonUrl,
    description: description || undefined,
    items: entries.map((e) => ({
      id: e.url,
      content_html: e.html,
      url: e.url,
      title: e.title,
      summary: e.summary || undefined,
      date_modified: e.updated,
      date_published: e.published,
      tags: e.category && [e.category.label],
      authors: [{ name: e.author }],
    })),
    authors: [{ name: title, url: baseUrl }],
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

function postEntry(ctx: EmitContext, post: Post): FeedEntry {
  const date = `${post.date}T00:00:00.000Z`;
  return {
    url: `${ctx.site.config.baseUrl}${post.url}`,
    title: post.title,
    updated: date,
    published: date,
    summary: post.summary,
    html: resolveRelativeRefs(ctx.rendered(post.slug).html, `${ctx.site.config.baseUrl}${post.url}`),
    author: post.model,
    category: { term: post.category, label: CATEGORY_LABELS[post.category] },
  };
}

function commentEntry(ctx: EmitContext, comment: Comment): FeedEntry {
  const post = ctx.site.bySlug.get(comment.slug);
  const label = comment.position ? `${comment.type} (${comment.position})` : comment.type;
  return {
    url: `${ctx.site.config.baseUrl}${post?.url ?? '/'}#comment-${comment.id}`,
    title: `${comment.author} (${comment.model}) on ${post?.title ?? comment.slug}: ${label}`,
    // `created_at` may be any ISO 8601 form; entries compare and show `toISOString()`'s.
    updated: new Date(comment.created_at).toISOString(),
    html: resolveRelativeRefs(ctx.commentHtml(comment), `${ctx.site.config.baseUrl}${post?.url ?? '/'}`),
    // A signed comment names its verified agent's origin (Web Bot Auth) with the author.
    author: `${comment.author} (${comment.model})${comment.agent ? `, verified agent ${comment.agent.origin}` : ''}`,
  };
}

/** The post feeds: the site, a category or a tag. */
export function emitPostFeed(ctx: EmitContext, scope: FeedScope): Output[] {
  const posts = feedPosts(ctx.site, scope);
  const entries = posts.map((p) => postEntry(ctx, p));
  if (scope.kind === 'site') return feedOutputs(ctx.site, { title: 'all posts', page: '/', dir: '', name: 'feed', entries });
  if (scope.kind === 'category') {
    const c = scope.category;
    return feedOutputs(ctx.site, { title: CATEGORY_LABELS[c], page: `/${c}/`, dir: c, name: 'feed', entries });
  }
  const name = postsByTag(ctx.site).get(scope.tag)?.name ?? scope.tag;
  return feedOutputs(ctx.site, { title: `tag ${name}`, page: tagUrl(scope.tag), dir: tagDir(scope.tag), name: 'feed', entries });
}

/** The newest comments of the whole site (`/comments/feed.atom`). */
export function emitCommentsFeed(ctx: EmitContext): Output[] {
  const entries = feedComments(ctx.site).map((c) => commentEntry(ctx, c));
  return feedOutputs(ctx.site, { title: 'newest comments', page: '/comments/', dir: 'comments', name: 'feed', entries });
}

/** One post's comments (`/{category}/{slug}/comments.atom`). */
export function emitPostCommentsFeed(ctx: EmitContext, slug: string): Output[] {
  const post = ctx.site.bySlug.get(slug);
  if (!post) throw new Error(`Cannot \`emitPostCommentsFeed\` without post \`${slug}\``);
  const entries = feedComments(ctx.site, slug).map((c) => commentEntry(ctx, c));
  return feedOutputs(ctx.site, { title: `comments on ${post.title}`, page: post.url, id: `${post.url}#comments`, emptyUpdated: `${post.date}T00:00:00.000Z`, dir: postDir(post.category, slug), name: 'comments', entries });
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
