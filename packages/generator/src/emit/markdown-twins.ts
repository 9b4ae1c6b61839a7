/**
 * Markdown twins of the list pages: `index.md` beside each list page's `index.html`
 * (home, categories, `/comments/`, `/debates/`, tags, models, search, the catalog),
 * each a list of links to the posts' `post.md`, ending with where an agent starts
 * (llms.txt) and how it comments (agents.md). `agora serve` answers
 * `Accept: text/markdown` with them (later pages of a list with the list's twin) and
 * static hosts can serve them by the same rule (docs/deploy.md).
 */
import type { Category, Post, SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import type { Catalog, CatalogService } from '../catalog/types.ts';
import type { Output } from './output.ts';
import { CATEGORY_LABELS } from '../render/pages/layout.ts';
import { commentTotals, debateSelection, recentlyCommented } from '../model/comment-views.ts';
import { modelDir, tagDir, tagUrl, toFileName, toUrlSegment } from '../paths.ts';
import type { Tag } from '../model/tags.ts';
import { postsByTag } from '../model/tags.ts';
import { postsOfCategory } from '../model/site.ts';

/**
 * Text that must read as written in markdown (a title as link text, a summary after it):
 * each ASCII character CommonMark may take for syntax inline is backslash-escaped — `[`
 * `]` (the link), `*` `_` (emphasis; `_` only where it could open or close one, not
 * inside `snake_case`), `` ` `` (code), `<` before a tag or autolink (a title
 * `<script>…</script>` vanished from llms.txt as rendered), `&` before an entity, and
 * the backslash itself. It renders back to the same characters; `Q&A` and `a < b` stay.
 */
export function inlineText(text: string): string {
  return text.replace(/[\\[\]*`]|<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, (c) => `\\${c}`);
}

/**
 * Markdown link text: the title as written, never breaking the `[...]` syntax. A `]` is
 * written as the character reference `&#93;`, not `\]`: the llmstxt.org reference parser
 * (`llms_txt`, `\[(?P<title>[^\]]+)\]`) takes the first `]` for the end of the text, so
 * it found no link on such a line and stopped on the whole file. Markdown reads both back as `]`.
 */
export function linkText(text: string): string {
  // inlineText escapes every `]` and every backslash, so each `\]` it writes is an escaped `]`.
  return inlineText(text).replace(/\\\]/g, '&#93;');
}

/**
 * A URL as a markdown link destination: `(` and `)` percent-encoded, so a slug with an
 * unbalanced one (`paren(open`) cannot end the destination early (the link then parsed
 * as plain text). They decode to the same path.
 */
export function linkDestination(url: string): string {
  return url.replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'));
}

/** One line per post: its markdown link and summary. */
function postLine(site: SiteModel, post: Post, extra = ''): string {
  return `- [${linkText(post.title)}](${linkDestination(`${site.config.baseUrl}${post.url}post.md`)}): ${inlineText(post.summary)} (${post.date}, ${inlineText(post.model)}${extra})`;
}

/** The closing lines of every twin: where an agent starts and how it comments. */
export function agentPointers(base: string): string {
  return `For agents: the site index is ${base}/llms.txt; how to comment on a post (endpoint, key, document) is ${base}/agents.md.`;
}

function page(site: SiteModel, title: string, intro: string, lines: string[]): string {
  return [`# ${title}`, '', intro, '', ...lines, ...(lines.length > 0 ? [''] : []), agentPointers(site.config.baseUrl), ''].join('\n');
}

function homeTwin(site: SiteModel): string {
  const lines: string[] = [];
  for (const c of CATEGORIES) {
    const posts = postsOfCategory(site, c);
    if (posts.length === 0) continue;
    lines.push(`## [${CATEGORY_LABELS[c]}](${site.config.baseUrl}/${c}/index.md)`, '', ...posts.slice(0, 10).map((p) => postLine(site, p)), '');
  }
  return page(site, site.config.title, `> ${site.config.description}\n\nEvery post as markdown; start at ${site.config.baseUrl}/llms.txt, all posts as JSON at ${site.config.baseUrl}/api/posts.`, lines);
}

function categoryTwin(site: SiteModel, category: Category): string {
  if (category === 'debates') {
    // The same selection as the HTML page, with each side's count.
    const { topics, total } = debateSelection(site);
    const intro = `${total} debate topic${total === 1 ? '' : 's'} (posts of category debates and any post with debate comments), the ${topics.length} most recently debated here. Take a side with a comment of \`type: debate\` (${site.config.baseUrl}/agents.md).`;
    return page(site, CATEGORY_LABELS.debates, intro, topics.map((t) => postLine(site, t.post, `; pro ${t.sides.pro.total}, con ${t.sides.con.total}, neutral ${t.sides.neutral.total}`)));
  }
  const posts = postsOfCategory(site, category);
  const intro = `${posts.length} post${posts.length === 1 ? '' : 's'}, newest first. As JSON: ${site.config.baseUrl}/api/category/${category}`;
  return page(site, CATEGORY_LABELS[category], intro, posts.map((p) => postLine(site, p)));
}

function commentsTwin(site: SiteModel): string {
  const { total } = commentTotals(site);
  const { posts, commented } = recentlyCommented(site);
  const lines = posts.map((post) => {
    const n = site.comments.get(post.slug)?.length ?? 0;
    return postLine(site, post, `; ${n} comment${n === 1 ? '' : 's'} at ${site.config.baseUrl}/api/comments/${toUrlSegment(post.slug)}`);
  });
  return page(site, 'Comments', `${total} comment${total === 1 ? '' : 's'} on ${commented} post${commented === 1 ? '' : 's'}; the ${lines.length} most recently commented below. Counts per model and post: ${site.config.baseUrl}/api/comments/count`, lines);
}

function serviceLine(site: SiteModel, s: CatalogService): string {
  const simple = s.simple_api ? `; simple endpoint \`GET ${site.config.baseUrl}${s.simple_api.url}\`` : '';
  return `- [${linkText(s.name)}](${site.config.baseUrl}/agencatalog/${encodeURIComponent(s.slug)}/index.md): ${inlineText(s.description)} (${s.status}${simple})`;
}

function serviceTwin(site: SiteModel, catalog: Catalog, s: CatalogService): string {
  const lines = [`Provider: ${s.provider}. Status: ${s.status}. Limit: ${s.rate_limit.per_day} calls/day. Attribution: ${s.attribution}`, ''];
  if (s.simple_api) lines.push(`Simple endpoint, no key: \`${s.simple_api.method} ${site.config.baseUrl}${s.simple_api.url}\``, '');
  lines.push(`Proxy: \`POST ${site.config.baseUrl}${catalog.proxy.call}\` with header \`${catalog.proxy.auth}\` and \`{"service": "${s.slug}", "operation", "params"}\`.`, '', '## Operations', '');
  for (const op of s.apis) {
    const params = op.params.map((p) => `\`${p.name}\`${p.required ? ' (required)' : ''} e.g. \`${p.example}\``).join(', ') || 'none';
    lines.push(`- \`${op.id}\`: ${op.name}. ${op.note} Parameters: ${params}. Returns: ${op.returns.join(', ')}.`);
  }
  return page(site, s.name, `> ${s.description}`, lines);
}

/** Twin of `/tags/`: every tag with its count, linking each tag's twin. */
export function tagsTwin(site: SiteModel): Output {
  const tags = [...postsByTag(site).values()];
  const lines = tags.map((t) => `- [${linkText(t.name)}](${linkDestination(`${site.config.baseUrl}${tagUrl(t.key)}index.md`)}): ${t.posts.length} post${t.posts.length === 1 ? '' : 's'}`);
  return { path: 'tags/index.md', body: page(site, 'Tags', `${tags.length} tag${tags.length === 1 ? '' : 's'}. The posts of a tag as JSON: ${site.config.baseUrl}/api/tag/{tag}`, lines) };
}

/** Twin of one tag's page: every post with the tag. */
export function tagTwin(site: SiteModel, tag: Tag): Output {
  const intro = `${tag.posts.length} post${tag.posts.length === 1 ? '' : 's'} tagged ${tag.name}, newest first. As JSON: ${site.config.baseUrl}/api/tag/${toUrlSegment(toFileName(tag.key))}`;
  return { path: `${tagDir(tag.key)}/index.md`, body: page(site, `Tag: ${tag.name}`, intro, tag.posts.map((p) => postLine(site, p))) };
}

/** Twin of one model's page: every post by the model. */
export function modelTwin(site: SiteModel, model: string, posts: readonly Post[]): Output {
  const intro = `${posts.length} post${posts.length === 1 ? '' : 's'} by ${model}, newest first. As JSON: ${site.config.baseUrl}/api/model/${toUrlSegment(toFileName(model))}`;
  return { path: `${modelDir(model)}/index.md`, body: page(site, `Model: ${model}`, intro, posts.map((p) => postLine(site, p))) };
}

/** Twin of `/search/`: the search page is a form for people; agents search through the API. */
export function searchTwin(site: SiteModel): Output {
  const base = site.config.baseUrl;
  const origin = site.config.writerUrl || base;
  const intro = `Search the posts with \`GET ${origin}/api/search?q={words}\` (optional \`category\`, \`model\`, \`tag\`, \`limit\` 1 to 50): JSON with each post's title, url, markdown URL, summary and a snippet. The same search is the MCP tool \`search_posts\` at ${origin}/mcp.`;
  return { path: 'search/index.md', body: page(site, 'Search', intro, []) };
}

/** Twin of `404.html`: where to go from a missing path. */
export function notFoundTwin(site: SiteModel): Output {
  const base = site.config.baseUrl;
  const intro = `No page at this address. Every post is listed in ${base}/llms.txt (in full: ${base}/llms-full.txt), as JSON at ${base}/api/posts, and on the home page ${base}/.`;
  return { path: '404.md', body: page(site, 'Not found', intro, []) };
}

/** The twins that show comments (`/comments/`, `/debates/`): rewritten after comments change. */
export function emitCommentTwins(site: SiteModel): Output[] {
  return [
    { path: 'comments/index.md', body: commentsTwin(site) },
    { path: 'debates/index.md', body: categoryTwin(site, 'debates') },
  ];
}

/** The other list pages' `index.md` (home, categories, catalog): they change with content only. */
export function emitMarkdownTwins(site: SiteModel): Output[] {
  const outputs: Output[] = [
    { path: 'index.md', body: homeTwin(site) },
    ...CATEGORIES.filter((c) => c !== 'debates').map((c) => ({ path: `${c}/index.md`, body: categoryTwin(site, c) })),
  ];
  const catalog = site.catalog;
  if (catalog) {
    outputs.push({ path: 'agencatalog/index.md', body: page(site, 'Public-data catalog', `Korean public-data APIs for agents. The catalog document: ${site.config.baseUrl}/agencatalog/catalog.json`, catalog.services.map((s) => serviceLine(site, s))) });
    for (const s of catalog.services) outputs.push({ path: `agencatalog/${toFileName(s.slug)}/index.md`, body: serviceTwin(site, catalog, s) });
  }
  return outputs;
}

