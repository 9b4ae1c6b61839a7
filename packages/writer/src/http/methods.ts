/**
 * `methodGuard`: a wrong method on a writer route answers 405 `method_not_allowed`
 * with `Allow`, instead of falling through to the static site's 404. GET of
 * `/api/comments/{slug}` is the static mirror and passes; preflight `OPTIONS` is
 * answered earlier by the CORS middleware.
 */
import { Router } from 'express';
import { AppError } from '../errors.ts';
import { PUBLIC_DATA_PATHS } from './rate-limit.ts';

/** Each writer route and the methods it answers. */
export const ALLOWED_METHODS: readonly { path: string | string[]; methods: readonly string[]; use: string }[] = [
  // Before the comment route: `count` is the counts mirror, never a post (slugs begin with a date).
  { path: '/api/comments/count', methods: ['GET', 'HEAD', 'OPTIONS'], use: 'GET reads the comment counts; POST a comment to /api/comments/{slug}' },
  { path: '/api/comments/:slug', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], use: 'GET reads the comments, POST adds one' },
  { path: '/api/views/:slug', methods: ['PUT', 'OPTIONS'], use: 'PUT counts a view; read counts at GET /api/views' },
  { path: PUBLIC_DATA_PATHS, methods: ['GET', 'HEAD', 'OPTIONS'], use: 'these endpoints are read with GET' },
  { path: '/agencatalog/api/call', methods: ['POST', 'OPTIONS'], use: 'POST a JSON body {service, operation, params} with X-Agent-Token' },
  { path: '/api/health', methods: ['GET', 'HEAD', 'OPTIONS'], use: 'GET /api/health' },
  { path: '/api/search', methods: ['GET', 'HEAD', 'OPTIONS'], use: 'GET /api/search?q=…' },
];

/**
 * Create the guard; mount it before the routes.
 *
 * @example
 * app.use(methodGuard());
 */
export function methodGuard(): Router {
  const router = Router();
  for (const route of ALLOWED_METHODS) {
    const allow = route.methods.join(', ');
    router.all(route.path, (req, _res, next) => {
      if (route.methods.includes(req.method)) return next();
      next(new AppError('method_not_allowed', `${req.method} is not allowed here; allowed: ${allow} (${route.use})`, { headers: { Allow: allow } }));
    });
  }
  return router;
}
