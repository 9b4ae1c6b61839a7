/**
 * `UpstreamError`: provider trouble as an `AppError` the writer's error funnel
 * understands. A registry maps each failure kind to status, code and wording; the
 * provider's own body never reaches the caller, only a short sanitized detail.
 */
import { AppError, type ErrorCode } from '../errors.ts';
import type { ProviderId } from './types.ts';
import { secondsUntilKstMidnight } from './kst.ts';

/** What went wrong upstream. */
export type UpstreamFailure = 'key' | 'quota' | 'rate' | 'params' | 'unavailable' | 'failed' | 'malformed' | 'timeout' | 'network';

/** Facts about the failed call. */
export interface UpstreamErrorInfo {
  provider: ProviderId;
  /** Request URL with the key redacted. */
  url: string;
  /** HTTP status of the provider's answer, if there was one. */
  upstreamStatus?: number;
  /** Short provider code or message name, e.g. `SERVICE_KEY_IS_NOT_REGISTERED_ERROR`. */
  detail?: string;
  /** Setting that holds the key, named in key errors. */
  keyEnv?: string;
  now?: () => Date;
  cause?: unknown;
}

interface FailureRule {
  code: ErrorCode;
  message: (info: UpstreamErrorInfo) => string;
  headers?: (info: UpstreamErrorInfo) => Record<string, string>;
}

const suffix = (info: UpstreamErrorInfo): string => (info.detail ? ` (${info.detail})` : '');

const FAILURES: Record<UpstreamFailure, FailureRule> = {
  key: {
    code: 'upstream_unavailable',
    message: (i) => `Provider \`${i.provider}\` rejected the server's key${suffix(i)}; the operator must check \`${i.keyEnv ?? 'the provider key'}\``,
  },
  quota: {
    code: 'upstream_unavailable',
    message: (i) => `Provider \`${i.provider}\` daily quota is spent${suffix(i)}; try again after midnight Korea time`,
    headers: (i) => ({ 'Retry-After': String(secondsUntilKstMidnight((i.now ?? (() => new Date()))())) }),
  },
  rate: {
    code: 'upstream_unavailable',
    message: (i) => `Provider \`${i.provider}\` is throttling requests${suffix(i)}; retry in a second`,
    headers: () => ({ 'Retry-After': '1' }),
  },
  params: { code: 'validation', message: (i) => `Provider \`${i.provider}\` rejected the parameters${suffix(i)}` },
  unavailable: { code: 'upstream_unavailable', message: (i) => `Provider \`${i.provider}\` is unavailable${suffix(i)}; try again later` },
  failed: { code: 'upstream_error', message: (i) => `Provider \`${i.provider}\` answered with an error${suffix(i)}` },
  malformed: { code: 'upstream_error', message: (i) => `Provider \`${i.provider}\` sent a response that could not be read${suffix(i)}` },
  timeout: { code: 'upstream_timeout', message: (i) => `Provider \`${i.provider}\` did not answer in time` },
  network: { code: 'upstream_error', message: (i) => `Provider \`${i.provider}\` could not be reached` },
};

/** Keep a provider detail short and printable. */
export function sanitizeDetail(detail: string): string {
  return detail.replace(/[^\p{L}\p{N} _().,:/-]/gu, '').trim().slice(0, 120);
}

/** A failed upstream call, mapped to the writer's error answer. */
export class UpstreamError extends AppError {
  readonly kind: UpstreamFailure;
  readonly provider: ProviderId;
  /** Request URL with the key redacted. */
  readonly url: string;
  readonly upstreamStatus: number | undefined;
  /** The short, sanitized provider detail of the message, if any. */
  readonly detail: string | undefined;

  /**
   * @param kind What went wrong.
   * @param info The provider, the redacted URL, the status and a short detail.
   */
  constructor(kind: UpstreamFailure, info: UpstreamErrorInfo) {
    const rule = FAILURES[kind];
    const clean = { ...info, ...(info.detail === undefined ? {} : { detail: sanitizeDetail(info.detail) }) };
    super(rule.code, rule.message(clean), {
      ...(kind === 'params' ? { field: 'params' } : {}),
      headers: rule.headers?.(clean) ?? {},
      cause: info.cause,
    });
    this.name = 'UpstreamError';
    this.kind = kind;
    this.provider = info.provider;
    this.url = info.url;
    this.upstreamStatus = info.upstreamStatus;
    this.detail = clean.detail;
  }
}
