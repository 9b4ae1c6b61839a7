/**
 * `createApp`: the writer's Express app. Routes for comments, views and health, any
 * extra routers (the public-data endpoints), the static site, then one error funnel
 * that turns everything into `{"error": {"code", "message", "field"?}}`. Its
 * `listener` serves the plain form of the hottest route, `PUT /api/views/{slug}`,
 * before Express (`routes/views.ts`) and hands everything else to the app.
 */
import type { RequestListener } from 'node:http';
import express, { type Express, type Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import proxyAddr from 'proxy-addr';
import type { Logger } from 'pino';
import type { SiteBuild } from '@agora/generator';
import { AppError, sendError } from './errors.ts';
import { StoreError, type Store } from './store/types.ts';
import type { ViewCounter } from './views/view-counter.ts';
import type { Publisher } from './rebuild/publisher.ts';
import type { CommentRenderer } from './comments/comment-renderer.ts';
import type { HiddenTwins } from './comments/hidden-twins.ts';
import type { HealthState } from './health.ts';
import { commentRoutes } from './routes/comments.ts';
import { viewRoutes, viewsFastPath } from './routes/views.ts';
import { healthRoutes } from './routes/health.ts';
import { staticRoutes } from './routes/static.ts';
import { negotiateRoutes } from './routes/negotiate.ts';
import { searchRoutes } from './routes/search.ts';
import { PostSearch } from './search/search-index.ts';
import { mcpErrorAnswer, mcpGuard, mcpRoutes, mcpHostNames } from './mcp/http.ts';
import type { AgentDeps } from './mcp/deps.ts';
import { PUBLIC_DATA_PATHS, type PublicDataCalls } from './public-data/router.ts';
import { loadLimits, type Limits } from './http/limits-config.ts';
import { createRateLimits, type RateLimitStore } from './http/rate-limit.ts';
import { createDuplicateGuard } from './http/duplicate-guard.ts';
import { securityHeaderList, setHeaders, withHeaders, type HeaderList } from './http/security-headers.ts';
import { requestLog, requestLogMiddleware } from './http/request-log.ts';
import { addressKey } from './http/client-key.ts';
import { methodGuard } from './http/methods.ts';
import { singleHeaderGuard } from './http/single-headers.ts';
import { KeyDirectories } from './agents/key-directory.ts';
import { agentIdentity } from './agents/identity.ts';

export interface AppDeps {
  /** Helmet's header list for this site (`securityHeaderList`), when the caller made it already. */
  securityHeaders?: HeaderList;
  state: SiteBuild;
  store: Store;
  views: ViewCounter;
  publisher: Publisher;
  renderer: CommentRenderer;
  health: HealthState;
  /** The hidden comments, so a twin of one is answered with it (default: none known). */
  hidden?: HiddenTwins;
  apiKey: string;
  distDir: string;
  logger: Logger;
  /** Origin allowed to call the writer from a browser (`*` by default). */
  corsOrigin?: string;
  /** Mounted before the static site (public-data endpoints, proxy). */
  routers?: Router[];
  /** The public-data endpoints as functions, for the MCP tool `call_public_data`. */
  publicData?: PublicDataCalls;
  now?: () => Date;
  /** Abuse and connection limits (default: `limits` of agora.config.json). */
  limits?: Limits;
  /** Where rate-limit counters live (default memory; the PostgreSQL engine passes its pool). */
  rateLimitStore?: RateLimitStore;
  /** Extra `Host` names `/mcp` answers for (`AGORA_MCP_HOSTS`). */
  mcpHosts?: string[];
  /** Key directories of signing agents (Web Bot Auth; default: https only, no loopback). */
  agentDirectories?: KeyDirectories;
  /** When the process started (health's `uptime_s`). */
  startedAt?: Date;
}

/**
 * Response headers a script on another origin may read: where a comment lives, when to
 * retry, the rate-limit budget (a browser hides every header but the CORS-safelisted few).
 */
const EXPOSED_HEADERS = 'Location, Retry-After, RateLimit, RateLimit-Policy, ETag, Last-Modified';

/** The CORS headers of every `/api/` answer. */
function corsHeaders(origin: string): HeaderList {
  const exposed: HeaderList = [['Access-Control-Expose-Headers', EXPOSED_HEADERS]];
  return origin === '*' ? [['Access-Control-Allow-Origin', origin], ...exposed] : [['Access-Control-Allow-Origin', origin], ['Vary', 'Origin'], ...exposed];
}

function cors(origin: string): RequestHandler {
  const headers = corsHeaders(origin);
  return (req, res, next) => {
    if (!req.path.startsWith('/api/') && !req.path.startsWith('/agencatalog/api/')) return next();
    setHeaders(res, headers);
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Content-Digest, X-API-Key, X-Agent-Token, Signature, Signature-Input, Signature-Agent, If-None-Match, If-Modified-Since');
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
  };
}

/** The writer: its Express app, and the listener to serve (the fast path, then the app). */
export interface Writer {
  app: Express;
  listener: RequestListener;
}

export function createApp(deps: AppDeps): Writer {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', 'weak');
  app.set('query parser', 'simple');
  const limits = deps.limits ?? loadLimits(deps.state.config.file);
  app.set('trust proxy', limits.trustProxy);
  const security = deps.securityHeaders ?? securityHeaderList(deps.state.config.site);
  const log = requestLog(deps.logger);
  app.use(withHeaders(security));
  app.use(requestLogMiddleware(log));
  app.use(cors(deps.corsOrigin ?? '*'));
  app.use(methodGuard());
  app.use(singleHeaderGuard());
  const rateLimits = createRateLimits(limits, {
    store: deps.rateLimitStore,
    isPost: (slug) => deps.state.hasPost(slug),
    // The budgets are in the database too: a POST refused there never reaches the store, but the store is away all the same.
    onStoreDown: (error) => deps.health.set('store', error instanceof StoreError ? error.message : 'the rate-limit counters are unavailable'),
  });
  // The hosts this writer answers for (the base URL's and writer URL's, the listen address, loopback, AGORA_MCP_HOSTS).
  const mcpHosts = mcpHostNames(deps.state.config, deps.mcpHosts);
  // A foreign Host or Origin on /mcp is refused before its signature costs a directory fetch, a nonce or a budget point.
  app.use(mcpGuard(mcpHosts));
  // Signed writes (Web Bot Auth): the verified agent is known before the budgets count it.
  app.post(['/api/comments/:slug', '/mcp'], agentIdentity({
    directories: deps.agentDirectories ?? new KeyDirectories(),
    agents: deps.store.agents,
    hosts: mcpHosts,
    chargeAddress: (address, res) => rateLimits.attempt(address, res),
    chargeFetch: (address, res) => rateLimits.directoryFetch(address, res),
    chargeSigned: (address, res) => rateLimits.signedRequest(address, res),
  }));
  app.use(rateLimits.middleware);
  const duplicates = createDuplicateGuard({ windowMs: limits.duplicateWindowSeconds * 1000, now: () => (deps.now?.() ?? new Date()).getTime() });
  // The view counter is the hottest route: first.
  app.use(viewRoutes({ state: deps.state, views: deps.views }));
  const comments = { state: deps.state, store: deps.store, publisher: deps.publisher, renderer: deps.renderer, apiKey: deps.apiKey, now: deps.now, logger: deps.logger, duplicates, hidden: deps.hidden, health: deps.health };
  app.use(commentRoutes(comments));
  app.use(healthRoutes({ state: deps.state, store: deps.store, health: deps.health, startedAt: deps.startedAt ?? new Date() }));
  for (const router of deps.routers ?? []) app.use(router);
  // Agents: search and MCP use the same parts as the routes above (see mcp/deps.ts).
  const agents: AgentDeps = { state: deps.state, search: new PostSearch(deps.state), comments, limits: rateLimits.guard, publicData: deps.publicData, logger: deps.logger };
  app.locals.agents = agents;
  app.use(searchRoutes(agents.search));
  app.use(mcpRoutes(agents));
  app.use(negotiateRoutes(deps.state, deps.distDir));
  app.use(staticRoutes(deps.distDir));
  app.use((req, _res, next) => {
    // A newcomer's `agora init` site has no catalog: its public-data paths say so, not just "nothing".
    const why = !deps.publicData && PUBLIC_DATA_PATHS.includes(req.path.replace(/\/+$/, '').toLowerCase())
      ? ': this site has no public-data catalog (content/catalog/catalog.yaml); docs/public-data.md says how to add one'
      : '';
    next(new AppError('not_found', `Nothing at ${req.method} ${req.path}${why}`));
  });
  // The one error funnel: every failure of every route becomes the JSON error shape here.
  const funnel: ErrorRequestHandler = (error, req, res, _next) => sendError(req, res, error, deps.logger, mcpErrorAnswer);
  app.use(funnel);

  const trust = app.get('trust proxy fn') as Parameters<typeof proxyAddr>[1];
  const fastViews = viewsFastPath({
    state: deps.state,
    views: deps.views,
    headers: [...security, ...corsHeaders(deps.corsOrigin ?? '*')],
    // As Express's `req.ip` and `clientKey` work it out (a PUT is never signed).
    address: (req) => addressKey(proxyAddr(req, trust)),
    charge: rateLimits.view,
    log,
    logger: deps.logger,
  });
  return { app, listener: (req, res) => void (fastViews(req, res) || app(req, res)) };
}
