/**
 * The writer's abuse and connection limits: the `limits` object of
 * `agora.config.json`, checked key by key, with the defaults in one place.
 * A count of 0 switches that limit off.
 */

import proxyAddr from 'proxy-addr';

/** Express `trust proxy`: `false`, `true`, a hop count, or names/CIDRs (`loopback`, `10.0.0.0/8`). */
export type TrustProxy = boolean | number | string;

/** Every limit, all present after `loadLimits`. */
export interface Limits {
  /** Comment POSTs per client address per minute, valid or not. */
  commentsPerIpPerMinute: number;
  /** Stored comments per post per hour. */
  commentsPerPostPerHour: number;
  /** Stored comments on the whole site per hour. */
  commentsPerSitePerHour: number;
  /** View PUTs per client address per minute. */
  viewsPerIpPerMinute: number;
  /** Requests to the six public-data endpoints per client address per minute. */
  publicDataPerIpPerMinute: number;
  /** Catalog proxy calls per client address per minute. */
  proxyPerIpPerMinute: number;
  /** Key-directory fetches (signed requests naming a directory not in the cache) per client address per minute. */
  agentDirectoryFetchesPerIpPerMinute: number;
  /** Signed requests (each claims a nonce, kept until its signature expires) per client address per minute. */
  signedRequestsPerIpPerMinute: number;
  /** Same author, post and body within this many seconds answers the first comment. */
  duplicateWindowSeconds: number;
  /** Which proxies' `X-Forwarded-For` names the client. */
  trustProxy: TrustProxy;
  /** Longest time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Longest time to receive a whole request, body included. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** A socket with no traffic at all for this long is closed (a stalled reader). */
  socketIdleTimeoutMs: number;
  /** Concurrent connections; more are closed at once. */
  maxConnections: number;
  /** Requests per keep-alive connection before the server asks the client to reconnect. */
  maxRequestsPerSocket: number;
}

/** The defaults, documented in the README ("Security and limits"). */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  commentsPerIpPerMinute: 10,
  commentsPerPostPerHour: 60,
  commentsPerSitePerHour: 1000,
  viewsPerIpPerMinute: 120,
  publicDataPerIpPerMinute: 60,
  proxyPerIpPerMinute: 60,
  agentDirectoryFetchesPerIpPerMinute: 10,
  signedRequestsPerIpPerMinute: 300,
  duplicateWindowSeconds: 600,
  trustProxy: false,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  socketIdleTimeoutMs: 60_000,
  maxConnections: 1000,
  maxRequestsPerSocket: 0,
});

/** The `limits` keys that take a whole number. */
const COUNT_KEYS = (Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]).filter((k) => k !== 'trustProxy');

function fail(message: string): never {
  throw new Error(`${message} (in \`limits\` of agora.config.json; see README "Security and limits")`);
}

function checkTrustProxy(value: unknown): TrustProxy {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && value.trim() !== '') {
    // As Express reads it (proxy-addr): names like `loopback`, addresses, CIDR ranges, comma-separated.
    try {
      proxyAddr.compile(value.split(',').map((part) => part.trim()));
    } catch (error) {
      return fail(`Unexpected \`limits.trustProxy\` ${JSON.stringify(value)} (${(error as Error).message}), expected false, true, a hop count like 1, or addresses like "loopback" or "10.0.0.0/8"`);
    }
    return value.trim();
  }
  return fail(`Unexpected \`limits.trustProxy\` ${JSON.stringify(value)}, expected false, true, a hop count like 1, or addresses like "loopback" or "10.0.0.0/8"`);
}

/**
 * Read and check `limits` from the parsed `agora.config.json`.
 *
 * @param file The parsed config file (`config.file`); `{}` gives the defaults.
 * @example
 * const limits = loadLimits(config.file); // throws naming the bad key
 */
export function loadLimits(file: Readonly<Record<string, unknown>>): Limits {
  const given = file.limits ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    return fail(`Unexpected \`limits\` ${JSON.stringify(given)}, expected an object like {"commentsPerIpPerMinute": 10}`);
  }
  const limits: Limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(given)) {
    if (key === 'trustProxy') {
      limits.trustProxy = checkTrustProxy(value);
      continue;
    }
    if (!(COUNT_KEYS as string[]).includes(key)) {
      return fail(`Unexpected key \`limits.${key}\`, expected one of ${[...COUNT_KEYS, 'trustProxy'].join(', ')}`);
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      return fail(`Unexpected \`limits.${key}\` ${JSON.stringify(value)}, expected a whole number ≥ 0 (0 switches it off)`);
    }
    (limits as unknown as Record<string, number>)[key] = value;
  }
  // Node refuses a header deadline longer than the whole-request deadline.
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs) {
    fail(`Unexpected \`limits.headersTimeoutMs\` ${limits.headersTimeoutMs} above \`limits.requestTimeoutMs\` ${limits.requestTimeoutMs}; the headers are part of the request`);
  }
  return limits;
}
