/** `PUT /api/views/{slug}`: no body, no key; answers the new count. */
import { Router } from 'express';
import type { SiteBuild } from '@agora/generator';
import { AppError } from '../errors.ts';
import type { ViewCounter } from '../views/view-counter.ts';

export function viewRoutes(deps: { state: SiteBuild; views: ViewCounter }): Router {
  const router = Router();
  router.put('/api/views/:slug', (req, res) => {
    const slug = req.params.slug as string;
    if (!deps.state.hasPost(slug)) throw new AppError('not_found', `No post with slug ${JSON.stringify(slug)}`, { field: 'slug' });
    // Written directly: the hottest route skips res.json's ETag hashing of a changing count.
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(`{"views":${deps.views.increment(slug)}}`);
  });
  return router;
}
