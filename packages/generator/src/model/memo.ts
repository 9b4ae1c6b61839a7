/**
 * Indexes derived from a site model, memoised on the model itself (`SiteModel.memo`):
 * a new model (an edit) starts with none, so they are never stale across content
 * versions and never shared between two builds in one process. Comments change in
 * place, so `forget` drops what depends on them.
 */
import type { SiteModel } from '../types.ts';

/** The value of `key` for this model, made once. */
export function memoised<T>(site: Pick<SiteModel, 'memo'>, key: symbol, make: () => T): T {
  if (site.memo.has(key)) return site.memo.get(key) as T;
  const value = make();
  site.memo.set(key, value);
  return value;
}

/** Drop a memoised index (its inputs changed in place). */
export function forget(site: Pick<SiteModel, 'memo'>, key: symbol): void {
  site.memo.delete(key);
}
