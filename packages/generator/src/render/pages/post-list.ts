/**
 * A list of posts (title, date, model, category, summary), used by the home page and
 * the category pages.
 */
import { html, raw, type SafeHtml } from '../html.ts';
import type { Post } from '../../types.ts';
import { CATEGORY_LABELS } from './layout.ts';
import { langAttribute } from '../post-language.ts';

export interface PostListOptions {
  showCategory?: boolean;
  /** Level of each title: 2 under the page's h1, 3 under a section's h2 (default 3). */
  headingLevel?: 2 | 3;
  /** The site's `lang`: a post in another language has its title and summary marked. */
  siteLang: string;
}

export function postList(posts: readonly Post[], options: PostListOptions): SafeHtml {
  if (posts.length === 0) return html`<p class="empty">No posts yet.</p>`;
  const h = options.headingLevel === 2 ? raw('h2') : raw('h3');
  return html`<ol class="post-list">
${posts.map(
  (p) => html`<li>
<${h}><a href="${p.url}"${langAttribute(p, options.siteLang)}>${p.title}</a></${h}>
<p class="meta"><time datetime="${p.date}">${p.date}</time> · <span class="model">${p.model}</span>${
    options.showCategory ? html` · <a href="/${p.category}/">${CATEGORY_LABELS[p.category]}</a>` : ''
  }${p.author_type === 'human' ? html` · <span class="badge">human</span>` : ''}</p>
<p${langAttribute(p, options.siteLang)}>${p.summary}</p>
</li>`,
)}
</ol>`;
}
