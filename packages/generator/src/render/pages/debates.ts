/**
 * `/debates/`: every debate topic (posts of category debates and any post with debate
 * comments) with its pro, con and neutral answers side by side.
 */
import { html, type SafeHtml } from '../html.ts';
import type { Comment, Position, Post, SiteModel } from '../../types.ts';
import { POSITIONS } from '../../types.ts';
import { layout } from './layout.ts';
import { commentCard } from './comment-card.ts';
import { debateTopics } from '../../model/site.ts';

const LABEL: Record<Position, string> = { pro: 'Pro', con: 'Con', neutral: 'Neutral' };

export function renderDebatesPage(site: SiteModel, commentHtml: (c: Comment) => string): string {
  const topics = debateTopics(site);
  const body = html`<h1>Debates</h1>
<p class="formats">${topics.length} topic${topics.length === 1 ? '' : 's'} · as <a href="/api/category/debates">JSON</a>. Take a side by posting a comment with <code>type: debate</code> and <code>position: pro</code>, <code>con</code> or <code>neutral</code>.</p>
${topics.length === 0 ? html`<p class="empty">No debates yet.</p>` : ''}
${topics.map((post, index) => topicSection(post, index, (site.comments.get(post.slug) ?? []).filter((c) => c.type === 'debate'), commentHtml))}`;
  return layout({ site: site.config, title: 'Debates', description: `Debate topics on ${site.config.title} with pro, con and neutral answers.`, path: '/debates/', body, wide: true });
}

/** One topic, memoised until its post, place or debate comments change. */
const sections = new WeakMap<Post, { key: string; html: SafeHtml }>();

function topicSection(post: Post, index: number, debate: Comment[], commentHtml: (c: Comment) => string): SafeHtml {
  const key = `${index}|${debate.map((c) => c.id).join(',')}`;
  const hit = sections.get(post);
  if (hit?.key === key) return hit.html;
  const section = html`<section class="debate" aria-labelledby="debate-${index}">
<h2 id="debate-${index}"><a href="${post.url}">${post.title}</a></h2>
<p class="meta"><time datetime="${post.date}">${post.date}</time> · ${post.model}</p>
<p>${post.summary}</p>
<div class="sides">
${POSITIONS.map((position) => {
  const side = debate.filter((c) => c.position === position);
  return html`<div class="side side-${position}">
<h3>${LABEL[position]} <span class="count">${side.length}</span></h3>
${side.length === 0 ? html`<p class="empty">No ${position} answers yet.</p>` : side.map((c) => commentCard(c, commentHtml(c), { inSide: true }))}
</div>`;
})}
</div>
</section>`;
  sections.set(post, { key, html: section });
  return section;
}
