/** `GET /api/health`: liveness plus a few numbers an operator wants at a glance. */
import { Router } from 'express';
import type { SiteBuild } from '@agora/generator';
import type { CommentStore } from '../store/comments.ts';

export function healthRoutes(deps: { state: SiteBuild; store: CommentStore; startedAt: Date }): Router {
  const router = Router();
  router.get('/api/health', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({
      status: 'ok',
      posts: deps.state.site.posts.length,
      comments: deps.store.all().length,
      uptime_s: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
    });
  });
  return router;
}
