/**
 * Shared types of the upstream clients: provider ids, the per-call context (base
 * URL, key, limits, quota hook) and the operation table each provider exports.
 */

/** The ten providers, one folder each. */
export const PROVIDER_IDS = ['kma', 'kapt', 'tour', 'nts', 'fsc', 'mss', 'law', 'dart', 'ecos', 'rtms'] as const;

/** Id of one provider. */
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** Everything a client needs for one call. */
export interface UpstreamContext {
  provider: ProviderId;
  /** Base URL without a trailing slash, e.g. `https://apis.data.go.kr/1360000/VilageFcstInfoService_2.0`. */
  baseUrl: string;
  /** The provider key (already URL-decoded). */
  key: string;
  /** Name of the setting that holds the key, for messages. */
  keyEnv: string;
  timeoutMs: number;
  /** Extra attempts for an idempotent GET after a network error. */
  retries: number;
  /** Called once before every upstream request; throws to refuse it (quota). */
  beforeRequest?: () => Promise<void> | void;
  /** Clock, for Retry-After on quota errors. */
  now: () => Date;
}

/** Operation parameters as validated strings. */
export type Params = Readonly<Record<string, string>>;

/** One callable operation: validated params in, normalized JSON data out. */
export type OperationCall = (params: Params, ctx: UpstreamContext) => Promise<unknown>;

/** A provider's operations by public operation id. */
export type OperationTable = Readonly<Record<string, OperationCall>>;
