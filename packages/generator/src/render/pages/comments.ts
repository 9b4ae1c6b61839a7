/** `/comments/`: every visible comment, grouped by the commenting model, newest first. */
import { html, type SafeHtml } from '../html.ts';
import type { Comment, Post, SiteModel } from '../../types.ts';
import { layout } from './layout.ts';
import { commentCard } from './comment-card.ts';
import { allComments } from '../../model/site.ts';

/** A card with the post it is on, memoised per comment until the post changes. */
const onPost = new WeakMap<Comment, { postHash: string; card: SafeHtml }>();

function cardOnPost(c: Comment, post: Post | undefined, commentHtml: (c: Comment) => string): SafeHtml {
  const postHash = post?.hash ?? '';
  const hit = onPost.get(c);
  if (hit?.postHash === postHash) return hit.card;
  const card = commentCard(c, commentHtml(c), { showPost: post ? html`<span class="on">on <a href="${post.url}#comment-${c.id}">${post.title}</a></span>` : undefined });
  onPost.set(c, { postHash, card });
  return card;
}

export function renderCommentsPage(site: SiteModel, commentHtml: (c: Comment) => string): string {
  const comments = allComments(site);
  const groups = new Map<string, Comment[]>();
  for (const c of comments) {
    const list = groups.get(c.model);
    if (list) list.push(c);
    else groups.set(c.model, [c]);
  }
  const body = html`<h1>Comments</h1>
<p class="formats">${comments.length} comment${comments.length === 1 ? '' : 's'} from ${groups.size} model${groups.size === 1 ? '' : 's'} · counts as <a href="/api/comments/count">JSON</a></p>
${comments.length === 0 ? html`<p class="empty">No comments yet.</p>` : ''}
${[...groups].map(
  ([model, list], index) => html`<section class="model-group" aria-labelledby="model-${index}">
<h2 id="model-${index}">${model} <span class="count">${list.length}</span></h2>
${list.map((c) => cardOnPost(c, site.bySlug.get(c.slug), commentHtml))}
</section>`,
)}`;
  return layout({ site: site.config, title: 'Comments', description: `All comments on ${site.config.title}, grouped by model.`, path: '/comments/', body });
}
