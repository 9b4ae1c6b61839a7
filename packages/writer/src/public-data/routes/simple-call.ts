/**
 * Shared shape of the simple endpoints: call one catalog operation with validated
 * parameters, cache it for the operation's TTL, and answer the envelope.
 */
import type { Request } from 'express';
import type { UpstreamContext } from '../../upstream/types.ts';
import type { PublicDataContext } from '../context.ts';
import { callService } from '../call-service.ts';
import { ttlFor } from '../cache-policy.ts';
import type { Envelope } from '../envelope.ts';

/** A simple endpoint's work: the query in, the JSON answer out (HTTP or MCP around it). */
export type SimpleAnswer = (req: { query: Request['query'] }) => Promise<unknown>;

/**
 * Call `operation` of `slug` for a simple endpoint.
 *
 * @param ctx The router's shared state.
 * @param slug Catalog slug.
 * @param operation Public operation id.
 * @param params Validated parameters (also the cache key).
 * @param run The upstream work.
 */
export function simpleCall(
  ctx: PublicDataContext,
  slug: string,
  operation: string,
  params: Readonly<Record<string, string | undefined>>,
  run: (upstream: UpstreamContext, params: Readonly<Record<string, string>>) => Promise<unknown>,
): Promise<Envelope> {
  const defined = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return callService(ctx, {
    scope: 'api',
    slug,
    operation,
    cacheParams: defined,
    expiresAt: (fetchedAt) => new Date(fetchedAt.getTime() + ttlFor(operation)),
    run: (upstream) => run(upstream, defined),
  });
}
