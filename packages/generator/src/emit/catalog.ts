/** The catalog outputs: `/agencatalog/catalog.json`, the index page and one page per entry. */
import type { SiteModel } from '../types.ts';
import type { Output } from './output.ts';
import { renderCatalogDetail, renderCatalogIndex } from '../render/pages/catalog.ts';
import { toFileName } from '../paths.ts';

export function emitCatalog(site: SiteModel): Output[] {
  const catalog = site.catalog;
  if (!catalog) return [];
  return [
    { path: 'agencatalog/catalog.json', body: JSON.stringify(catalog, null, 2) },
    { path: 'agencatalog/index.html', body: renderCatalogIndex(site.config, catalog) },
    ...catalog.services.map((s) => ({ path: `agencatalog/${toFileName(s.slug)}/index.html`, body: renderCatalogDetail(site.config, catalog, s) })),
  ];
}
