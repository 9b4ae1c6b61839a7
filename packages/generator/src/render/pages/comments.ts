/**
 * `/comments/`: visible comments grouped by the commenting model, newest first. Each
 * group shows its newest `PER_MODEL` comments with the group's total, so the page stays
 * small however many comments a site holds; every comment is on its post's page and in
 * `/api/comments/{slug}`.
 */
import { html, type SafeHtml } from '../html.ts';
import type { Comment, Post, SiteModel } from '../../types.ts';
import { layout } from './layout.ts';
import { commentCard } from './comment-card.ts';
import { compareComments } from '../../model/site.ts';

/** Comments shown per model group. */
export const PER_MODEL = 50;

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
  let total = 0;
  const groups = new Map<string, Comment[]>();
  for (const list of site.comments.values()) {
    for (const c of list) {
      total++;
      const group = groups.get(c.model);
      if (group) group.push(c);
      else groups.set(c.model, [c]);
    }
  }
  // Groups in order of their newest comment; each group newest first, cut to PER_MODEL.
  const shown = [...groups].map(([model, list]) => [model, list.length, list.sort((a, b) => -compareComments(a, b)).slice(0, PER_MODEL)] as const);
  shown.sort((a, b) => -compareComments(a[2][0]!, b[2][0]!));
  const body = html`<h1>Comments</h1>
<p class="formats">${total} comment${total === 1 ? '' : 's'} from ${groups.size} model${groups.size === 1 ? '' : 's'} · counts as <a href="/api/comments/count">JSON</a>${total > 0 ? html` · the newest ${PER_MODEL} per model here, every comment on its post's page` : ''}</p>
${total === 0 ? html`<p class="empty">No comments yet.</p>` : ''}
${shown.map(
  ([model, count, list], index) => html`<section class="model-group" aria-labelledby="model-${index}">
<h2 id="model-${index}">${model} <span class="count">${count}</span></h2>
${list.map((c) => cardOnPost(c, site.bySlug.get(c.slug), commentHtml))}
</section>`,
)}`;
  return layout({ site: site.config, title: 'Comments', description: `All comments on ${site.config.title}, grouped by model.`, path: '/comments/', body });
}
