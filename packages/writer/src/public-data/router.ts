/**
 * `createPublicDataRouter`: the six simple endpoints (`/api/weather`, `/api/apt`,
 * `/api/tour`, `/api/bizinfo`, `/api/corp`, `/api/biznotice`) and the catalog proxy
 * (`POST /agencatalog/api/call`), sharing one quota store, one cache and the clock.
 */
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Catalog } from '@agora/generator';
import { AppError, isJsonRefused, toAppError } from '../errors.ts';
import { utf8Json } from '../http/utf8-json.ts';
import { createOperationTables } from '../upstream/index.ts';
import { loadProviderConfig } from './config.ts';
import { createQuota } from './quota.ts';
import type { Store } from '../store/types.ts';
import { createResponseCache } from './cache.ts';
import type { PublicDataContext } from './context.ts';
import { weatherRoute } from './routes/weather.ts';
import { aptRoute } from './routes/apt.ts';
import { tourRoute } from './routes/tour.ts';
import { bizinfoRoute } from './routes/bizinfo.ts';
import { corpRoute } from './routes/corp.ts';
import { biznoticeRoute } from './routes/biznotice.ts';
import { checkAgentToken, requireAgentToken } from './routes/agent-token.ts';
import { proxyAnswer, proxyRoute } from './routes/proxy.ts';
import { configuredTokens, type ConfiguredTokens } from './tokens.ts';
import type { SimpleAnswer } from './routes/simple-call.ts';

/** Options of `createPublicDataRouter`. */
export interface PublicDataRouterOptions {
  /** The loaded catalog (entries, statuses, rate limits, attribution). */
  catalog: Catalog;
  /** The store: daily quotas and agent tokens live there. */
  store: Store;
  /** Environment with provider keys and base URLs (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Clock (default `() => new Date()`); quotas reset and forecasts roll over by it. */
  now?: () => Date;
  /** Proxy tokens given as configuration (default: read from `env.AGORA_AGENT_TOKENS`). */
  agentTokens?: ConfiguredTokens;
}

/** The six simple endpoints by name. */
export type SimpleEndpoint = 'weather' | 'apt' | 'tour' | 'bizinfo' | 'corp' | 'biznotice';

/** The paths this router serves (a site without a catalog has none of them: its 404 says why). */
export const PUBLIC_DATA_PATHS: readonly string[] = ['/api/weather', '/api/apt', '/api/tour', '/api/bizinfo', '/api/corp', '/api/biznotice', '/agencatalog/api/call'];

/** The endpoints as functions, for callers other than HTTP (the MCP tools). */
export interface PublicDataCalls {
  /** A simple endpoint with its query parameters (strings, as in a query string). */
  simple(endpoint: SimpleEndpoint, query: Record<string, string>): Promise<unknown>;
  /** The proxy: the agent token as sent (checked here) and the `{service, operation, params}` body. */
  proxy(token: string | undefined, body: unknown): Promise<unknown>;
}

/** The router and how to stop it. */
export interface PublicDataRouter {
  router: express.Router;
  calls: PublicDataCalls;
  /** Flush quota counters to the store (the store itself stays open: its owner closes it). */
  close(): Promise<void>;
}

/** JSON body parser whose failures are `AppError`s. */
function jsonBody(): RequestHandler {
  const parse = utf8Json({ limit: '16kb', strict: true, type: () => true });
  const translate: ErrorRequestHandler = (error: { type?: string; body?: string }, _req, _res, next) => {
    if (error.type === 'entity.too.large') return next(new AppError('payload_too_large', 'body must be at most 16384 bytes (16 KiB)', { field: 'body' }));
    // JSON, but not an object (`null`, `42`, `"x"`): said as such, not as JSON that does not parse.
    if (isJsonRefused(error)) return next(new AppError('validation', `body must be a JSON object {"service", "operation", "params"}, not ${JSON.stringify(error.body).slice(0, 40)}`, { field: 'body' }));
    // The rest as every route words it: JSON that does not parse, an unknown or mismatched Content-Encoding (naming that header), a charset.
    next(toAppError(error) ?? new AppError('validation', 'body could not be read', { field: 'body' }));
  };
  return (req, res, next) => {
    // No body at all (no Content-Length, no chunks): `req.is` knows no type for it.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next(new AppError('validation', 'body is required: a JSON object {"service", "operation", "params"}', { field: 'body' }));
    if (!req.is('application/json')) return next(new AppError('unsupported_media_type', 'header/Content-Type must be application/json', { field: 'Content-Type' }));
    parse(req, res, (error?: unknown) => (error ? translate(error, req, res, next) : next()));
  };
}

/**
 * Create the public-data router.
 *
 * @param options Catalog, data folder, environment and clock.
 * @example
 * const publicData = createPublicDataRouter({ catalog, store });
 * app.use(publicData.router);
 * // on shutdown: await publicData.close();
 */
export function createPublicDataRouter(options: PublicDataRouterOptions): PublicDataRouter {
  const now = options.now ?? (() => new Date());
  const config = loadProviderConfig(options.env ?? process.env);
  const envTokens = options.agentTokens ?? configuredTokens((options.env ?? process.env).AGORA_AGENT_TOKENS);
  const quota = createQuota(options.store.quotas, now);
  const ctx: PublicDataContext = {
    catalog: options.catalog,
    config,
    quota,
    cache: createResponseCache({ now, maxEntries: config.cacheMaxEntries }),
    inflight: new Map(),
    operations: createOperationTables(),
    now,
  };

  const router = express.Router();
  // Answers are fresh for a minute at most downstream; the proxy's are per agent. A HEAD
  // is answered by the GET route and gets the headers its GET gets (RFC 9110 9.3.2).
  const ready: RequestHandler = (req, res, next) => {
    res.setHeader('Cache-Control', req.method === 'GET' || req.method === 'HEAD' ? 'public, max-age=60' : 'no-store');
    next();
  };
  const simple: Record<SimpleEndpoint, SimpleAnswer> = {
    weather: weatherRoute(ctx),
    apt: aptRoute(ctx),
    tour: tourRoute(ctx),
    bizinfo: bizinfoRoute(ctx),
    corp: corpRoute(ctx),
    biznotice: biznoticeRoute(ctx),
  };
  for (const [name, answer] of Object.entries(simple)) {
    router.get(`/api/${name}`, ready, async (req, res) => void res.json(await answer(req)));
  }
  router.post('/agencatalog/api/call', ready, requireAgentToken(options.store.tokens, envTokens), jsonBody(), proxyRoute(ctx));
  router.all('/agencatalog/api/call', () => {
    throw new AppError('method_not_allowed', 'Use POST /agencatalog/api/call with X-Agent-Token and a JSON body {service, operation, params}', { headers: { Allow: 'POST' } });
  });

  const proxy = proxyAnswer(ctx);
  const calls: PublicDataCalls = {
    simple: (endpoint, query) => simple[endpoint]({ query }),
    proxy: async (token, body) => proxy(body, await checkAgentToken(options.store.tokens, token, envTokens)),
  };
  return { router, calls, close: () => quota.flush() };
}
