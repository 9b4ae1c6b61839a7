/**
 * `createRateLimits`: per-client budgets for every write and upstream-backed route,
 * plus per-post and per-site comment budgets, counted with rate-limiter-flexible.
 * Over budget answers 429 `rate_limited` with `Retry-After`; every counted answer
 * carries `RateLimit` and `RateLimit-Policy`.
 *
 * What counts (README "Security and limits"):
 * - the per-address budgets count every request to the route, valid or not, so a
 *   flood of bad keys or bad documents is throttled like a flood of good ones;
 * - the per-post and per-site budgets count stored comments only: they are taken
 *   before the route runs (so concurrent POSTs cannot overshoot) and given back when
 *   the answer says nothing was stored (anything but 201, or 202 "stored, page pending").
 *
 * The counters live in memory now (one node). With the PostgreSQL store the engine
 * passes `{ postgresPool }` and the counters go to the `agora_rate_limits` table
 * (RateLimiterPostgres; the table is the schema's, migration 4), so several writer nodes
 * share one budget.
 */
import type { ServerResponse } from 'node:http';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Pool } from 'pg';
import { AppError } from '../errors.ts';
import { resolvePostSlug } from '../post-slug.ts';
import { toStoreError } from '../store/postgres/errors.ts';
import type { Limits } from './limits-config.ts';
import { AGENT_KEY_PREFIX, addressOf, clientKey } from './client-key.ts';
import onHeaders from 'on-headers';
import { retryAfterSeconds, setRateLimitHeaders, type Policy, type PolicyState } from './rate-limit-headers.ts';

/** Where counters live: this process, or a PostgreSQL pool shared by all nodes. */
export type RateLimitStore = 'memory' | { postgresPool: Pool };

/** Options of `createRateLimits`. */
export interface RateLimitOptions {
  store?: RateLimitStore;
  /** Whether a slug names a post; unknown slugs get no per-post counter (the route answers 404). */
  isPost?: (slug: string) => boolean;
  /** The counters' store failed (PostgreSQL away): the writer's health names the store, as a failed comment write does. */
  onStoreDown?: (error: unknown) => void;
}

/**
 * The same budgets for callers that are not these HTTP routes (the MCP tools): each
 * takes a point for a client and throws a 429 `AppError` when a budget is spent.
 */
export interface RateLimitGuard {
  /** Comment budgets; call `settle(stored)` with whether a comment was stored (refunds otherwise). */
  comment(client: string, slug: string, address?: string): Promise<{ settle(stored: boolean): Promise<void> }>;
  /** The public-data budget of the six simple endpoints. */
  publicData(client: string): Promise<void>;
  /** The proxy budget. */
  proxy(client: string): Promise<void>;
}

/** The budgets: as middleware for the routes, and as functions for the MCP tools and the signature check. */
export interface RateLimits {
  /** One router: mount it before the routes it guards. */
  middleware: Router;
  /** The budgets as functions, for the MCP tools. */
  guard: RateLimitGuard;
  /**
   * Take a point of a client's view budget for `PUT /api/views/{slug}`, which is served
   * before the router: sets the budget's headers on `res`, or throws its 429.
   */
  view(client: string, res: ServerResponse): Promise<void>;
  /** One point of a client's comment budget for a refused signature: sets its headers on `res`, or throws its 429. */
  attempt(client: string, res: ServerResponse): Promise<void>;
  /** One point of an address's key-directory budget, before a fetch: throws its 429 when spent. */
  directoryFetch(address: string, res: ServerResponse): Promise<void>;
  /** A point of `address`'s signed-request budget, before a signature is read (its nonce claimed): 429 when spent. */
  signedRequest(address: string, res: ServerResponse): Promise<void>;
}

/** The six simple public-data endpoints (`public-data/router.ts`); test/writer/limits.test.ts checks each. */
export const PUBLIC_DATA_PATHS = ['/api/weather', '/api/apt', '/api/tour', '/api/bizinfo', '/api/corp', '/api/biznotice'];

/** The part of a rate-limiter-flexible limiter used here (memory and PostgreSQL alike). */
interface Counter {
  consume(key: string, points?: number): Promise<RateLimiterRes>;
  reward(key: string, points?: number): Promise<RateLimiterRes>;
}

/** A policy with its counter. */
interface Budget {
  policy: Policy;
  counter: Counter;
  onStoreDown?: (error: unknown) => void;
}

/** A consumed point, and when its window ends (a refund after that would mint a point). */
interface Taken {
  budget: Budget;
  key: string;
  state: PolicyState;
  windowEndsAt: number;
}

const TABLE = 'agora_rate_limits';

/** Answers of a comment POST that mean the comment was stored. */
const STORED = new Set([201, 202]);

async function take(budget: Budget, key: string): Promise<Taken> {
  let res: RateLimiterRes;
  let exceeded = false;
  try {
    res = await budget.counter.consume(key);
  } catch (error) {
    // The counter store failed, not the budget: with PostgreSQL the database is away, or refused
    // (a node user without rights on the table); its words, as the store's, are the operator's.
    if (!(error instanceof RateLimiterRes)) {
      const cause = toStoreError(error, `count a request in the rate-limit table \`${TABLE}\``);
      budget.onStoreDown?.(cause);
      throw new AppError('store_unavailable', 'The rate-limit counters are unavailable; nothing was stored. Try again shortly.', { headers: { 'Retry-After': '5' }, cause });
    }
    res = error;
    exceeded = true;
  }
  const state: PolicyState = { policy: budget.policy, remaining: Math.max(0, res.remainingPoints), resetMs: res.msBeforeNext, exceeded };
  return { budget, key, state, windowEndsAt: Date.now() + res.msBeforeNext };
}

async function refund(taken: readonly Taken[]): Promise<void> {
  await Promise.all(taken.filter((t) => Date.now() < t.windowEndsAt).map((t) => t.budget.counter.reward(t.key)));
}

function tooMany(res: ServerResponse, states: PolicyState[], what: string): AppError {
  setRateLimitHeaders(res, states);
  return tooManyCalls(states, what);
}

/** Take a point of a per-client budget: set its headers on `res`, or throw its 429. */
async function charge(budget: Budget, client: string, res: ServerResponse, what: string): Promise<void> {
  const { state } = await take(budget, client);
  if (state.exceeded) throw tooMany(res, [state], what);
  setRateLimitHeaders(res, [state]);
}

/** A per-client budget as middleware. */
function perClient(budget: Budget | null, what: string): RequestHandler {
  if (!budget) return (_req, _res, next) => next();
  return async function rateLimit(req, res, next) {
    await charge(budget, clientKey(req), res, what);
    next();
  };
}

type CommentBudgets = Record<'commentsIp' | 'commentsAgentsIp' | 'commentsPost' | 'commentsSite', Budget | null>;

/**
 * How many verified agents' budgets one address may spend together, in comment budgets of
 * one client: a verified agent is counted by its origin, and one key served under many
 * origins (wildcard DNS) from one address took a fresh budget per origin (100 comments a
 * minute from one address in an outside test). Agents behind one address (a cloud NAT)
 * still get five clients' worth, apart from the unsigned clients there.
 */
export const SIGNED_BUDGETS_PER_ADDRESS = 5;

/**
 * Take the comment budgets of one submission, for HTTP and MCP alike: per client
 * (every attempt), then per post and per site (given back by the caller when nothing
 * was stored). Returns what was taken, or what is over with everything given back.
 */
async function takeComment(budgets: CommentBudgets, isPost: (slug: string) => boolean, client: string, slug: string, address?: string): Promise<{ states: PolicyState[]; taken: Taken[]; over?: string }> {
  const states: PolicyState[] = [];
  const signed = client.startsWith(AGENT_KEY_PREFIX);
  if (budgets.commentsIp) {
    const { state } = await take(budgets.commentsIp, client);
    // A verified agent's own budget (its origin's), named so: `comments-ip` said it was its address's.
    states.push(signed ? { ...state, policy: { ...state.policy, name: 'comments-agent' } } : state);
    if (state.exceeded) return { states, taken: [], over: 'comment requests from this client' };
  }
  // Every origin signing from one address shares this one: origins are cheap to make.
  if (signed && address && budgets.commentsAgentsIp) {
    const { state } = await take(budgets.commentsAgentsIp, address);
    states.push(state);
    if (state.exceeded) return { states, taken: [], over: 'signed comment requests from this address (all its agents together)' };
  }
  const held: (Taken | null)[] = isPost(slug) ? await Promise.all([budgets.commentsPost && take(budgets.commentsPost, slug), budgets.commentsSite && take(budgets.commentsSite, 'site')]) : [];
  const taken = held.filter((t): t is Taken => t !== null);
  states.push(...taken.map((t) => t.state));
  if (taken.some((t) => t.state.exceeded)) {
    await refund(taken);
    return { states, taken: [], over: 'comments on this post or site' };
  }
  return { states, taken };
}

/** The comment budgets as middleware of `POST /api/comments/{slug}`. */
function commentBudgets(budgets: CommentBudgets, isPost: (slug: string) => boolean): RequestHandler {
  return async function commentRateLimit(req: Request, res: Response, next) {
    const slug = req.params.slug as string;
    const { states, taken, over } = await takeComment(budgets, isPost, clientKey(req), resolvePostSlug(isPost, slug, 'path') ?? slug, addressOf(req));
    if (over) throw tooMany(res, states, over);
    // Refund a definite non-201 answer, and a request whose body never all arrived (hung up or
    // timed out mid-body: nothing can have been stored); a client that hangs up after sending
    // it all may have been stored. A refund that fails (database away) is lost: the budget is
    // only a little lower until its window ends.
    if (taken.length > 0) res.once('close', () => void ((res.writableFinished ? !STORED.has(res.statusCode) : !req.complete) && refund(taken).catch(() => {})));
    setRateLimitHeaders(res, states);
    // An answer that stores nothing (a duplicate's 200, a 4xx) gives its points back: its
    // headers say what is left after that, not one less.
    if (taken.length > 0) {
      onHeaders(res, () => {
        if (STORED.has(res.statusCode)) return;
        const refunded = new Set(taken.map((t) => t.state));
        setRateLimitHeaders(res, states.map((s) => (refunded.has(s) ? { ...s, remaining: Math.min(s.policy.quota, s.remaining + 1) } : s)));
      });
    }
    next();
  };
}

/**
 * Create the limiters from the `limits` settings.
 *
 * @param limits The checked settings (`loadLimits`); a budget of 0 is off.
 * @param options Counter store (memory by default) and the post lookup.
 * @example
 * const rateLimits = createRateLimits(limits, { isPost: (slug) => state.hasPost(slug) });
 * app.use(rateLimits.middleware);
 */
export function createRateLimits(limits: Limits, options: RateLimitOptions = {}): RateLimits {
  const store = options.store ?? 'memory';
  const budget = (name: string, quota: number, windowSeconds: number): Budget | null => {
    if (quota === 0) return null;
    const policy: Policy = { name, quota, windowSeconds };
    const common = { keyPrefix: `agora:${name}`, points: quota, duration: windowSeconds };
    if (store === 'memory') return { policy, counter: new RateLimiterMemory(common) };
    // The table is the schema's (migration 4, store/postgres/migrations.ts), applied when the store
    // that lent the pool opened: nothing is created here, so a node user without CREATE serves.
    const counter = new RateLimiterPostgres({ ...common, storeClient: store.postgresPool, storeType: 'pool', tableName: TABLE, tableCreated: true });
    return { policy, onStoreDown: options.onStoreDown, counter };
  };

  const budgets = {
    commentsIp: budget('comments-ip', limits.commentsPerIpPerMinute, 60),
    commentsAgentsIp: budget('comments-agents-ip', limits.commentsPerIpPerMinute * SIGNED_BUDGETS_PER_ADDRESS, 60),
    commentsPost: budget('comments-post', limits.commentsPerPostPerHour, 3600),
    commentsSite: budget('comments-site', limits.commentsPerSitePerHour, 3600),
    publicData: budget('public-data', limits.publicDataPerIpPerMinute, 60),
    proxy: budget('proxy', limits.proxyPerIpPerMinute, 60),
  };
  const isPost = options.isPost ?? (() => true);
  const router = Router();
  router.post('/api/comments/:slug', commentBudgets(budgets, isPost));
  const views = budget('views', limits.viewsPerIpPerMinute, 60);
  // Its own budget, not the comment budget: a verified agent behind an address others spent still gets its directory fetched.
  const fetches = budget('agent-directory-fetches', limits.agentDirectoryFetchesPerIpPerMinute, 60);
  // Every signed request claims a nonce, kept until its signature expires (up to 11 min), and
  // the store holds a bounded number: one address sending signed pings without end had filled
  // it, and every agent's signed requests answered 503. Charged before the signature is read.
  const signatures = budget('signed-requests', limits.signedRequestsPerIpPerMinute, 60);
  const viewsOver = 'view counts from this address';
  router.put('/api/views/:slug', perClient(views, viewsOver));
  router.get(PUBLIC_DATA_PATHS, perClient(budgets.publicData, 'public-data requests from this address'));
  router.post('/agencatalog/api/call', perClient(budgets.proxy, 'proxy calls from this address'));
  const view = async (client: string, res: ServerResponse) => {
    if (views) await charge(views, client, res, viewsOver);
  };
  const attempt = async (client: string, res: ServerResponse) => {
    if (budgets.commentsIp) await charge(budgets.commentsIp, client, res, 'comments and refused signatures from this client');
  };
  const directoryFetch = async (address: string, res: ServerResponse) => {
    if (fetches) await charge(fetches, address, res, 'key-directory fetches for this address (signed requests naming directories not in the cache)');
  };
  const signedRequest = async (address: string, res: ServerResponse) => {
    if (signatures) await charge(signatures, address, res, 'signed requests from this address');
  };
  return { middleware: router, guard: createGuard(budgets, isPost), view, attempt, directoryFetch, signedRequest };
}

/** A 429 without a response to put headers on (MCP): the message says when to retry. */
function tooManyCalls(states: PolicyState[], what: string): AppError {
  const over = states.filter((s) => s.exceeded).map((s) => `${s.policy.quota} per ${s.policy.windowSeconds} s (${s.policy.name})`);
  const wait = retryAfterSeconds(states);
  return new AppError('rate_limited', `Too many ${what}: at most ${over.join(' and ')}; retry in ${wait} s`, { headers: { 'Retry-After': String(wait) } });
}

function createGuard(budgets: CommentBudgets & Record<'publicData' | 'proxy', Budget | null>, isPost: (slug: string) => boolean): RateLimitGuard {
  const one = async (budget: Budget | null, client: string, what: string) => {
    if (!budget) return;
    const { state } = await take(budget, client);
    if (state.exceeded) throw tooManyCalls([state], what);
  };
  return {
    async comment(client, slug, address) {
      const { states, taken, over } = await takeComment(budgets, isPost, client, slug, address);
      if (over) throw tooManyCalls(states, over);
      return { settle: async (stored) => void (stored || (await refund(taken))) };
    },
    publicData: (client) => one(budgets.publicData, client, 'public-data requests from this client'),
    proxy: (client) => one(budgets.proxy, client, 'proxy calls from this client'),
  };
}
