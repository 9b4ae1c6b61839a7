/**
 * Content negotiation and discovery links for the HTML pages of `dist/`, and the
 * headers of every markdown answer. Every page answers with `Link` (canonical,
 * markdown twin, JSON mirror and comments of a post, service-desc, describedby, help)
 * and `Vary: Accept`; `Accept: text/markdown` gets the page's markdown (`post.md` of a
 * post, `index.md` of a list page; a later page `…/page/N/` its list's) and
 * `Accept: application/json` on a post page gets its `/api/post/{slug}` record. HTML
 * stays the default: browsers and `*` / `*` get it, and q-values decide between the
 * three (Express `req.accepts`; a range's other parameters, `charset` or `variant`, are
 * not read).
 *
 * A markdown answer — negotiated or a `.md` file asked for by name — carries its size
 * as `x-markdown-tokens` (o200k_base, as Cloudflare's Markdown for Agents does), the
 * site's `Content-Signal`, and the `Link` header of its page, which points to llms.txt
 * and agents.md: `post.md` itself stays the source exactly as authored (spec 4.1), so
 * the pointers travel in headers.
 */
import { Router, type Request, type Response } from 'express';
import { sendWholeFile, type OpenedFile } from '../http/send-file.ts';
import { STATIC_EXPOSED } from './static.ts';
import { existsSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { CONTENT_TYPES, contentSignal, countTextTokens, linkHeader, listPageLinks, sitePages, toFileName, type PageLinks, type SiteBuild, type SiteModel } from '@agora/generator';

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

/** Most files whose token counts are remembered (a count is re-read when the file changes). */
const TOKEN_CACHE_ENTRIES = 50_000;

/**
 * Tokens of the markdown file being sent, counted once per version of the file (inode,
 * size and mtime), from the open file whose bytes are sent: counted by path, a flush
 * that replaced the file in between gave the old version's count with the new text.
 */
function markdownTokens(): (path: string, opened: OpenedFile) => Promise<number> {
  const cache = new Map<string, { ino: number; mtimeMs: number; size: number; tokens: number }>();
  return async (path, opened) => {
    const hit = cache.get(path);
    if (hit && hit.ino === opened.ino && hit.mtimeMs === opened.mtimeMs && hit.size === opened.size) return hit.tokens;
    const tokens = countTextTokens((await opened.handle.read(Buffer.alloc(opened.size), 0, opened.size, 0)).buffer.toString('utf8'));
    if (cache.size >= TOKEN_CACHE_ENTRIES) cache.clear();
    cache.set(path, { ino: opened.ino, mtimeMs: opened.mtimeMs, size: opened.size, tokens });
    return tokens;
  };
}

const OFFERED = ['text/html', 'text/markdown', 'application/json'];

/**
 * The Accept header with each range's parameters dropped but `q`: every answer here is
 * UTF-8 and the markdown is the source as authored, so `text/markdown; charset=utf-8`
 * or RFC 7763's `text/markdown; variant=GFM` asks for the markdown. Negotiated as sent,
 * a range with parameters never matched an offer without them (HTML came back instead).
 */
function withoutParameters(accept: string): string {
  return accept
    .split(',')
    .map((range) => {
      const [type = '', ...params] = range.split(';');
      return [type, ...params.filter((p) => /^\s*q\s*=/i.test(p))].join(';');
    })
    .join(',');
}

/** Which of OFFERED the request prefers, its media ranges read without their parameters. */
function preferred(req: Request): string | false {
  const accept = req.headers.accept;
  if (accept === undefined || !accept.includes(';')) return req.accepts(OFFERED);
  req.headers.accept = withoutParameters(accept);
  try {
    return req.accepts(OFFERED);
  } finally {
    req.headers.accept = accept;
  }
}

/** A later page of a list: `/tags/nginx/page/2/` → `/tags/nginx/`. */
const LATER_PAGE = /^(.*\/)page\/\d+\/$/;

function send(req: Request, res: Response, path: string, type: string, next: (error?: unknown) => void, extra: Record<string, string> = {}, ofFile?: (opened: OpenedFile) => Promise<Record<string, string>>): void {
  const headers = async (r: Response, _path: string, opened: OpenedFile) => {
    const fromFile = ofFile ? await ofFile(opened) : {};
    for (const [k, v] of Object.entries({ 'Content-Type': type, 'Cache-Control': 'public, max-age=0, must-revalidate', 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': STATIC_EXPOSED, ...extra, ...fromFile })) r.setHeader(k, v);
  };
  sendWholeFile(req, res, path, headers).then((outcome) => outcome !== 'sent' && next(), next);
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
  // OPTIONS is the static files' (204 with Allow for a file, 404 where there is none): left
  // here, the router's automatic answer to the GET routes below took it, 200 "GET, HEAD" on any path.
  router.use((req, _res, next) => next(req.method === 'OPTIONS' ? 'router' : undefined));
  const root = resolve(distDir);
  const pages = pageIndex();
  const tokens = markdownTokens();
  const inside = (path: string) => path === root || path.startsWith(root + sep);

  /**
   * Send a markdown file with its token count, the Content Signals and the page's links:
   * as text/markdown when negotiated or a twin; `post.md` asked for by name as
   * text/plain (spec 4.1).
   */
  const sendMarkdown = (req: Request, res: Response, file: string, page: PageLinks | null, next: (error?: unknown) => void, type: string = CONTENT_TYPES.markdown) => {
    const config = state.site.config;
    res.setHeader('Link', linkHeader(config, page));
    send(req, res, file, type, next, { 'Content-Signal': contentSignal(config) }, async (opened) => ({ 'x-markdown-tokens': String(await tokens(file, opened)) }));
  };

  router.get('/openapi.json', (_req, res, next) => {
    // RFC 8631: the API description describes itself too.
    res.setHeader('Link', linkHeader(state.site.config, null));
    next();
  });
  router.get(/\.md$/, async (req, res, next) => {
    const decoded = safeDecode(req.path);
    const file = resolve(root, `.${decoded}`);
    if (!inside(file) || !existsSync(file)) return next();
    // `…/post.md` and `…/index.md` belong to the page of their folder; agents.md to none.
    const dir = `${dirname(decoded).replace(/\/$/, '')}/`;
    const page = decoded.endsWith('/post.md') || decoded.endsWith('/index.md') ? (pages(state.site).get(dir) ?? listPageLinks(encodeURI(dir))) : null;
    sendMarkdown(req, res, file, page, next, decoded.endsWith('/post.md') ? CONTENT_TYPES.text : CONTENT_TYPES.markdown);
  });
  router.get(/\/$/, async (req, res, next) => {
    if (req.path.startsWith('/api/')) return next();
    const decoded = safeDecode(req.path);
    const dir = resolve(root, `.${decoded}`);
    if (!inside(dir)) return next();
    if (!existsSync(join(dir, 'index.html'))) return next();
    // A later page of a list shares its list's twin.
    const listPath = LATER_PAGE.exec(req.path)?.[1];
    const twinDir = listPath !== undefined && !existsSync(join(dir, 'index.md')) ? resolve(root, `.${safeDecode(listPath)}`) : dir;
    const page = pages(state.site).get(decoded) ?? (existsSync(join(twinDir, 'index.md')) ? { path: req.path, markdown: `${listPath ?? req.path}index.md` } : null);
    res.setHeader('Link', linkHeader(state.site.config, page));
    res.vary('Accept');
    const wanted = preferred(req);
    if (wanted === 'text/markdown' && page) {
      const file = page.slug === undefined ? join(twinDir, 'index.md') : join(dir, 'post.md');
      if (existsSync(file)) return sendMarkdown(req, res, file, page, next);
    }
    if (wanted === 'application/json' && page?.slug !== undefined) {
      const file = join(root, 'api', 'post', toFileName(page.slug));
      if (existsSync(file)) return send(req, res, file, CONTENT_TYPES.json, next);
    }
    next();
  });
  return router;
}
