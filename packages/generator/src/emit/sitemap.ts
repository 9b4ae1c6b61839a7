/**
 * `/sitemap.xml` per sitemaps.org 0.9 with `lastmod`: every indexable HTML page the
 * build emits, once, under the URL its canonical link names (`baseUrl` + the path the
 * page's layout is given): home, category, tag and model lists with every page of
 * their pagination (`{list}page/{n}/`), `/comments/`, `/debates/`, `/tags/`,
 * `/search/`, the catalog and its entries, and every post. Not the JSON mirrors,
 * `post.md`, feeds, `llms.txt` or other documents; no page is marked `noindex` today
 * (one that is should be left out here).
 *
 * A file holds at most 50,000 URLs and 50 MB (52,428,800 bytes); past either, the
 * sitemap becomes a sitemap index over `sitemap-1.xml`, `sitemap-2.xml`, … each within both.
 */
import type { Post, SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import type { TextOutput as Output } from './output.ts';
import { escapeText } from '../render/html.ts';
import { paginate, pagePath } from '../render/pages/pagination.ts';
import { detailPath } from '../render/pages/catalog.ts';
import { postsByTag } from '../model/tags.ts';
import { postsByModel, postsOfCategory } from '../model/site.ts';
import { modelUrl, tagUrl } from '../paths.ts';

/** Most URLs in one sitemap file (sitemaps.org). */
export const SITEMAP_LIMIT = 50_000;
/** Most bytes in one sitemap file, uncompressed (sitemaps.org: 50 MB). */
export const SITEMAP_MAX_BYTES = 52_428_800;

interface Entry {
  /** Site-relative path, as the page's layout is given it (`/models/Claude%20Opus%204.1/`). */
  path: string;
  lastmod?: string | undefined;
}

function entries(site: SiteModel): Entry[] {
  const newest = site.posts[0]?.date;
  const out: Entry[] = [];
  /** Every page of a paginated list (`render/pages/pagination.ts`), each dated by the list's newest post. */
  const list = (base: string, posts: readonly Post[], lastmod = posts[0]?.date) => {
    for (const page of paginate(posts, site.config.pageSize)) out.push({ path: pagePath(base, page.number), lastmod });
  };
  list('/', site.posts);
  for (const c of CATEGORIES) {
    const posts = postsOfCategory(site, c);
    // The debates category has no list of its own: `/debates/` is the debates page (one page).
    if (c === 'debates') out.push({ path: '/debates/', lastmod: posts[0]?.date ?? newest });
    else list(`/${c}/`, posts, posts[0]?.date ?? newest);
  }
  out.push({ path: '/comments/', lastmod: newest });
  out.push({ path: '/tags/', lastmod: newest });
  for (const tag of postsByTag(site).values()) list(tagUrl(tag.key), tag.posts);
  for (const [model, posts] of postsByModel(site)) list(modelUrl(model), posts);
  // The search page's HTML does not change with the posts: no lastmod.
  out.push({ path: '/search/' });
  if (site.catalog) {
    out.push({ path: '/agencatalog/', lastmod: site.catalog.updated });
    for (const s of site.catalog.services) out.push({ path: detailPath(s), lastmod: s.checked_date });
  }
  for (const p of site.posts) out.push({ path: p.url, lastmod: p.date });
  // Each page once, even if two outputs ever claimed one URL (dist/ holds one file there).
  const seen = new Set<string>();
  return out.filter((e) => !seen.has(e.path) && seen.add(e.path));
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const URLSET_OPEN = `${HEAD}<urlset xmlns="${NS}">\n`;
const URLSET_CLOSE = '\n</urlset>\n';

const urlElement = (base: string, e: Entry) => `<url><loc>${escapeText(base + e.path)}</loc>${e.lastmod ? `<lastmod>${escapeText(e.lastmod)}</lastmod>` : ''}</url>`;
const urlset = (urls: readonly string[]) => `${URLSET_OPEN}${urls.join('\n')}${URLSET_CLOSE}`;

/** The `<url>` elements in files of at most `limit` URLs and `maxBytes` bytes each, in order. */
function chunks(urls: readonly string[], limit: number, maxBytes: number): string[][] {
  const frame = Buffer.byteLength(URLSET_OPEN) + Buffer.byteLength(URLSET_CLOSE);
  const out: string[][] = [];
  let chunk: string[] = [];
  let bytes = frame;
  for (const url of urls) {
    // Every URL but a file's first follows a newline.
    const size = Buffer.byteLength(url) + (chunk.length > 0 ? 1 : 0);
    if (chunk.length > 0 && (chunk.length >= limit || bytes + size > maxBytes)) {
      out.push(chunk);
      chunk = [url];
      bytes = frame + Buffer.byteLength(url);
    } else {
      chunk.push(url);
      bytes += size;
    }
  }
  out.push(chunk);
  return out;
}

/**
 * @param limit Most URLs per file (tests pass small ones).
 * @param maxBytes Most bytes per file.
 */
export function emitSitemap(site: SiteModel, limit = SITEMAP_LIMIT, maxBytes = SITEMAP_MAX_BYTES): Output[] {
  const base = site.config.baseUrl;
  const all = entries(site);
  const urls = all.map((e) => urlElement(base, e));
  const files = chunks(urls, limit, maxBytes);
  if (files.length === 1) return [{ path: 'sitemap.xml', body: urlset(files[0] ?? []) }];
  const outputs: Output[] = [];
  const index: string[] = [];
  let at = 0;
  for (const [i, chunk] of files.entries()) {
    const name = `sitemap-${i + 1}.xml`;
    outputs.push({ path: name, body: urlset(chunk) });
    const lastmod = all.slice(at, at + chunk.length).reduce((m, e) => (e.lastmod && e.lastmod > m ? e.lastmod : m), '');
    at += chunk.length;
    index.push(`<sitemap><loc>${escapeText(`${base}/${name}`)}</loc>${lastmod ? `<lastmod>${escapeText(lastmod)}</lastmod>` : ''}</sitemap>`);
  }
  outputs.push({ path: 'sitemap.xml', body: `${HEAD}<sitemapindex xmlns="${NS}">\n${index.join('\n')}\n</sitemapindex>\n` });
  return outputs;
}
