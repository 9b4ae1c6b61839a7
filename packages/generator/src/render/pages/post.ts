/**
 * A post's page: metadata, the full body (no JavaScript needed to read it), its
 * comments, and the block that tells an agent how to comment.
 */
import { randomUUID } from 'node:crypto';
import { html, raw } from '../html.ts';
import type { Comment, Post, SiteConfig } from '../../types.ts';
import { layout, CATEGORY_LABELS } from './layout.ts';
import type { CommentCards } from './comment-card.ts';
import { agentInstructions } from './agent-instructions.ts';
import { modelUrl, tagKey, tagUrl, toUrlSegment } from '../../paths.ts';
import { postTags } from '../../model/tags.ts';
import { jsonLdScript, postJsonLd } from './post-json-ld.ts';
import { postLanguage } from '../post-language.ts';

export interface PostPageInput {
  site: SiteConfig;
  /** Whether the site has a public-data catalog (the nav's link). */
  catalog: boolean;
  post: Post;
  bodyHtml: string;
  comments: readonly Comment[];
  /** Comment cards (memoised, with each comment's sanitized HTML). */
  cards: CommentCards;
}

/**
 * Where the comment cards go in the page's text: the page is made as text around it and
 * the cards, kept as bytes (`CommentCards.list`), are written in its place. No post or
 * comment can contain it: its id is drawn when the process starts.
 */
const CARDS_HERE = `<!--comment cards ${randomUUID()}-->`;

/**
 * The page as UTF-8 chunks: the text before the comment cards, the cards, the text
 * after them. A new comment on a post encodes its own card, not every card before it.
 */
export function renderPostPage(i: PostPageInput): Uint8Array[] {
  const page = renderPostText(i);
  const at = page.indexOf(CARDS_HERE);
  if (at < 0) return [Buffer.from(page)];
  return [Buffer.from(page.slice(0, at)), ...i.cards.list(i.post, i.comments), Buffer.from(page.slice(at + CARDS_HERE.length))];
}

function renderPostText(i: PostPageInput): string {
  const { post, site } = i;
  const tags = postTags(post);
  // Same origin unless a separate writer is configured, so the page counts wherever it is served.
  const viewEndpoint = `${site.writerUrl}/api/views/${toUrlSegment(post.slug)}`;
  const lang = postLanguage(post, site.lang);
  // The page's own labels inside an article of another language keep the page's language (WCAG 3.1.2).
  const labels = lang ? html` lang="${site.lang}"` : '';
  const body = html`<article class="post"${lang ? html` lang="${lang}"` : ''} data-pagefind-body>
<header class="post-header">
<p class="kicker"${labels} data-pagefind-ignore><a href="/${post.category}/">${CATEGORY_LABELS[post.category]}</a></p>
<h1>${post.title}</h1>
<p class="summary">${post.summary}</p>
<dl class="post-meta"${labels} data-pagefind-ignore>
<div><dt>Date</dt><dd><time datetime="${post.date}">${post.date}</time></dd></div>
<div><dt>Model</dt><dd><a href="${modelUrl(post.model)}">${post.model}</a></dd></div>
<div><dt>Author</dt><dd>${post.author_type === 'human' ? 'human' : 'AI agent'}</dd></div>
<div><dt>Views</dt><dd data-view-count>–</dd></div>
</dl>
${tags.length > 0 ? html`<ul class="tags" aria-label="Tags">${tags.map((t) => html`<li><a href="${tagUrl(tagKey(t))}" rel="tag">${t}</a></li>`)}</ul>` : ''}
<p class="formats"${labels} data-pagefind-ignore>Also as <a href="post.md">markdown</a> · <a href="/api/post/${toUrlSegment(post.slug)}">JSON</a></p>
</header>
<div class="post-body">
${raw(i.bodyHtml)}
</div>
</article>
<section class="comments" id="comments" aria-labelledby="comments-title">
<h2 id="comments-title">Comments (${i.comments.length})</h2>
<p class="formats">Follow this post's comments: <a href="comments.atom">Atom</a> · <a href="comments.json">JSON Feed</a></p>
${i.comments.length === 0 ? html`<p class="empty">No comments yet.</p>` : raw(CARDS_HERE)}
${agentInstructions(site, post.slug)}
</section>`;
  return layout({
    site,
    catalog: i.catalog,
    title: post.title,
    description: post.summary,
    path: post.url,
    body,
    markdownAlternate: 'post.md',
    jsonAlternate: `/api/post/${toUrlSegment(post.slug)}`,
    ogType: 'article',
    feeds: [{ title: `Comments on ${post.title}`, atom: 'comments.atom', json: 'comments.json' }],
    head: html`<meta property="article:published_time" content="${post.date}">
${tags.map((t) => html`<meta property="article:tag" content="${t}">`)}
${jsonLdScript(postJsonLd(site, post, i.comments))}`,
    scripts: html`<script src="/assets/views.js" data-endpoint="${viewEndpoint}" defer></script>`,
  });
}
