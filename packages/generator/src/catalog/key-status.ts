/**
 * The status an entry shows is the truth of the server that builds the site (issue 20,
 * item 7): an entry whose provider key this process does not have is `pending_key` in
 * `catalog.json`, its pages, llms.txt and everything else read from the site model,
 * because its endpoint answers 503 `not_configured` until the key is set. The building
 * process says which keys it lacks (`BuildOptions.missingKeys`: the writer from the
 * environment it serves with, `agora build` from its own environment); the generator
 * knows no key setting itself. A key set later turns the entry back to its authored
 * status at the next build or start. An entry authored `pending_key` stays so: opening
 * it is an edit of `catalog.yaml`.
 */
import type { Catalog } from './types.ts';

/** Catalog entries (by slug) whose provider key is not configured, each with the settings that would hold it. */
export type MissingKeys = ReadonlyMap<string, readonly string[]>;

/**
 * The catalog with every entry in `missing` marked `pending_key`.
 *
 * @param catalog The loaded catalog (null: none).
 * @param missing Entries whose key is absent; undefined: nothing known, the authored statuses stand.
 * @returns The same object when nothing changes, else a copy.
 * @example
 * withKeyStatus(catalog, new Map([['weather-forecast', ['AGORA_KMA_KEY', 'AGORA_DATA_GO_KR_KEY']]]))
 */
export function withKeyStatus(catalog: Catalog | null, missing: MissingKeys | undefined): Catalog | null {
  if (!catalog || !missing || missing.size === 0) return catalog;
  if (!catalog.services.some((s) => s.status === 'active' && missing.has(s.slug))) return catalog;
  return { ...catalog, services: catalog.services.map((s) => (s.status === 'active' && missing.has(s.slug) ? { ...s, status: 'pending_key' } : s)) };
}
