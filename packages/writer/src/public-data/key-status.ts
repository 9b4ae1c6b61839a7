/**
 * Which provider keys this writer lacks, from its provider configuration: for the
 * catalog status of the build (each entry served by such a provider is `pending_key`,
 * see the generator's `catalog/key-status.ts`) and for `/api/health`. One reading of
 * the environment for both, the same one the endpoints use (`loadProviderConfig`), so
 * the status never says an entry is callable when its endpoint answers 503.
 */
import type { MissingKeys } from '@agora/generator';
import type { ProviderId } from '../upstream/types.ts';
import { loadProviderConfig, type PublicDataConfig } from './config.ts';
import { SERVICE_PROVIDERS } from './services.ts';

/** A provider whose key is not configured: what `/api/health` lists under `missing_keys`. */
export interface MissingProviderKey {
  provider: ProviderId;
  /** The settings that would hold the key, most specific first (any one of them is enough). */
  env: readonly string[];
  /** The catalog entries it serves, shown as `pending_key` until the key is set. */
  services: string[];
}

/**
 * The providers without a key, in the order of the provider table.
 *
 * @param config The provider configuration (from `loadProviderConfig`).
 */
export function missingProviderKeys(config: PublicDataConfig): MissingProviderKey[] {
  return Object.values(config.providers)
    .filter((p) => p.key === undefined)
    .map((p) => ({ provider: p.id, env: p.keyEnvs, services: Object.keys(SERVICE_PROVIDERS).filter((slug) => SERVICE_PROVIDERS[slug] === p.id) }));
}

/**
 * The catalog entries whose provider key is missing, for `BuildOptions.missingKeys`.
 *
 * @param missing What `missingProviderKeys` found.
 * @example
 * build(config, { missingKeys: missingCatalogKeys(missingProviderKeys(loadProviderConfig(process.env))) })
 */
export function missingCatalogKeys(missing: readonly MissingProviderKey[]): MissingKeys {
  return new Map(missing.flatMap((m) => m.services.map((slug) => [slug, m.env] as const)));
}

/** Both readings from an environment: what the build needs and what health reports. */
export function keyStatusFromEnv(env: NodeJS.ProcessEnv): { providers: MissingProviderKey[]; catalog: MissingKeys } {
  const providers = missingProviderKeys(loadProviderConfig(env));
  return { providers, catalog: missingCatalogKeys(providers) };
}
