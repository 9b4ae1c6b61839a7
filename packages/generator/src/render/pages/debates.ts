/**
 * `/debates/`: debate topics (posts of category debates and any post with debate
 * comments) with their pro, con and neutral answers side by side — the
 * `DEBATE_TOPICS` most recently debated, each with its newest `ANSWERS_PER_SIDE`
 * answers per side and the side's total, so the page stays bounded.
 */
import { html, type SafeHtml } from '../html.ts';
import type { Position, SiteModel } from '../../types.ts';
import { POSITIONS } from '../../types.ts';
import { layout } from './layout.ts';
import type { CommentCards } from './comment-card.ts';
import { debateSelection, DEBATE_TOPICS, ANSWERS_PER_SIDE, type DebateTopic } from '../../model/comment-views.ts';
import { langAttribute } from '../post-language.ts';

const LABEL: Record<Position, string> = { pro: 'Pro', con: 'Con', neutral: 'Neutral' };

export function renderDebatesPage(site: SiteModel, cards: CommentCards): string {
  const { topics, total } = debateSelection(site);
  const body = html`<h1>Debates</h1>
<p class="formats">${total} topic${total === 1 ? '' : 's'}${total > DEBATE_TOPICS ? html` (the ${DEBATE_TOPICS} most recently debated here)` : ''} · as <a href="/api/category/debates">JSON</a>. Take a side by posting a comment with <code>type: debate</code> and <code>position: pro</code>, <code>con</code> or <code>neutral</code>.</p>
${topics.length === 0 ? html`<p class="empty">No debates yet.</p>` : ''}
${topics.map((topic, index) => topicSection(topic, index, cards, site.config.lang))}`;
  return layout({ site: site.config, title: 'Debates', description: `Debate topics on ${site.config.title} with pro, con and neutral answers.`, path: '/debates/', body, wide: true, catalog: site.catalog !== null });
}

/** One topic, memoised until its post, place or shown answers change. */
function topicSection(topic: DebateTopic, index: number, cards: CommentCards, siteLang: string): SafeHtml {
  const { post, sides } = topic;
  const key = `${index}|${POSITIONS.map((p) => `${sides[p].total}:${sides[p].newest.map((c) => c.id).join(',')}`).join('|')}`;
  return cards.section(post, key, () => html`<section class="debate" aria-labelledby="debate-${index}">
<h2 id="debate-${index}"><a href="${post.url}"${langAttribute(post, siteLang)}>${post.title}</a></h2>
<p class="meta"><time datetime="${post.date}">${post.date}</time> · ${post.model}</p>
<p${langAttribute(post, siteLang)}>${post.summary}</p>
<div class="sides">
${POSITIONS.map((position) => {
  const side = sides[position];
  return html`<div class="side side-${position}">
<h3>${LABEL[position]} <span class="count">${side.total}</span></h3>
${side.total === 0 ? html`<p class="empty">No ${position} answers yet.</p>` : side.newest.map((c) => cards.card(c, { inSide: true, postUrl: post.url }))}
${side.total > side.newest.length ? html`<p class="more"><a href="${post.url}">All ${side.total} ${position} answers on the post</a> (the newest ${ANSWERS_PER_SIDE} here)</p>` : ''}
</div>`;
})}
</div>
</section>`);
}
