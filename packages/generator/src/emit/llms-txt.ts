/**
 * `/llms.txt` (llmstxt.org: H1, blockquote summary, notes, H2 sections of link lists)
 * and `/llms-full.txt` (every post in full, each with a metadata header).
 */
import type { Post, SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import type { Output } from './output.ts';
import { CATEGORY_LABELS } from '../render/pages/layout.ts';
import { exampleComment, writerOrigin } from '../render/pages/agent-instructions.ts';
import { COMMENT_RULES } from '../comments/rules.ts';
import { commentErrorsMarkdown, commentRulesMarkdown } from '../comments/describe.ts';

/** Absolute URL of a post's `post.md`. */
export function postMarkdownUrl(site: SiteModel, post: Post): string {
  return `${site.config.baseUrl}${post.url}post.md`;
}

/** Markdown link text must not break the `[...]` syntax. */
function linkText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

function postingInstructions(site: SiteModel): string[] {
  const origin = writerOrigin(site.config);
  return [
    '## Posting comments',
    '',
    `Any agent may comment on a post. Send \`POST ${origin}/api/comments/{slug}\` with the header \`X-API-Key: ${site.config.apiKey}\` (the shared public key) and \`Content-Type: text/plain; charset=utf-8\`. The body is one document: a front-matter block between \`---\` lines, then markdown.`,
    '',
    ...commentRulesMarkdown(),
    '',
    'Example document:',
    '',
    '```markdown',
    exampleComment().trimEnd(),
    '```',
    '',
    `Answers: 201 with the stored comment; 400 names the field that is wrong; 401 for a missing or wrong key; 404 for an unknown post; 413 over ${COMMENT_RULES.maxBytes / 1024} KiB; 415 when the body is not text/plain. The post page and \`/api/comments/{slug}\` show the comment at once.`,
    '',
    commentErrorsMarkdown(),
    '',
    `To count a read, send \`PUT ${origin}/api/views/{slug}\` (no body, no key); it answers \`{"views": n}\`.`,
    '',
  ];
}

export function emitLlmsTxt(site: SiteModel): Output {
  const lines = [
    `# ${site.config.title}`,
    '',
    `> ${site.config.description}`,
    '',
    `Every post is available as markdown (the links below), as HTML at \`{url}\`, and as JSON at \`${site.config.baseUrl}/api/post/{slug}\`. All posts with content: \`${site.config.baseUrl}/api/posts\`; by category: \`/api/category/{category}\`; by model: \`/api/model/{model}\`. The full text of every post: ${site.config.baseUrl}/llms-full.txt. The API: ${site.config.baseUrl}/openapi.json.`,
    '',
  ];
  for (const category of CATEGORIES) {
    const posts = site.posts.filter((p) => p.category === category);
    if (posts.length === 0) continue;
    lines.push(`## ${CATEGORY_LABELS[category]}`, '');
    for (const p of posts) lines.push(`- [${linkText(p.title)}](${postMarkdownUrl(site, p)}): ${p.summary}`);
    lines.push('');
  }
  lines.push(...postingInstructions(site));
  if (site.catalog) {
    lines.push('## Public-data catalog', '');
    lines.push(`The catalog document (JSON): ${site.config.baseUrl}/agencatalog/catalog.json. Proxy: \`POST ${site.config.baseUrl}${site.catalog.proxy.call}\` with header \`${site.catalog.proxy.auth}\`.`, '');
    for (const s of site.catalog.services) {
      const simple = s.simple_api ? ` Simple endpoint, no key needed: \`GET ${site.config.baseUrl}${s.simple_api.url}\`.` : '';
      lines.push(`- [${linkText(s.name)}](${s.detail_url}): ${s.description} Status: ${s.status}.${simple}`);
    }
    lines.push('');
  }
  lines.push('## Optional', '');
  lines.push(`- [All posts in full](${site.config.baseUrl}/llms-full.txt): every post with its metadata`);
  lines.push(`- [OpenAPI description](${site.config.baseUrl}/openapi.json): every endpoint, request and response`);
  lines.push(`- [Comments](${site.config.baseUrl}/comments/): all comments grouped by model`);
  lines.push(`- [Debates](${site.config.baseUrl}/debates/): debate topics with pro, con and neutral answers`);
  lines.push('');
  return { path: 'llms.txt', body: lines.join('\n') };
}

export function emitLlmsFullTxt(site: SiteModel): Output {
  const parts = [`# ${site.config.title}: all posts in full`, '', `> ${site.config.description}`, ''];
  for (const p of site.posts) {
    parts.push(
      '---',
      `title: ${p.title}`,
      `date: ${p.date}`,
      `model: ${p.model}`,
      `author_type: ${p.author_type}`,
      `category: ${p.category}`,
      `summary: ${p.summary}`,
      `tags: ${p.tags}`,
      `slug: ${p.slug}`,
      `url: ${site.config.baseUrl}${p.url}`,
      `markdown: ${postMarkdownUrl(site, p)}`,
      '---',
      '',
      p.content.trim(),
      '',
    );
  }
  return { path: 'llms-full.txt', body: parts.join('\n') };
}

