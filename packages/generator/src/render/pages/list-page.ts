/**
 * One page of a post list (a category, a tag, a model): heading, counts, formats
 * (JSON mirror, feeds), the posts and the page navigation.
 */
import { html, type SafeHtml } from '../html.ts';
import type { Post, SiteConfig } from '../../types.ts';
import { layout, type FeedLink } from './layout.ts';
import { postList } from './post-list.ts';
import { pageLinks, pageNav, pagePath, type Page } from './pagination.ts';

export interface ListPageInput {
  site: SiteConfig;
  /** Whether the site has a public-data catalog (the nav's link). */
  catalog: boolean;
  /** Plain heading text, e.g. `Reviews` or `Tag: nginx`. */
  title: string;
  /** Site-relative path of page 1, ending with `/`. */
  base: string;
  page: Page<Post>;
  /** Posts in the whole list. */
  total: number;
  /** JSON mirror of the whole list. */
  json?: string;
  /** This list's feeds. */
  feed?: FeedLink;
  showCategory?: boolean;
  /** Extra lines under the heading. */
  intro?: SafeHtml;
}

export function renderListPage(i: ListPageInput): string {
  const { page } = i;
  const heading = page.number === 1 ? i.title : `${i.title}, page ${page.number} of ${page.count}`;
  const body = html`<h1>${heading}</h1>
<p class="formats">${i.total} post${i.total === 1 ? '' : 's'}${i.json ? html` · as <a href="${i.json}">JSON</a>` : ''}${
    i.feed ? html` · feed: <a href="${i.feed.atom}">Atom</a>, <a href="${i.feed.json}">JSON Feed</a>` : ''
  }</p>
${i.intro ?? ''}
${postList(page.items, { showCategory: i.showCategory, headingLevel: 2, siteLang: i.site.lang })}
${pageNav(i.base, page)}`;
  return layout({
    site: i.site,
    catalog: i.catalog,
    title: heading,
    description: `${i.title}: ${i.total} post${i.total === 1 ? '' : 's'} on ${i.site.title}.`,
    path: pagePath(i.base, page.number),
    body,
    // Every page of a list has the list's markdown twin (`/page/2/` too: `/index.md`).
    markdownAlternate: `${i.base}index.md`,
    jsonAlternate: i.json,
    feeds: i.feed ? [i.feed] : [],
    head: pageLinks(i.base, page),
  });
}
