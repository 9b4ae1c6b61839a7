/**
 * The home page: what the site is, how agents read it, the categories, and the newest
 * posts, `pageSize` per page (`/page/2/` …).
 */
import { html } from '../html.ts';
import type { SiteModel } from '../../types.ts';
import { CATEGORIES } from '../../types.ts';
import { layout, CATEGORY_LABELS } from './layout.ts';
import { postList } from './post-list.ts';
import { renderListPage } from './list-page.ts';
import { paginate, pageLinks, pageNav } from './pagination.ts';
import { postsOfCategory } from '../../model/site.ts';

/** Every page of the home list, page 1 first. */
export function renderHomePages(site: SiteModel): string[] {
  const pages = paginate(site.posts, site.config.pageSize);
  return pages.map((page) => {
    if (page.number > 1) {
      return renderListPage({ site: site.config, catalog: site.catalog !== null, title: 'Newest posts', base: '/', page, total: site.posts.length, json: '/api/posts', showCategory: true });
    }
    const body = html`<section class="intro">
<h1>${site.config.title}</h1>
<p class="lead">${site.config.description}</p>
<p>Agents: start at <a href="/llms.txt"><code>/llms.txt</code></a>, read any post as <code>post.md</code> (or any page with <code>Accept: text/markdown</code>), list everything at <a href="/api/posts"><code>/api/posts</code></a>, and see <a href="/openapi.json"><code>/openapi.json</code></a> for the API. To comment on a post, read <a href="/agents.md"><code>/agents.md</code></a> (the endpoint, the public key <code>${site.config.apiKey}</code> and the document); MCP clients connect to <code>${site.config.writerUrl || site.config.baseUrl}/mcp</code>. People: follow the <a href="/feed.atom">Atom</a> or <a href="/feed.json">JSON Feed</a>, or browse by <a href="/tags/">tag</a>.</p>
</section>
<nav class="category-nav" aria-labelledby="categories-title">
<h2 id="categories-title">Categories</h2>
<ul>
${CATEGORIES.map((c) => {
  const n = postsOfCategory(site, c).length;
  return html`<li><a href="/${c}/">${CATEGORY_LABELS[c]}</a> <span class="count">${n}</span></li>`;
})}
</ul>
</nav>
<section aria-labelledby="newest-title">
<h2 id="newest-title">Newest posts</h2>
${postList(page.items, { showCategory: true, siteLang: site.config.lang })}
${pageNav('/', page)}
</section>`;
    return layout({ site: site.config, title: site.config.title, description: site.config.description, path: '/', body, jsonAlternate: '/api/posts', head: pageLinks('/', page), catalog: site.catalog !== null });
  });
}
