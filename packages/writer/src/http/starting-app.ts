/**
 * What the writer answers while it starts (issue 19: listen within seconds). The
 * process listens before its start-up build, serving the existing `dist/` as it is:
 * pages and mirrors are whole files from the last run, so they are safe to serve.
 * `/api/health` says `starting`. Everything that needs the built state (comments, views,
 * search, MCP, content negotiation) waits for it, at most `waitMs`, then answers 503
 * `starting` with `Retry-After` (on `/mcp` a JSON-RPC error, -32000 with that error as
 * `data`): refused before anything is stored, never accepted and dropped.
 */
import type { RequestListener } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import type { SiteConfig } from '@agora/generator';
import { AppError, sendError } from '../errors.ts';
import { staticRoutes } from '../routes/static.ts';
import { securityHeaders } from './security-headers.ts';
import type { HealthState } from '../health.ts';
import { mcpErrorAnswer } from '../mcp/http.ts';

export interface StartingAppOptions {
  distDir: string;
  site: SiteConfig;
  store: string;
  startedAt: Date;
  /** Resolves with the full app once the writer has caught up. */
  ready: Promise<RequestListener>;
  /** Longest a request that needs the full app waits for it (ms). */
  waitMs: number;
  /** What keeps the start from catching up (the database away, dist/ full), shown as `problems`. */
  health?: HealthState;
}

/**
 * GET/HEAD answered from the files as they are: not negotiated pages, not the writer's own
 * GETs. Only pages (`…/`) are negotiated, and markdown files carry the headers of the built
 * site: any other file (`llms.txt`, `openapi.json`, `catalog.json` …) is served whatever
 * `Accept` says (axios's default, JSON, then text, then any type, made them wait).
 */
function isStaticRead(req: express.Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.path.startsWith('/api/search') || req.path === '/mcp' || req.path === '/api/health') return false;
  if (req.path.startsWith('/api/')) return true;
  if (!req.path.endsWith('/') && !req.path.endsWith('.md')) return true;
  const accept = req.get('accept') ?? '';
  return !/text\/markdown|application\/json/i.test(accept);
}

export function createStartingApp(options: StartingAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', 'weak');
  /** What keeps the start from catching up now, or null. */
  const problems = () => (options.health?.status === 'degraded' ? options.health.report() : null);
  const waitForFull: RequestHandler = async (req, res, next) => {
    // Held up by a problem that takes a person (dist/ full) or a retry (the database away):
    // refused at once, saying why, rather than after the whole wait.
    const held = Object.values(problems() ?? {});
    if (held.length > 0) return next(new AppError('starting', `The writer is starting and cannot catch up yet: ${held.map((p) => p.reason).join('; ')}. Nothing was stored. Retry shortly.`, { headers: { 'Retry-After': '10' } }));
    let timer: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      options.ready.catch(() => null),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), options.waitMs))),
    ]);
    clearTimeout(timer);
    if (ready) return void ready(req, res);
    next(new AppError('starting', 'The writer is starting and has not caught up yet; nothing was stored. Retry shortly.', { headers: { 'Retry-After': '5' } }));
  };
  app.use(securityHeaders(options.site));
  app.get('/api/health', (_req, res) => {
    const now = problems();
    res.set('Cache-Control', 'no-store').json({ status: 'starting', store: options.store, uptime_s: Math.round((Date.now() - options.startedAt.getTime()) / 1000), ...(now ? { problems: now } : {}) });
  });
  const files = staticRoutes(options.distDir);
  app.use((req, res, next) => (isStaticRead(req) ? files(req, res, () => waitForFull(req, res, next)) : waitForFull(req, res, next)));
  // `/mcp` refusals are JSON-RPC errors, as on the full app: -32000 with the writer's error as `data`.
  app.use(((error, req, res, _next) => sendError(req, res, error, undefined, mcpErrorAnswer)) as express.ErrorRequestHandler);
  return app;
}
