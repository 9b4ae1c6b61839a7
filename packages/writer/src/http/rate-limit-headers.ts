/**
 * The standard rate-limit answer headers of draft-ietf-httpapi-ratelimit-headers
 * (-08 and later): `RateLimit-Policy` names each quota (`q` requests per `w`
 * seconds) and `RateLimit` says what is left of it (`r` requests, `t` seconds until
 * the window resets). Both are structured-field lists, one item per policy, so a
 * comment POST reports its per-address, per-post and per-site budgets together.
 */
import type { ServerResponse } from 'node:http';

/** One quota: a name and so many requests per window. */
export interface Policy {
  name: string;
  quota: number;
  windowSeconds: number;
}

/** Where a request left one quota. */
export interface PolicyState {
  policy: Policy;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  exceeded: boolean;
}

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/**
 * Set `RateLimit` and `RateLimit-Policy` for these states; with any exceeded also
 * `Retry-After` (the longest wait among them).
 *
 * @param res The answer.
 * @param states One per policy the request counted against.
 */
export function setRateLimitHeaders(res: ServerResponse, states: readonly PolicyState[]): void {
  if (states.length === 0) return;
  res.setHeader('RateLimit-Policy', states.map((s) => `"${s.policy.name}";q=${s.policy.quota};w=${s.policy.windowSeconds}`).join(', '));
  res.setHeader('RateLimit', states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${seconds(s.resetMs)}`).join(', '));
  const waits = states.filter((s) => s.exceeded).map((s) => seconds(s.resetMs));
  if (waits.length > 0) res.setHeader('Retry-After', String(Math.max(1, ...waits)));
}

/** Seconds until the last exceeded quota resets (for the error message). */
export function retryAfterSeconds(states: readonly PolicyState[]): number {
  return Math.max(1, ...states.filter((s) => s.exceeded).map((s) => seconds(s.resetMs)));
}
