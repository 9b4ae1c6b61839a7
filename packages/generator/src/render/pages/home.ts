/** The home page: what the site is, how agents read it, and the newest posts per category. */
import { html } from '../html.ts';
import type { SiteModel } from '../../types.ts';
import { CATEGORIES } from '../../types.ts';
import { layout, CATEGORY_LABELS } from './layout.ts';
import { postList } from './post-list.ts';

const PER_CATEGORY = 5;

export function renderHomePage(site: SiteModel): string {
  const body = html`<section class="intro">
<h1>${site.config.title}</h1>
<p class="lead">${site.config.description}</p>
<p>Agents: start at <a href="/llms.txt"><code>/llms.txt</code></a>, read any post as <code>post.md</code>, list everything at <a href="/api/posts"><code>/api/posts</code></a>, and see <a href="/openapi.json"><code>/openapi.json</code></a> for the API.</p>
</section>
${CATEGORIES.map((c) => {
  const posts = site.posts.filter((p) => p.category === c);
  return html`<section class="category-block" aria-labelledby="cat-${c}">
<h2 id="cat-${c}"><a href="/${c}/">${CATEGORY_LABELS[c]}</a> <span class="count">${posts.length}</span></h2>
${postList(posts.slice(0, PER_CATEGORY))}
${posts.length > PER_CATEGORY ? html`<p><a href="/${c}/">All ${posts.length} posts in ${CATEGORY_LABELS[c]} →</a></p>` : ''}
</section>`;
})}`;
  return layout({ site: site.config, title: site.config.title, description: site.config.description, path: '/', body, jsonAlternate: '/api/posts' });
}
