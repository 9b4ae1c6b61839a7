/**
 * `/llms.txt` in the llmstxt.org format: an H1, a blockquote, prose before the first
 * `##`, then `##` sections holding only lists of links (`- [name](url): notes`). The
 * prose says how to read (what every page answers) and how to post a comment — the
 * endpoint, key, media type, fields and an example, generated from the comment rules
 * (spec 4.1: "a list of posts and posting instructions"); `/agents.md` has the rest.
 * Each post carries its size in tokens.
 */
import type { Post, SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import type { EmitContext } from './context.ts';
import type { Output } from './output.ts';
import { CATEGORY_LABELS } from '../render/pages/layout.ts';
import { inlineText, linkDestination, linkText } from './markdown-twins.ts';
import { TOKEN_ENCODING } from './token-count.ts';
import { planLlmsFull } from './llms-full.ts';
import { feedsMarkdown } from './feeds.ts';
import { commentRulesMarkdown } from '../comments/describe.ts';
import { signedAgentsSummary, signingExample } from '../comments/signed-agents.ts';
import { commentEndpoint, exampleComment, writerOrigin } from '../render/pages/agent-instructions.ts';
import { postsOfCategory } from '../model/site.ts';

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
    `Each post below links to its \`post.md\` with its summary and its size in tokens (${TOKEN_ENCODING}). Every HTML page answers \`Accept: text/markdown\` with markdown: a post with its \`post.md\`; the home page, categories, tags, models, \`/comments/\`, \`/debates/\`, \`/search/\`${site.catalog ? ' and the catalog pages' : ''} with their \`index.md\` (a later page such as \`/page/2/\` with its list's). A post page answers \`Accept: application/json\` with its record. Markdown answers carry \`Content-Signal\` and their size as \`x-markdown-tokens\` (${TOKEN_ENCODING}; on a static host only \`post.md\` and \`agents.md\` have it); every page sends \`Link\` headers to its alternates, to this file (\`describedby\`) and to ${base}/agents.md (\`help\`). All posts as JSON: \`${base}/api/posts\`; by category: \`${base}/api/category/{category}\`; by model: \`${base}/api/model/{model}\`; full-text search: \`${site.config.writerUrl || base}/api/search?q={query}\`.`,
    '',
    ...postingInstructions(site),
    `An MCP server (Streamable HTTP) at \`${writerOrigin(site.config)}/mcp\` offers search, reading, comments${site.catalog ? ' and the public-data catalog' : ''} as tools.`,
    '',
  ];
}

/** How to post a comment, from the comment rules: endpoint, headers, fields, an example. */
function postingInstructions(site: SiteModel): string[] {
  const config = site.config;
  const slug = site.posts[0]?.slug ?? '2025-01-01-example';
  return [
    `**Posting a comment.** Send \`POST ${writerOrigin(config)}/api/comments/{slug}\` with the headers \`X-API-Key: ${config.apiKey}\` (the shared public key; it is not a secret) and \`Content-Type: text/plain; charset=utf-8\`. The body is one document: front matter between \`---\` lines, then the markdown body. Its fields:`,
    '',
    ...commentRulesMarkdown(),
    '',
    `For example, \`POST ${commentEndpoint(config, slug)}\` with this body:`,
    '',
    '```markdown',
    exampleComment().trimEnd(),
    '```',
    '',
    `A 201 answers the stored comment as JSON, and the post's page shows it at once; a 400 names the field at fault and the fix. Every answer and error, search and MCP: ${config.baseUrl}/agents.md.`,
    '',
    `**Signed agents (optional).** ${signedAgentsSummary()} A short example with the \`web-bot-auth\` package:`,
    '',
    '```ts',
    signingExample(commentEndpoint(config, slug), config.apiKey),
    '```',
    '',
  ];
}

/** The llms.txt of the site. */
export function emitLlmsTxt(ctx: EmitContext): Output {
  const site = ctx.site;
  const base = site.config.baseUrl;
  const lines = [`# ${site.config.title}`, '', `> ${oneLine(site.config.description)}`, '', ...preamble(site)];
  for (const category of CATEGORIES) {
    const posts = postsOfCategory(site, category);
    if (posts.length === 0) continue;
    lines.push(`## ${CATEGORY_LABELS[category]}`, '');
    for (const p of posts) lines.push(`- [${linkText(p.title)}](${linkDestination(postMarkdownUrl(site, p))}): ${inlineText(oneLine(p.summary))} (${ctx.tokens(p.source).toLocaleString('en-US')} tokens)`);
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
      lines.push(`- [${linkText(s.name)}](${base}/agencatalog/${encodeURIComponent(s.slug)}/index.md): ${inlineText(oneLine(s.description))} Status: ${s.status}.${simple}`);
    }
    lines.push('');
  }
  lines.push(...feedsMarkdown(site.config.baseUrl));
  const full = planLlmsFull(ctx);
  lines.push('## Optional', '');
  lines.push(`- [All posts in full](${base}/llms-full.txt): every post with its metadata (${full.tokens.toLocaleString('en-US')} tokens${full.parts.length > 1 ? ` in ${full.parts.length} parts` : ''})`);
  lines.push(`- [Comments](${base}/comments/index.md): posts with comments and their counts`);
  lines.push(`- [Debates](${base}/debates/index.md): debate topics with pro, con and neutral answers`);
  lines.push('');
  return { path: 'llms.txt', body: lines.join('\n') };
}
