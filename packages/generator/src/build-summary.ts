/**
 * The one-line summary of a build or rebuild, worded the same way every time so a
 * person reads it without guessing: how many bodies were rendered and how many were
 * taken from the cache, then how many files the site has and what happened to them
 * (written, unchanged, removed), then the search index.
 */
import type { BuildResult } from './build/types.ts';

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
  const search = result.search ? `; search index: ${plural(result.search.pages, 'post page')} indexed by Pagefind in ${result.search.ms} ms` : '';
  return `${lead} in ${result.ms} ms: ${plural(result.rendered, 'post')} rendered, ${result.fromCache} taken from cache; ${plural(result.outputs, 'file')}: ${result.written.length} written, ${unchanged} unchanged, ${result.removed.length} removed${search}`;
}
