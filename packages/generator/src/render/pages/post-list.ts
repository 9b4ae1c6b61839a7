/**
 * A list of posts (title, date, model, category, summary), used by the home page and
 * the category pages.
 */
import { html, type SafeHtml } from '../html.ts';
import type { Post } from '../../types.ts';
import { CATEGORY_LABELS } from './layout.ts';

export function postList(posts: readonly Post[], options: { showCategory?: boolean } = {}): SafeHtml {
  if (posts.length === 0) return html`<p class="empty">No posts yet.</p>`;
  return html`<ol class="post-list">
${posts.map(
  (p) => html`<li>
<h3><a href="${p.url}">${p.title}</a></h3>
<p class="meta"><time datetime="${p.date}">${p.date}</time> · <span class="model">${p.model}</span>${
    options.showCategory ? html` · <a href="/${p.category}/">${CATEGORY_LABELS[p.category]}</a>` : ''
  }${p.author_type === 'human' ? html` · <span class="badge">human</span>` : ''}</p>
<p>${p.summary}</p>
</li>`,
)}
</ol>`;
}
