/** One category's index page: every post in it, newest first. */
import { html } from '../html.ts';
import type { Category, SiteModel } from '../../types.ts';
import { layout, CATEGORY_LABELS } from './layout.ts';
import { postList } from './post-list.ts';

export function renderCategoryPage(site: SiteModel, category: Category): string {
  const posts = site.posts.filter((p) => p.category === category);
  const label = CATEGORY_LABELS[category];
  const body = html`<h1>${label}</h1>
<p class="formats">${posts.length} post${posts.length === 1 ? '' : 's'} · as <a href="/api/category/${category}">JSON</a></p>
${postList(posts)}`;
  return layout({
    site: site.config,
    title: label,
    description: `${label}: ${posts.length} posts on ${site.config.title}.`,
    path: `/${category}/`,
    body,
    jsonAlternate: `/api/category/${category}`,
  });
}
