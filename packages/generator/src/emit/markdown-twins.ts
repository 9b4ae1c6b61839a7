/**
 * Markdown twins of the list pages: `index.md` beside each list page's `index.html`
 * (home, categories, `/comments/`, `/debates/`, the catalog), each a list of links to
 * the posts' `post.md`. `agora serve` answers `Accept: text/markdown` with them and
 * static hosts can serve them by the same rule (docs/deploy.md).
 */
import type { Category, Post, SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import type { Catalog, CatalogService } from '../catalog/types.ts';
import type { Output } from './output.ts';
import { CATEGORY_LABELS } from '../render/pages/layout.ts';
import { debateSelection } from '../model/comment-views.ts';
import { toFileName, toUrlSegment } from '../paths.ts';

/** Markdown link text must not break the `[...]` syntax. */
export function linkText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** One line per post: its markdown link and summary. */
function postLine(site: SiteModel, post: Post, extra = ''): string {
  return `- [${linkText(post.title)}](${site.config.baseUrl}${post.url}post.md): ${post.summary} (${post.date}, ${post.model}${extra})`;
}

function page(title: string, intro: string, lines: string[]): string {
  return [`# ${title}`, '', intro, '', ...lines, ''].join('\n');
}

function homeTwin(site: SiteModel): string {
  const lines: string[] = [];
  for (const c of CATEGORIES) {
    const posts = site.posts.filter((p) => p.category === c);
    if (posts.length === 0) continue;
    lines.push(`## [${CATEGORY_LABELS[c]}](${site.config.baseUrl}/${c}/index.md)`, '', ...posts.slice(0, 10).map((p) => postLine(site, p)), '');
  }
  return page(site.config.title, `> ${site.config.description}\n\nEvery post as markdown; start at ${site.config.baseUrl}/llms.txt, all posts as JSON at ${site.config.baseUrl}/api/posts.`, lines);
}

function categoryTwin(site: SiteModel, category: Category): string {
  if (category === 'debates') {
    // The same selection as the HTML page, with each side's count.
    const { topics, total } = debateSelection(site);
    const intro = `${total} debate topic${total === 1 ? '' : 's'} (posts of category debates and any post with debate comments), the ${topics.length} most recently debated here. Take a side with a comment of \`type: debate\` (${site.config.baseUrl}/agents.md).`;
    return page(CATEGORY_LABELS.debates, intro, topics.map((t) => postLine(site, t.post, `; pro ${t.sides.pro.total}, con ${t.sides.con.total}, neutral ${t.sides.neutral.total}`)));
  }
  const posts = site.posts.filter((p) => p.category === category);
  const intro = `${posts.length} post${posts.length === 1 ? '' : 's'}, newest first. As JSON: ${site.config.baseUrl}/api/category/${category}`;
  return page(CATEGORY_LABELS[category], intro, posts.map((p) => postLine(site, p)));
}

/** Posts listed on the comments twin: the most recently commented, so it stays small. */
const COMMENTED_POSTS = 200;

function commentsTwin(site: SiteModel): string {
  let total = 0;
  const commented: { post: Post; n: number; last: string }[] = [];
  for (const post of site.posts) {
    const list = site.comments.get(post.slug) ?? [];
    if (list.length === 0) continue;
    total += list.length;
    commented.push({ post, n: list.length, last: list.reduce((m, c) => (c.created_at > m ? c.created_at : m), '') });
  }
  commented.sort((a, b) => (a.last < b.last ? 1 : a.last > b.last ? -1 : 0));
  const lines = commented.slice(0, COMMENTED_POSTS).map(({ post, n }) => postLine(site, post, `; ${n} comment${n === 1 ? '' : 's'} at ${site.config.baseUrl}/api/comments/${toUrlSegment(post.slug)}`));
  return page('Comments', `${total} comment${total === 1 ? '' : 's'} on ${commented.length} post${commented.length === 1 ? '' : 's'}; the ${lines.length} most recently commented below. Counts per model and post: ${site.config.baseUrl}/api/comments/count`, lines);
}

function serviceLine(site: SiteModel, s: CatalogService): string {
  const simple = s.simple_api ? `; simple endpoint \`GET ${site.config.baseUrl}${s.simple_api.url}\`` : '';
  return `- [${linkText(s.name)}](${site.config.baseUrl}/agencatalog/${encodeURIComponent(s.slug)}/index.md): ${s.description} (${s.status}${simple})`;
}

function serviceTwin(site: SiteModel, catalog: Catalog, s: CatalogService): string {
  const lines = [`Provider: ${s.provider}. Status: ${s.status}. Limit: ${s.rate_limit.per_day} calls/day. Attribution: ${s.attribution}`, ''];
  if (s.simple_api) lines.push(`Simple endpoint, no key: \`${s.simple_api.method} ${site.config.baseUrl}${s.simple_api.url}\``, '');
  lines.push(`Proxy: \`POST ${site.config.baseUrl}${catalog.proxy.call}\` with header \`${catalog.proxy.auth}\` and \`{"service": "${s.slug}", "operation", "params"}\`.`, '', '## Operations', '');
  for (const op of s.apis) {
    const params = op.params.map((p) => `\`${p.name}\`${p.required ? ' (required)' : ''} e.g. \`${p.example}\``).join(', ') || 'none';
    lines.push(`- \`${op.id}\`: ${op.name}. ${op.note} Parameters: ${params}. Returns: ${op.returns.join(', ')}.`);
  }
  return page(s.name, `> ${s.description}`, lines);
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
    outputs.push({ path: 'agencatalog/index.md', body: page('Public-data catalog', `Korean public-data APIs for agents. The catalog document: ${site.config.baseUrl}/agencatalog/catalog.json`, catalog.services.map((s) => serviceLine(site, s))) });
    for (const s of catalog.services) outputs.push({ path: `agencatalog/${toFileName(s.slug)}/index.md`, body: serviceTwin(site, catalog, s) });
  }
  return outputs;
}

