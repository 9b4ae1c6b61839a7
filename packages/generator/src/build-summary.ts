/**
 * The one-line summary of a build or rebuild, worded the same way every time so a
 * person reads it without guessing: how many bodies were rendered and how many were
 * taken from the cache, then how many files the site has and what happened to them
 * (written, unchanged, removed), then the search index.
 */
import type { BuildResult } from './build/types.ts';
import type { SearchIndexResult } from './emit/search-index.ts';
import type { SearchIndexStatus } from './build/search-indexer.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * @param result What `build()` or `SiteBuild.updateSources()` returned.
 * @param lead The opening words, e.g. `built 16 posts` or `rebuilt after 1 change`.
 * @example
 *   describeBuild(result, 'built 16 posts')
 *   // 'built 16 posts in 812 ms: 16 posts rendered, 0 taken from cache; 471 files: 471 written, 0 unchanged, 0 removed'
 */
export function describeBuild(result: Omit<BuildResult, 'messages'>, lead: string): string {
  const unchanged = Math.max(0, result.outputs - result.written.length);
  const search = result.search ? `; search index: ${describeSearch(result.search)}` : '';
  return `${lead} in ${result.ms} ms: ${plural(result.rendered, 'post')} rendered, ${result.fromCache} taken from cache; ${plural(result.outputs, 'file')}: ${result.written.length} written, ${unchanged} unchanged, ${result.removed.length} removed${search}`;
}

/** `980 post pages (1 of 4 shards) indexed by Pagefind in 1400 ms`. */
export function describeSearch(search: SearchIndexResult): string {
  const shards = search.of > 1 ? ` (${search.shards} of ${search.of} shards)` : '';
  return `${plural(search.pages, 'post page')}${shards} indexed by Pagefind in ${search.ms} ms`;
}

/**
 * The dev log's line after a background run of the search index: what it did and how far
 * behind the site it was, or that it failed and is still stale.
 *
 * @param result The run (null when nothing needed indexing).
 * @param status The indexer's status after it.
 * @param error The failure, if it failed.
 */
export function describeSearchRun(result: SearchIndexResult | null, status: SearchIndexStatus, error?: unknown): string {
  if (error) return `search index: failed (${(error as Error).message}); ${plural(status.pendingPages, 'post page')} not yet searchable, retried on the next edit`;
  const lag = status.lastLagMs === null ? '' : `; it was ${(status.lastLagMs / 1000).toFixed(1)} s behind the site`;
  const now = status.state === 'current' ? 'up to date' : `${status.state}, ${plural(status.pendingPages, 'post page')} waiting`;
  return result ? `search index: ${describeSearch(result)}${lag}; ${now}` : `search index: ${now}`;
}
