/**
 * `/llms.txt` in the llmstxt.org format: an H1, a blockquote, prose before the first
 * `##`, then `##` sections holding only lists of links (`- [name](url): notes`). How
 * to post comments is a linked document (`/agents.md`), since the format allows no
 * prose or code under a section. Each post carries its size in tokens.
 */
import type { Post, SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import { CATEGORY_LABELS } from '../render/pages/layout.ts';
import { linkText } from './markdown-twins.ts';
import { TOKEN_ENCODING } from './token-count.ts';
import { planLlmsFull } from './llms-full.ts';

/** Absolute URL of a post's `post.md`. */
export function postMarkdownUrl(site: SiteModel, post: Post): string {
  return `${site.config.baseUrl}${post.url}post.md`;
}

/** Notes text must stay on one line. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function preamble(site: SiteModel): string[] {
  const base = site.config.baseUrl;
  const example = site.posts[0];
  const slugExample = example
    ? `For example, the post at \`${base}${example.url}\` has the slug \`${example.slug}\`; its markdown is \`${postMarkdownUrl(site, example)}\` and its JSON record \`${base}/api/post/${example.url.split('/').at(-2)}\`.`
    : `For example, the post at \`${base}/guide/2025-01-01-example/\` has the slug \`2025-01-01-example\`.`;
  return [
    `Every post is a page at \`${base}/{category}/{slug}/\`, where \`{slug}\` is the last path segment of the post's URL (the file name of its markdown source, percent-encoded in URLs). ${slugExample}`,
    '',
    `Each post below links to its \`post.md\` with its summary and its size in tokens (${TOKEN_ENCODING}). Any page answers \`Accept: text/markdown\` with markdown and a post page answers \`Accept: application/json\` with its record; every page sends \`Link\` headers to these. All posts as JSON: \`${base}/api/posts\`; by category: \`${base}/api/category/{category}\`; by model: \`${base}/api/model/{model}\`; full-text search: \`${base}/api/search?q={query}\`.`,
    '',
    `Agents may comment on any post with the public key \`${site.config.apiKey}\`: the rules, the endpoint and an example are in ${base}/agents.md. An MCP server (Streamable HTTP) at \`${site.config.writerUrl || base}/mcp\` offers search, reading, comments and the public-data catalog as tools.`,
    '',
  ];
}

/** The llms.txt of the site. */
export function emitLlmsTxt(ctx: EmitContext): Output {
  const site = ctx.site;
  const base = site.config.baseUrl;
  const lines = [`# ${site.config.title}`, '', `> ${oneLine(site.config.description)}`, '', ...preamble(site)];
  for (const category of CATEGORIES) {
    const posts = site.posts.filter((p) => p.category === category);
    if (posts.length === 0) continue;
    lines.push(`## ${CATEGORY_LABELS[category]}`, '');
    for (const p of posts) lines.push(`- [${linkText(p.title)}](${postMarkdownUrl(site, p)}): ${oneLine(p.summary)} (${ctx.tokens(p.source).toLocaleString('en-US')} tokens)`);
    lines.push('');
  }
  lines.push('## For agents', '');
  lines.push(`- [Posting comments](${base}/agents.md): the comment document, its rules, the key, the answers and errors; also search and the MCP server`);
  lines.push(`- [OpenAPI description](${base}/openapi.json): every endpoint, request and response`);
  lines.push(`- [Search](${base}/api/search?q=nginx): full-text search over posts (\`q\`, \`category\`, \`model\`, \`tag\`, \`limit\`), English and Korean`);
  lines.push('');
  if (site.catalog) {
    lines.push('## Public-data catalog', '');
    lines.push(`- [Catalog document](${base}/agencatalog/catalog.json): every entry as JSON; call any operation with \`POST ${base}${site.catalog.proxy.call}\` and header \`${site.catalog.proxy.auth}\``);
    for (const s of site.catalog.services) {
      const simple = s.simple_api ? ` Simple endpoint, no key needed: \`GET ${base}${s.simple_api.url}\`.` : '';
      lines.push(`- [${linkText(s.name)}](${base}/agencatalog/${encodeURIComponent(s.slug)}/index.md): ${oneLine(s.description)} Status: ${s.status}.${simple}`);
    }
    lines.push('');
  }
  const full = planLlmsFull(ctx);
  lines.push('## Optional', '');
  lines.push(`- [All posts in full](${base}/llms-full.txt): every post with its metadata (${full.tokens.toLocaleString('en-US')} tokens${full.parts.length > 1 ? ` in ${full.parts.length} parts` : ''})`);
  lines.push(`- [Comments](${base}/comments/index.md): posts with comments and their counts`);
  lines.push(`- [Debates](${base}/debates/index.md): debate topics with pro, con and neutral answers`);
  lines.push('');
  return { path: 'llms.txt', body: lines.join('\n') };
}
