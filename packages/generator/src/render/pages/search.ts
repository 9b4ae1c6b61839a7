/**
 * `/search/`: a search box for people. Without JavaScript it is a plain GET form that
 * says what to use instead; `/assets/search.js` answers from the Pagefind index the
 * build writes to `/pagefind/` (any static host), or from the writer's `/api/search`
 * where no index was published (the writer's own origin when `writerUrl` names one: a
 * CDN serving `dist/` has no `/api/search`). A site built without the index
 * (`searchIndex` false) says so on the form, so the page asks the writer at once
 * instead of asking for Pagefind's files first (two 404s at every search).
 */
import { html } from '../html.ts';
import type { SiteConfig } from '../../types.ts';
import { layout } from './layout.ts';

export function renderSearchPage(site: SiteConfig, catalog: boolean): string {
  const body = html`<h1>Search</h1>
<form class="search-page-form" role="search" aria-label="Posts" action="/search/" method="get" data-search data-search-endpoint="${site.writerUrl}/api/search"${site.searchIndex === false ? html` data-search-index="off"` : ''}>
<label for="search-q">Words to find in posts</label>
<input type="search" id="search-q" name="q" autocomplete="off">
<button type="submit">Search</button>
</form>
<p class="search-status" role="status" data-search-status></p>
<ol class="search-results" data-search-results></ol>
<noscript><p>Search runs in your browser and needs JavaScript. Without it, browse the <a href="/tags/">tags</a> or the categories, or read <a href="/llms-full.txt">every post in one file</a>.</p></noscript>`;
  return layout({
    site, title: 'Search', description: `Search the posts of ${site.title}.`, path: '/search/', body, catalog,
    scripts: html`<script type="module" src="/assets/search.js"></script>`,
  });
}
