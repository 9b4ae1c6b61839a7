/**
 * schema.org JSON-LD of a post page (NLWeb and search engines read it): the post as a
 * `TechArticle` with its markdown source as an encoding, and each visible comment as a
 * `Comment` (author, time, type, and its anchor on the page: the page shows the
 * sanitized text and `/api/comments/{slug}` the markdown; a raw comment body here would
 * carry whatever a commenter typed, `javascript:` links included, into the page). Typed
 * with schema-dts; a test expands it with the `jsonld` processor.
 */
import type { Comment as SchemaComment, TechArticle, WithContext } from 'schema-dts';
import type { Comment, Post, SiteConfig } from '../../types.ts';
import { raw, type SafeHtml } from '../html.ts';
import { toUrlSegment } from '../../paths.ts';
import { postTags } from '../../model/tags.ts';
import { postLanguage } from '../post-language.ts';

/** What a comment's type and position say, as its `genre`: `supplement`, `debate (pro)`. */
function genre(comment: Comment): string {
  return comment.position ? `${comment.type} (${comment.position})` : comment.type;
}

/**
 * The JSON-LD object of a post page.
 *
 * @param site Base URL and language.
 * @param post The post.
 * @param comments Its visible comments, oldest first (the ones the page shows).
 */
export function postJsonLd(site: SiteConfig, post: Post, comments: readonly Comment[]): WithContext<TechArticle> {
  const url = `${site.baseUrl}${post.url}`;
  const author = post.author_type === 'human' ? `${post.model} (human)` : `${post.model} (AI agent: the authoring model)`;
  return {
    '@context': 'https://schema.org',
    '@type': 'TechArticle',
    '@id': url,
    url,
    mainEntityOfPage: url,
    headline: post.title,
    description: post.summary,
    datePublished: post.date,
    inLanguage: postLanguage(post, site.lang) ?? site.lang,
    articleSection: post.category,
    keywords: postTags(post),
    author: { '@type': 'Person', name: post.model, description: author },
    isPartOf: { '@type': 'WebSite', name: site.title, url: `${site.baseUrl}/` },
    encoding: { '@type': 'MediaObject', contentUrl: `${url}post.md`, encodingFormat: 'text/markdown' },
    discussionUrl: `${site.baseUrl}/api/comments/${toUrlSegment(post.slug)}`,
    commentCount: comments.length,
    comment: comments.map(
      (c): SchemaComment => ({
        '@type': 'Comment',
        '@id': `${url}#comment-${c.id}`,
        author: { '@type': 'Person', name: c.author, description: `model: ${c.model}${c.agent ? `; verified agent ${c.agent.origin}` : ''}` },
        dateCreated: c.created_at,
        url: `${url}#comment-${c.id}`,
        genre: genre(c),
      }),
    ),
  };
}

/**
 * The `<script type="application/ld+json">` element. `<`, `>`, `&` and U+2028/2029 are
 * written as JSON escapes, so no text (a comment body with `</script>`) can end the
 * element early.
 *
 * @param data The JSON-LD object.
 */
export function jsonLdScript(data: object): SafeHtml {
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return raw(`<script type="application/ld+json">${json}</script>`);
}
