/**
 * `POST /agencatalog/api/call` with `X-Agent-Token` and `{service, operation, params}`:
 * calls any catalog operation with the server's provider key, spending the agent
 * token's daily quota on top of the provider's. 503 while the entry is pending_key.
 */
import type { RequestHandler } from 'express';
import { AppError } from '../../errors.ts';
import { own } from '../../upstream/shape.ts';
import type { PublicDataContext } from '../context.ts';
import { callService } from '../call-service.ts';
import { ttlFor } from '../cache-policy.ts';
import { SERVICE_PROVIDERS } from '../services.ts';
import { parseProxyInput } from './proxy-input.ts';

/**
 * The proxy route (after `requireAgentToken` and a JSON body parser).
 *
 * @param ctx The router's shared state.
 */
export function proxyRoute(ctx: PublicDataContext): RequestHandler {
  const answer = proxyAnswer(ctx);
  return async function proxyCall(req, res) {
    res.json(await answer(req.body, String(res.locals.agentTokenId)));
  };
}

/**
 * The proxy's work for a checked token: `{service, operation, params}` in, the envelope out.
 *
 * @param ctx The router's shared state.
 */
export function proxyAnswer(ctx: PublicDataContext): (body: unknown, tokenId: string) => Promise<unknown> {
  return async function proxyCall(body, tokenId) {
    const { service, operation, params } = parseProxyInput(ctx.catalog, body);
    if (service.status === 'pending_key') {
      throw new AppError('not_configured', `\`${service.slug}\` is pending_key: its provider key is not set up on this server yet`);
    }
    const providerId = own(SERVICE_PROVIDERS, service.slug);
    const call = providerId ? own(ctx.operations[providerId], operation.id) : undefined;
    if (!call) throw new AppError('not_found', `\`${service.slug}\` operation \`${operation.id}\` has no client on this server`, { field: 'operation' });
    return callService(ctx, {
      scope: 'proxy',
      slug: service.slug,
      operation: operation.id,
      cacheParams: params,
      tokenId,
      expiresAt: (fetchedAt) => new Date(fetchedAt.getTime() + ttlFor(operation.id)),
      run: (upstream) => call(params, upstream),
    });
  };
}
