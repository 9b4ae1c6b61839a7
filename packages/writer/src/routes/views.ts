/**
 * `PUT /api/views/{slug}`: no body, no key; answers the new count once it is stored
 * (`ViewCounter.count`: batched with the PUTs around it, synced to disk first).
 *
 * The hottest route, so its plain form is served before Express (`viewsFastPath`),
 * with what the Express stack would have given it: the security and CORS headers, the
 * request log line, the per-address view budget and its headers, the same answer. Any
 * other form (a percent-escaped slug, an unknown slug's 404, HEAD, OPTIONS) goes on to
 * Express and `viewRoutes`, as does everything while the fast path is not installed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router } from 'express';
import type { Logger } from 'pino';
import type { SiteBuild } from '@agora/generator';
import { AppError, answerFor, writeError } from '../errors.ts';
import { resolvePostSlug } from '../post-slug.ts';
import type { ViewCounter } from '../views/view-counter.ts';
import { setHeaders, type HeaderList } from '../http/security-headers.ts';
import type { RequestLog } from '../http/request-log.ts';

export interface ViewRouteDeps {
  state: SiteBuild;
  views: ViewCounter;
}

/**
 * Wait until the request is read to its end: `true`, or `false` when the connection
 * closed first (a body cut off, or its framing refused with 400 by Node's parser), when
 * nothing may be counted. A PUT without a body is complete by the time it is counted.
 */
function readToEnd(req: IncomingMessage): boolean | Promise<boolean> {
  if (req.complete) return true;
  return new Promise((resolve) => {
    req.once('end', () => resolve(true));
    req.once('close', () => resolve(req.complete));
    req.resume();
  });
}

/** Count one view and answer the new count once it is stored (a store failure throws: 503 or 507, not counted). */
async function countView(deps: ViewRouteDeps, slug: string, res: ServerResponse): Promise<void> {
  const views = await deps.views.count(slug);
  // Written directly: no ETag hashing of a count that changes with every answer.
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`{"views":${views}}`);
}

/** The route in the Express stack (after its headers, log and budget middleware). */
export function viewRoutes(deps: ViewRouteDeps): Router {
  const router = Router();
  // `GET /api/views` from the counts in memory: a count answered to a PUT is in it at once,
  // not a flush and an aggregate delay later as in the static mirror (same bytes once those follow).
  let cached: { version: number; posts: unknown; body: string } | null = null;
  router.get('/api/views', (_req, res) => {
    const { posts } = deps.state.site;
    if (cached?.version !== deps.views.version || cached.posts !== posts) {
      cached = { version: deps.views.version, posts, body: `{${posts.map((p) => `${JSON.stringify(p.slug)}:${deps.views.get(p.slug)}`).join(',')}}` };
    }
    res.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
    res.type('application/json; charset=utf-8').send(cached.body);
  });
  router.put('/api/views/:slug', async (req, res) => {
    const given = req.params.slug as string;
    const slug = resolvePostSlug((s) => deps.state.hasPost(s), given, 'path');
    if (slug === undefined) throw new AppError('not_found', `No post with slug ${JSON.stringify(given)}`, { field: 'slug' });
    if (!(await readToEnd(req))) return;
    await countView(deps, slug, res);
  });
  return router;
}

export interface ViewsFastPathDeps extends ViewRouteDeps {
  /** The headers every answer of the writer's `/api/` carries (security, CORS). */
  headers: HeaderList;
  /** The budget key of a request's address (as `trust proxy` says). */
  address: (req: IncomingMessage) => string;
  /** Take a point of the client's view budget: sets its headers on `res`, or throws its 429. */
  charge: (client: string, res: ServerResponse) => Promise<void>;
  log: RequestLog;
  logger: Logger;
}

/** A slug Express would pass through unchanged (no escapes), then an optional slash and query. */
const PLAIN_PUT = /^\/api\/views\/([A-Za-z0-9._~-]+)\/?(?:\?.*)?$/;

/**
 * The plain form of the route, before Express: `true` when it took the request.
 *
 * @example
 * const server = createServer((req, res) => fastViews(req, res) || app(req, res));
 */
export function viewsFastPath(deps: ViewsFastPathDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const answer = async (req: IncomingMessage, res: ServerResponse, slug: string) => {
    try {
      await deps.charge(deps.address(req), res);
      // Counted once the whole request is read: a request refused after its headers counts nothing.
      if (!(await readToEnd(req))) return;
      await countView(deps, slug, res);
    } catch (error) {
      writeError(res, answerFor(error, req.url, deps.logger));
    }
  };
  return (req, res) => {
    if (req.method !== 'PUT') return false;
    const slug = PLAIN_PUT.exec(req.url ?? '')?.[1];
    if (!slug || !deps.state.hasPost(slug)) return false;
    setHeaders(res, deps.headers);
    deps.log?.(req, res);
    void answer(req, res, slug);
    return true;
  };
}
