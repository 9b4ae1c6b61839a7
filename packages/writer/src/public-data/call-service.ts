/**
 * The path every public-data answer takes: find the entry, require its key, serve
 * from cache when fresh (spending no quota), otherwise share an identical call under
 * way or call the provider, spending the provider's daily quota (and the agent
 * token's) per upstream request; then wrap the data in the envelope.
 */
import { AppError } from '../errors.ts';
import type { UpstreamContext } from '../upstream/types.ts';
import type { PublicDataContext } from './context.ts';
import { SERVICE_PROVIDERS, findService } from './services.ts';
import { toEnvelope, type Envelope } from './envelope.ts';
import type { QuotaBucket } from './quota.ts';
import { own } from '../upstream/shape.ts';
import { redactData } from '../upstream/redact.ts';

/** One call of a catalog entry. */
export interface ServiceCall {
  /** Which door the call came through (`api` simple endpoint, `proxy`); answers differ in shape. */
  scope: 'api' | 'proxy';
  /** Catalog slug, e.g. `weather-forecast`. */
  slug: string;
  /** Public operation id for the envelope. */
  operation: string;
  /** Everything that determines the answer (the cache key). */
  cacheParams: Readonly<Record<string, string>>;
  /** When a fresh answer expires. */
  expiresAt: (fetchedAt: Date, data: unknown) => Date;
  /** The agent token spending on top of the provider (proxy calls). */
  tokenId?: string;
  /** The upstream work. */
  run: (upstream: UpstreamContext) => Promise<unknown>;
}

/** Stable cache key of a call. */
export function cacheKey(call: Pick<ServiceCall, 'scope' | 'slug' | 'operation' | 'cacheParams'>): string {
  const params = Object.entries(call.cacheParams).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([call.scope, call.slug, call.operation, params]);
}

/**
 * Answer one call.
 *
 * @param ctx The router's shared state.
 * @param call What to call and how long the answer stays fresh.
 * @param join Whether to share an identical call already on its way (not after its quota refused it).
 */
export async function callService(ctx: PublicDataContext, call: ServiceCall, join = true): Promise<Envelope> {
  const service = findService(ctx.catalog, call.slug);
  const providerId = own(SERVICE_PROVIDERS, call.slug);
  if (!service || !providerId) throw new AppError('not_configured', `The catalog has no entry \`${call.slug}\`; add it to content/catalog/catalog.yaml`);
  const settings = ctx.config.providers[providerId];
  if (!settings.key) {
    const names = settings.keyEnvs;
    const main = names.at(-1) as string;
    const alt = names.length > 1 ? ` (or ${names.slice(0, -1).join(', ')})` : '';
    throw new AppError('not_configured', `The provider key of \`${service.slug}\` is not configured on this server; the operator must set ${main}${alt}`);
  }

  const key = cacheKey(call);
  const hit = ctx.cache.get(key);
  if (hit) return toEnvelope(service, call.operation, hit.data, hit.fetchedAt, true);
  const shared = join ? ctx.inflight.get(key) : undefined;
  if (shared) {
    try {
      const { data, fetchedAt } = await shared;
      return toEnvelope(service, call.operation, data, fetchedAt, true);
    } catch (error) {
      // A spent quota refused the caller who started the call, perhaps by its own token:
      // this caller's token may have calls left (it was answered the other's 429).
      if (!(error instanceof AppError && error.code === 'rate_limited')) throw error;
      return callService(ctx, call, false);
    }
  }

  const buckets: QuotaBucket[] = [{ key: `service:${service.slug}`, limit: settings.quotaPerDay ?? service.rate_limit.per_day, label: `The daily quota of \`${service.slug}\`` }];
  if (call.tokenId) buckets.unshift({ key: `token:${call.tokenId}`, limit: ctx.config.tokenQuotaPerDay, label: `The daily quota of agent token \`${call.tokenId}\`` });
  const upstream: UpstreamContext = {
    provider: providerId,
    baseUrl: settings.baseUrl,
    key: settings.key,
    keyEnv: settings.keyEnv,
    timeoutMs: ctx.config.timeoutMs,
    retries: ctx.config.retries,
    now: ctx.now,
    beforeRequest: () => ctx.quota.take(buckets),
  };
  // What the provider answered may hold the key (law.go.kr's detail links): masked before it is cached or served.
  const pending = call.run(upstream).then((data) => ({ data: redactData(data, [upstream.key]), fetchedAt: ctx.now() }));
  ctx.inflight.set(key, pending);
  try {
    const { data, fetchedAt } = await pending;
    ctx.cache.set(key, data, fetchedAt, call.expiresAt(fetchedAt, data));
    return toEnvelope(service, call.operation, data, fetchedAt, false);
  } finally {
    ctx.inflight.delete(key);
  }
}
