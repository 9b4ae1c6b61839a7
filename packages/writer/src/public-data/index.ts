/**
 * @module public-data: the six keyless endpoints, the catalog proxy, agent tokens
 * and the provider configuration.
 */
export { createPublicDataRouter, type PublicDataRouter, type PublicDataRouterOptions } from './router.ts';
export { createToken, listTokens, revokeToken, verifyToken, type TokenRecord, type TokenCheck } from './tokens.ts';
export { loadProviderConfig, PROVIDER_DEFAULTS, urlEnv, quotaEnv, type PublicDataConfig, type ProviderSettings } from './config.ts';
export { keyStatusFromEnv, missingProviderKeys, missingCatalogKeys, type MissingProviderKey } from './key-status.ts';
export type { Envelope, EnvelopeSource } from './envelope.ts';
