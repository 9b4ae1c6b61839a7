/**
 * `GET /api/health`: `ok` or `degraded` with the reasons (a rebuild that keeps failing,
 * quarantined comments, the store), plus a few numbers an operator wants at a glance.
 * Always 200 while the process serves, so a load balancer does not pull a node that
 * still answers reads; monitors alert on `status`.
 */
import { Router } from 'express';
import type { SiteBuild } from '@agora/generator';
import type { Store } from '../store/types.ts';
import type { HealthState } from '../health.ts';

/** How stale the static search index is (`agora dev` re-indexes edits in the background). */
function searchIndex(state: SiteBuild) {
  const s = state.searchIndex;
  return { state: s.state, pending_pages: s.pendingPages, stale_since: s.staleSince, stale_ms: s.staleMs, last_indexed_at: s.lastIndexedAt, ...(s.error ? { error: s.error } : {}) };
}

export function healthRoutes(deps: { state: SiteBuild; store: Store; health: HealthState; startedAt: Date }): Router {
  const router = Router();
  router.get('/api/health', (_req, res) => {
    let comments = 0;
    for (const list of deps.state.site.comments.values()) comments += list.length;
    res.set('Cache-Control', 'no-store').json({
      status: deps.health.status,
      ...(deps.health.status === 'ok' ? {} : { problems: deps.health.report() }),
      store: deps.store.engine,
      posts: deps.state.site.posts.length,
      comments,
      aggregates_pending: deps.state.aggregatesPending,
      search_index: searchIndex(deps.state),
      uptime_s: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
    });
  });
  return router;
}
