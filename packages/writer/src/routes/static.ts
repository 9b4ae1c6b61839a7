/**
 * Serve `dist/` with the right content type for every output (the extensionless
 * `/api/*` mirrors are JSON), ETag and Cache-Control, each file whole even while a
 * rebuild replaces it (`http/send-file.ts`). Names in `/api/post|model|comments/`
 * are looked up through the same file-name encoding the generator uses, so both
 * `/api/model/meta%2Fllama` and `/api/model/meta%252Fllama` find the file. Hidden
 * files (a leading `.` in any segment: temporary files of a write) are never served.
 */
import { Router, type Request, type Response } from 'express';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CATEGORIES, CONTENT_TYPES, toFileName } from '@agora/generator';
import { AppError } from '../errors.ts';
import { sendWholeFile } from '../http/send-file.ts';

function contentType(path: string): string | null {
  const p = path.replace(/\\/g, '/');
  if (/\/api\/[^.]*$/.test(p)) return CONTENT_TYPES.json;
  // JSON Feed's own type (jsonfeed.org 1.1): the site's, each list's and each post's comment feed.
  if (/\/(feed|comments)\.json$/.test(p)) return CONTENT_TYPES.jsonFeed;
  if (p.endsWith('.json')) return CONTENT_TYPES.json;
  // Spec 4.1: a post's source answers text/plain; the other markdown twins text/markdown.
  if (p.endsWith('/post.md')) return CONTENT_TYPES.text;
  if (p.endsWith('.md')) return CONTENT_TYPES.markdown;
  if (p.endsWith('.txt')) return CONTENT_TYPES.text;
  if (p.endsWith('.xml')) return 'application/xml; charset=utf-8';
  // Feeds carry their charset as every other text does (the Atom files are UTF-8).
  if (p.endsWith('.atom')) return CONTENT_TYPES.atom;
  if (p.endsWith('.html')) return 'text/html; charset=utf-8';
  if (p.endsWith('.css')) return 'text/css; charset=utf-8';
  if (p.endsWith('.js')) return 'text/javascript; charset=utf-8';
  if (p.endsWith('.svg')) return 'image/svg+xml';
  if (p.endsWith('/_headers')) return CONTENT_TYPES.text;
  return null;
}

/** What a script on another origin needs to revalidate a file it read (If-None-Match, If-Modified-Since). */
export const STATIC_EXPOSED = 'ETag, Last-Modified';

function setHeaders(res: Response, path: string): void {
  const type = contentType(path);
  if (type) res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=3600' : 'public, max-age=0, must-revalidate');
  // What agents and other sites' scripts read: the mirrors, markdown, text and both feed formats.
  if (/\/api\/|\.md$|\.txt$|\.json$|\.atom$/.test(path.replace(/\\/g, '/'))) {
    res.setHeader('Access-Control-Allow-Origin', '*');
    // The /api/ mirrors have the writer's longer list already (`cors` in app.ts).
    if (!res.hasHeader('Access-Control-Expose-Headers')) res.setHeader('Access-Control-Expose-Headers', STATIC_EXPOSED);
  }
}

const NAMED = ['post', 'model', 'comments', 'tag'] as const;

const jsonHeaders = (res: Response) => {
  res.setHeader('Content-Type', CONTENT_TYPES.json);
  res.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
  res.setHeader('Access-Control-Allow-Origin', '*');
};

/** 400 for a NUL byte: no file name holds one (the file system would refuse the call). */
function refuseNul(path: string, field?: string): void {
  if (path.includes('\0')) throw new AppError('validation', 'The path contains a NUL byte', field ? { field } : {});
}

/** The file path of a request under `distDir`, or null when it may not be served. Throws 403 for `..`. */
function fileOf(distDir: string, req: Request): string | null {
  let path: string;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    throw new AppError('validation', 'The path is not valid percent-encoding');
  }
  refuseNul(path);
  const segments = path.split('/');
  if (segments.includes('..')) throw new AppError('forbidden', 'Forbidden path');
  if (segments.some((s) => s.startsWith('.'))) return null;
  return join(distDir, ...segments);
}

export function staticRoutes(distDir: string): Router {
  const router = Router();
  router.get('/api/category/:cat', async (req, res, next) => {
    const cat = req.params.cat as string;
    refuseNul(cat, 'cat');
    if ((CATEGORIES as readonly string[]).includes(cat) && (await sendWholeFile(req, res, join(distDir, 'api', 'category', cat), jsonHeaders)) === 'sent') return;
    next(new AppError('not_found', `No category ${JSON.stringify(cat)}; the categories are ${CATEGORIES.join(', ')}`, { field: 'cat' }));
  });
  for (const kind of NAMED) {
    router.get(`/api/${kind}/:name`, async (req, res, next) => {
      const name = req.params.name as string;
      const field = kind === 'model' || kind === 'tag' ? kind : 'slug';
      refuseNul(name, field);
      // First the file a static host serves for this path (the name is the file name:
      // every link the site makes is so), then the file of a post or model named so
      // (a client that encoded the name itself). Slug-first, `x%25y` decoded to `x%y`
      // found the post `x%y`'s file while a static host serves `x%25y`'s.
      for (const candidate of [name, toFileName(name)]) {
        if (candidate.includes('/') || candidate.startsWith('.') || candidate === '') continue;
        if ((await sendWholeFile(req, res, join(distDir, 'api', kind, candidate), jsonHeaders)) === 'sent') return;
      }
      const what = kind === 'model' ? 'No posts by model' : kind === 'tag' ? 'No post has the tag' : 'No post with slug';
      next(new AppError('not_found', `${what} ${JSON.stringify(name)}`, { field }));
    });
  }
  router.use(async (req, res, next) => {
    const path = fileOf(distDir, req);
    if (path === null) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return wrongMethod(req.method, req.path.endsWith('/') ? join(path, 'index.html') : path, res, next);
    const outcome = await sendWholeFile(req, res, req.path.endsWith('/') ? join(path, 'index.html') : path, setHeaders);
    if (outcome !== 'directory') return outcome === 'sent' ? undefined : next();
    // A folder with no page of its own (`/api/post`, which holds one file per post): no
    // redirect to a slash that is a 404 too.
    if (!(await stat(join(path, 'index.html')).catch(() => null))?.isFile()) return next();
    // A folder named without its slash: redirect, as static servers do (relative links then resolve).
    const query = req.originalUrl.slice(req.originalUrl.indexOf('?') >= 0 ? req.originalUrl.indexOf('?') : req.originalUrl.length);
    // Leading slashes collapsed: `//guide` made `Location: //guide/`, which a browser reads as the host `guide`.
    res.redirect(301, `${req.baseUrl}${req.path}/`.replace(/^\/+/, '/') + query);
  });
  return router;
}

const STATIC_METHODS = 'GET, HEAD, OPTIONS';

/**
 * Another method on a file of the site: 405 with `Allow` (a preflight `OPTIONS`, 204),
 * as the writer's own routes answer; a path with no file falls through to the 404.
 */
async function wrongMethod(method: string, path: string, res: Response, next: (error?: unknown) => void): Promise<void> {
  const file = await stat(path).catch(() => null);
  if (!file?.isFile()) return next();
  res.setHeader('Allow', STATIC_METHODS);
  if (method === 'OPTIONS') {
    // A CORS preflight: what a file answers decides whether a script may read it; the
    // preflight lets a conditional GET (If-None-Match, If-Modified-Since) through.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', STATIC_METHODS);
    res.setHeader('Access-Control-Allow-Headers', 'Accept, If-None-Match, If-Modified-Since');
    res.setHeader('Access-Control-Max-Age', '86400');
    return void res.status(204).end();
  }
  next(new AppError('method_not_allowed', `${method} is not allowed here; allowed: ${STATIC_METHODS} (this is a file of the static site)`, { headers: { Allow: STATIC_METHODS } }));
}
