/**
 * `GET /api/health`: `ok` or `degraded` with the reasons (a rebuild that keeps failing,
 * quarantined comments, the store), the provider keys that are not configured
 * (`missing_keys`, which leave the status `ok`), plus a few numbers an operator wants at a glance.
 * Always 200 while the process serves, so a load balancer does not pull a node that
 * still answers reads; monitors alert on `status`.
 */
import { Router } from 'express';
import type { SiteBuild } from '@agora/generator';
import type { Store } from '../store/types.ts';
import type { HealthState } from '../health.ts';

export function healthRoutes(deps: { state: SiteBuild; store: Store; health: HealthState; startedAt: Date }): Router {
  const router = Router();
  router.get('/api/health', (_req, res) => {
    let comments = 0;
    for (const list of deps.state.site.comments.values()) comments += list.length;
    res.set('Cache-Control', 'no-store').json({
      status: deps.health.status,
      ...(deps.health.status === 'ok' ? {} : { problems: deps.health.report() }),
      // Always present ([] when every key is set): which provider keys are missing, the
      // settings that would hold each, and the catalog entries that are pending_key for it.
      missing_keys: deps.health.missingKeys,
      store: deps.store.engine,
      posts: deps.state.site.posts.length,
      comments,
      aggregates_pending: deps.state.aggregatesPending,
      uptime_s: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
    });
  });
  return router;
}
