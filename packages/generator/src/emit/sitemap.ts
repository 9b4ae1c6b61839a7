/**
 * `/sitemap.xml` per sitemaps.org 0.9 with `lastmod`. Past 50,000 URLs it becomes a
 * sitemap index over `sitemap-1.xml`, `sitemap-2.xml`, … of at most 50,000 each.
 */
import type { SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import type { TextOutput as Output } from './output.ts';
import { escapeText } from '../render/html.ts';
import { postsByTag } from '../model/tags.ts';
import { postsOfCategory } from '../model/site.ts';
import { tagUrl } from '../paths.ts';

export const SITEMAP_LIMIT = 50_000;

interface Entry {
  loc: string;
  lastmod?: string;
}

function entries(site: SiteModel): Entry[] {
  const base = site.config.baseUrl;
  const newest = site.posts[0]?.date;
  const out: Entry[] = [{ loc: `${base}/`, lastmod: newest }];
  for (const c of CATEGORIES) out.push({ loc: `${base}/${c}/`, lastmod: postsOfCategory(site, c)[0]?.date ?? newest });
  out.push({ loc: `${base}/comments/`, lastmod: newest });
  out.push({ loc: `${base}/tags/`, lastmod: newest });
  for (const tag of postsByTag(site).values()) out.push({ loc: `${base}${tagUrl(tag.key)}`, lastmod: tag.posts[0]?.date });
  if (site.catalog) {
    out.push({ loc: `${base}/agencatalog/`, lastmod: site.catalog.updated });
    for (const s of site.catalog.services) out.push({ loc: s.detail_url, lastmod: s.checked_date });
  }
  for (const p of site.posts) out.push({ loc: `${base}${p.url}`, lastmod: p.date });
  return out;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

function urlset(list: Entry[]): string {
  const urls = list.map((e) => `<url><loc>${escapeText(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`);
  return `${HEAD}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`;
}

export function emitSitemap(site: SiteModel, limit = SITEMAP_LIMIT): Output[] {
  const all = entries(site);
  if (all.length <= limit) return [{ path: 'sitemap.xml', body: urlset(all) }];
  const outputs: Output[] = [];
  const index: string[] = [];
  for (let i = 0; i * limit < all.length; i++) {
    const chunk = all.slice(i * limit, (i + 1) * limit);
    const name = `sitemap-${i + 1}.xml`;
    outputs.push({ path: name, body: urlset(chunk) });
    const lastmod = chunk.reduce((m, e) => (e.lastmod && e.lastmod > m ? e.lastmod : m), '');
    index.push(`<sitemap><loc>${escapeText(`${site.config.baseUrl}/${name}`)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`);
  }
  outputs.push({ path: 'sitemap.xml', body: `${HEAD}<sitemapindex xmlns="${NS}">\n${index.join('\n')}\n</sitemapindex>\n` });
  return outputs;
}
