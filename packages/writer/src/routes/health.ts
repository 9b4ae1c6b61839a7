/**
 * `GET /api/health`: `ok` or `degraded` with the reasons (a rebuild that keeps failing,
 * the site-wide outputs, the store), the provider keys that are not configured
 * (`missing_keys`, which leave the status `ok`), plus a few numbers an operator wants at a glance:
 * `comments_as_text` lists stored comments shown as escaped text because they cannot be
 * rendered (never hidden: only a moderator hides). While the writer starts, the
 * starting app answers `starting` instead (`http/starting-app.ts`).
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
  router.get('/api/health', (req, res) => {
    const asText = [...((req.app.locals.renderings as { plain?: Map<string, string> } | undefined)?.plain?.keys() ?? [])];
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
      ...(asText.length > 0 ? { comments_as_text: asText.slice(0, 100) } : {}),
      search_index: searchIndex(deps.state),
      uptime_s: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
    });
  });
  return router;
}
