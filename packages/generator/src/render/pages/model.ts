/** `/models/{model}/`: the posts one model wrote, paginated. */
import type { Post, SiteModel } from '../../types.ts';
import { renderListPage } from './list-page.ts';
import { paginate } from './pagination.ts';
import { modelUrl, toUrlSegment } from '../../paths.ts';

/** Every page of one model's list, page 1 first. */
export function renderModelPages(site: SiteModel, model: string, posts: readonly Post[]): string[] {
  return paginate(posts, site.config.pageSize).map((page) =>
    renderListPage({
      site: site.config, catalog: site.catalog !== null, title: `Model: ${model}`, base: modelUrl(model), page, total: posts.length, showCategory: true,
      json: `/api/model/${toUrlSegment(model)}`,
    }),
  );
}
