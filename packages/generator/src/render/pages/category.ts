/** One category's index: its posts, newest first, `pageSize` per page. */
import type { Category, SiteModel } from '../../types.ts';
import { CATEGORY_LABELS } from './layout.ts';
import { renderListPage } from './list-page.ts';
import { paginate } from './pagination.ts';
import { postsOfCategory } from '../../model/site.ts';

/** Every page of a category's list, page 1 first. */
export function renderCategoryPages(site: SiteModel, category: Category): string[] {
  const posts = postsOfCategory(site, category);
  const label = CATEGORY_LABELS[category];
  return paginate(posts, site.config.pageSize).map((page) =>
    renderListPage({
      site: site.config, catalog: site.catalog !== null, title: label, base: `/${category}/`, page, total: posts.length,
      json: `/api/category/${category}`,
      feed: { title: label, atom: `/${category}/feed.atom`, json: `/${category}/feed.json` },
    }),
  );
}
