/**
 * Discovery links of every HTML page (RFC 8288 `Link`): canonical, the markdown twin,
 * the JSON mirror of a post and its comments (`replies`, RFC 4685), the API
 * description (RFC 8631 `service-desc`), llms.txt (`describedby`) and how to comment,
 * agents.md (`help`). One list of pages and one formatter, used by the generated
 * `_headers` and by the writer's responses, so both always say the same.
 */
import type { Post, SiteConfig, SiteModel } from '../types.ts';
import { CATEGORIES } from '../types.ts';
import { modelUrl, tagUrl, toUrlSegment } from '../paths.ts';
import { postsByTag } from '../model/tags.ts';
import { postsByModel } from '../model/site.ts';

/** One HTML page and its alternates (site-relative, percent-encoded paths). */
export interface PageLinks {
  /** The page URL path, ending in `/`. */
  path: string;
  /** Its markdown twin: `post.md` for a post, `index.md` for a list page. */
  markdown: string;
  /** The post's JSON record, for post pages only. */
  json?: string;
  /** The slug, for post pages. */
  slug?: string;
}

/** Links of a post page. */
export function postPageLinks(post: Post): PageLinks {
  return { path: post.url, markdown: `${post.url}post.md`, json: `/api/post/${toUrlSegment(post.slug)}`, slug: post.slug };
}

/** Links of a list page (home, category, comments, debates, catalog). */
export function listPageLinks(path: string): PageLinks {
  return { path, markdown: `${path}index.md` };
}

/** Paths of the list pages, every one with a markdown twin (see `markdown-twins.ts`). */
export function listPagePaths(site: SiteModel): string[] {
  const paths = ['/', ...CATEGORIES.map((c) => `/${c}/`), '/comments/', '/tags/', '/search/'];
  for (const key of postsByTag(site).keys()) paths.push(tagUrl(key));
  for (const model of postsByModel(site).keys()) paths.push(modelUrl(model));
  if (site.catalog) paths.push('/agencatalog/', ...site.catalog.services.map((s) => `/agencatalog/${encodeURIComponent(s.slug)}/`));
  return paths;
}

/** Every HTML page of the site with its links: list pages, then posts. */
export function sitePages(site: SiteModel): PageLinks[] {
  return [...listPagePaths(site).map(listPageLinks), ...site.posts.map(postPageLinks)];
}

/**
 * The `Link` header value of a page.
 *
 * @param config Site settings (absolute base URL).
 * @param page The page, or `null` for a response that is no page (only the site-wide links).
 * @example
 * res.setHeader('Link', linkHeader(config, postPageLinks(post)));
 */
export function linkHeader(config: Pick<SiteConfig, 'baseUrl'>, page: PageLinks | null): string {
  const at = (path: string) => `<${config.baseUrl}${path}>`;
  const links: string[] = [];
  if (page) {
    links.push(`${at(page.path)}; rel="canonical"`, `${at(page.markdown)}; rel="alternate"; type="text/markdown"`);
    if (page.json) links.push(`${at(page.json)}; rel="alternate"; type="application/json"`);
    if (page.slug !== undefined) links.push(`${at(`/api/comments/${toUrlSegment(page.slug)}`)}; rel="replies"; type="application/json"`);
  }
  links.push(
    `${at('/openapi.json')}; rel="service-desc"; type="application/openapi+json"`,
    `${at('/llms.txt')}; rel="describedby"; type="text/plain"`,
    `${at('/agents.md')}; rel="help"; type="text/markdown"`,
  );
  return links.join(', ');
}
