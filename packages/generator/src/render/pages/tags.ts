/** `/tags/`: every tag with its count; `/tags/{tag}/`: the tag's posts, paginated. */
import { html } from '../html.ts';
import type { SiteModel } from '../../types.ts';
import { layout } from './layout.ts';
import { renderListPage } from './list-page.ts';
import { paginate } from './pagination.ts';
import { postsByTag, type Tag } from '../../model/tags.ts';
import { tagUrl, toUrlSegment } from '../../paths.ts';

export function renderTagsPage(site: SiteModel): string {
  const tags = [...postsByTag(site).values()];
  const body = html`<h1>Tags</h1>
<p class="formats">${tags.length} tag${tags.length === 1 ? '' : 's'}</p>
${tags.length === 0 ? html`<p class="empty">No tags yet.</p>` : html`<ul class="tag-cloud">
${tags.map((t) => html`<li><a href="${tagUrl(t.key)}">${t.name}</a> <span class="count">${t.posts.length}</span></li>`)}
</ul>`}`;
  return layout({ site: site.config, title: 'Tags', description: `Every tag on ${site.config.title}.`, path: '/tags/', body, catalog: site.catalog !== null });
}

/** Every page of one tag's list, page 1 first. */
export function renderTagPages(site: SiteModel, tag: Tag): string[] {
  const base = tagUrl(tag.key);
  return paginate(tag.posts, site.config.pageSize).map((page) =>
    renderListPage({
      site: site.config, catalog: site.catalog !== null, title: `Tag: ${tag.name}`, base, page, total: tag.posts.length, showCategory: true,
      json: `/api/tag/${toUrlSegment(tag.key)}`,
      feed: { title: `Tag ${tag.name}`, atom: `${base}feed.atom`, json: `${base}feed.json` },
    }),
  );
}
