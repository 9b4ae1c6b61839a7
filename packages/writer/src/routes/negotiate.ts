/**
 * Content negotiation and discovery links for the HTML pages of `dist/`. Every page
 * answers with `Link` (canonical, markdown twin, JSON mirror of a post, service-desc,
 * describedby) and `Vary: Accept`; `Accept: text/markdown` gets the page's markdown
 * (`post.md` of a post, `index.md` of a list page) and `Accept: application/json` on a
 * post page gets its `/api/post/{slug}` record. HTML stays the default: browsers and
 * `*` / `*` get it, and q-values decide between the three (Express `req.accepts`).
 */
import { Router, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { CONTENT_TYPES, linkHeader, listPageLinks, sitePages, toFileName, type PageLinks, type SiteBuild, type SiteModel } from '@agora/generator';

/** Page paths (decoded) → links, built once per content version of the site. */
function pageIndex(): (site: SiteModel) => Map<string, PageLinks> {
  let built: { posts: unknown; catalog: unknown; map: Map<string, PageLinks> } | null = null;
  return (site) => {
    if (built?.posts !== site.posts || built.catalog !== site.catalog) {
      built = { posts: site.posts, catalog: site.catalog, map: new Map(sitePages(site).map((p) => [safeDecode(p.path), p])) };
    }
    return built.map;
  };
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const OFFERED = ['text/html', 'text/markdown', 'application/json'];

function send(res: Response, path: string, type: string, next: (error?: unknown) => void): void {
  res.sendFile(path, { dotfiles: 'deny', headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=0, must-revalidate', 'Access-Control-Allow-Origin': '*' } }, (error) => error && next(error));
}

/**
 * The negotiation router; mount it just before the static site.
 *
 * @param state The live build (posts and catalog pages).
 * @param distDir The built site.
 * @example
 * app.use(negotiateRoutes(deps.state, deps.distDir));
 */
export function negotiateRoutes(state: SiteBuild, distDir: string): Router {
  const router = Router();
  const root = resolve(distDir);
  const pages = pageIndex();
  router.get('/openapi.json', (_req, res, next) => {
    // RFC 8631: the API description describes itself too.
    res.setHeader('Link', linkHeader(state.site.config, null));
    next();
  });
  router.get(/\/$/, (req, res, next) => {
    if (req.path.startsWith('/api/')) return next();
    const decoded = safeDecode(req.path);
    const dir = resolve(root, `.${decoded}`);
    if (dir !== root && !dir.startsWith(root + sep)) return next();
    if (!existsSync(join(dir, 'index.html'))) return next();
    // Pages added by other outputs (pagination, tags) get their links from their files.
    const page = pages(state.site).get(decoded) ?? (existsSync(join(dir, 'index.md')) ? listPageLinks(req.path) : null);
    res.setHeader('Link', linkHeader(state.site.config, page));
    res.vary('Accept');
    const wanted = req.accepts(OFFERED);
    if (wanted === 'text/markdown' && page) {
      const file = page.slug === undefined ? join(dir, 'index.md') : join(dir, 'post.md');
      if (existsSync(file)) return send(res, file, CONTENT_TYPES.markdown, next);
    }
    if (wanted === 'application/json' && page?.slug !== undefined) {
      const file = join(root, 'api', 'post', toFileName(page.slug));
      if (existsSync(file)) return send(res, file, CONTENT_TYPES.json, next);
    }
    next();
  });
  return router;
}
