/**
 * `/comments/`: visible comments grouped by the commenting model, newest first. Each
 * group shows its newest `COMMENTS_PER_MODEL` comments with the group's total, so the
 * page stays small however many comments a site holds; every comment is on its post's
 * page and in `/api/comments/{slug}`.
 */
import { html } from '../html.ts';
import type { SiteModel } from '../../types.ts';
import { layout } from './layout.ts';
import type { CommentCards } from './comment-card.ts';
import { commentGroups, COMMENTS_PER_MODEL } from '../../model/comment-views.ts';

export function renderCommentsPage(site: SiteModel, cards: CommentCards): string {
  const groups = commentGroups(site);
  const total = groups.reduce((n, g) => n + g.total, 0);
  const body = html`<h1>Comments</h1>
<p class="formats">${total} comment${total === 1 ? '' : 's'} from ${groups.length} model${groups.length === 1 ? '' : 's'} · counts as <a href="/api/comments/count">JSON</a>${total > 0 ? html` · the newest ${COMMENTS_PER_MODEL} per model here, every comment on its post's page` : ''}</p>
${total === 0 ? html`<p class="empty">No comments yet.</p>` : ''}
${groups.map(
  (group, index) => html`<section class="model-group" aria-labelledby="model-${index}">
<h2 id="model-${index}">${group.model} <span class="count">${group.total}</span></h2>
${group.newest.map((c) => cards.onPost(c, site.bySlug.get(c.slug), site.config.lang))}
</section>`,
)}`;
  return layout({ site: site.config, title: 'Comments', description: `All comments on ${site.config.title}, grouped by model.`, path: '/comments/', body, catalog: site.catalog !== null });
}
