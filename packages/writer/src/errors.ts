/**
 * The writer's one error type, its codes, and the one place errors become HTTP answers
 * (`sendError`, the funnel of `app.ts` and of the starting app). Every non-2xx answer
 * of the writer is `{"error": {"code", "message", "field"?, …}}` from an `AppError`;
 * store failures and body-parser errors are mapped to one (`toAppError`); anything
 * else thrown becomes a bare 500, logged.
 */
import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { notFoundPage } from '@agora/generator';

/** Machine-readable error codes, one per failure class. */
export const ERROR_CODES = {
  validation: 400,
  unauthorized: 401,
  /** A Web Bot Auth signature that does not verify (`check` says which check failed): nothing stored. */
  signature_invalid: 401,
  forbidden: 403,
  /** The signing agent (its origin or key) is blocked by the operator (`agora agents block`). */
  agent_blocked: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The request's headers or body did not arrive within the server's deadline. */
  request_timeout: 408,
  payload_too_large: 413,
  /** An `Expect` other than `100-continue`: nothing was done. */
  expectation_failed: 417,
  unsupported_media_type: 415,
  /** A comment body over a rendering-work limit (`limit`, `value`, `max` say which): nothing stored. */
  comment_too_complex: 400,
  /** The renderer failed on a comment body: nothing stored. */
  comment_unrenderable: 400,
  rate_limited: 429,
  /** The request's headers are larger than the server reads. */
  headers_too_large: 431,
  /** The request line alone is past that limit: the URI is too long. */
  uri_too_long: 414,
  internal: 500,
  upstream_error: 502,
  upstream_unavailable: 503,
  /** The store cannot be reached (database down, lock wait timed out): retry later. */
  store_unavailable: 503,
  /** The disk under the store is full: nothing was stored. */
  storage_full: 507,
  not_configured: 503,
  /** No comment render worker answered in time (a misbehaving worker): nothing stored, retry. */
  render_unavailable: 503,
  /** This writer cannot resolve names, so a signature's key directory cannot be fetched: retry. */
  resolver_unavailable: 503,
  /** The writer is still catching up at start: retry after `Retry-After`. */
  starting: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The JSON body of every error answer. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; field?: string } & Record<string, unknown>;
}

/** An error with an HTTP status, a code, a human message and optionally the input field at fault. */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly field: string | undefined;
  /** Extra response headers, e.g. `Retry-After` on 429. */
  readonly headers: Record<string, string>;
  /** Extra members of the error object, e.g. `limit`, `value`, `max` of a 400 `comment_too_complex`. */
  readonly details: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { field?: string; status?: number; headers?: Record<string, string>; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code];
    this.field = options.field;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }

  /** The body fixed by DESIGN.md. */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.field !== undefined) error.field = this.field;
    return { error: { ...error, ...this.details } };
  }
}

/** Whether a value is an `AppError` (also across module copies). */
export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** The HTTP answer for a failed store operation (a `StoreError`), or null for other errors. */
export function storeFailure(error: unknown): AppError | null {
  const code = (error as { name?: string; code?: string })?.name === 'StoreError' ? (error as { code: string }).code : null;
  if (code === 'disk_full') return new AppError('storage_full', 'The server\'s disk is full; nothing was stored. Try again later.', { headers: { 'Retry-After': '60' }, cause: error });
  // The answer to a COMMIT was lost and the store could not be asked afterwards: saying
  // "nothing was stored" would make a client send a second copy.
  if (code === 'unavailable' && (error as { outcome?: string }).outcome === 'unknown') {
    return new AppError('store_unavailable', 'The store stopped answering while this was being stored, and whether it was stored is not known. Look for it (GET /api/comments/{slug}) before sending it again.', { headers: { 'Retry-After': '5' }, cause: error });
  }
  if (code === 'unavailable' || code === 'locked' || code === 'corrupt' || code === 'version') {
    return new AppError('store_unavailable', 'The store is unavailable; nothing was stored. Try again shortly.', { headers: { 'Retry-After': '5' }, cause: error });
  }
  return null;
}

/**
 * Whether a JSON body parser's failure is a body that is JSON all the same (`null`, `42`,
 * `"x"`: strict parsing takes objects and arrays only), not text that does not parse.
 */
export function isJsonRefused(error: { type?: string; body?: string } | null | undefined): boolean {
  if (error?.type !== 'entity.parse.failed') return false;
  try {
    JSON.parse(error.body ?? '');
    return true;
  } catch {
    return false;
  }
}

/** Map what the store, body parsers and `send` throw to an `AppError`, or null for a bug. */
export function toAppError(error: unknown): AppError | null {
  if (isAppError(error)) return error;
  const store = storeFailure(error);
  if (store) return store;
  const e = error as { type?: string; status?: number; statusCode?: number; expose?: boolean; message?: string };
  if (e?.type === 'entity.too.large') return new AppError('payload_too_large', 'body is too large', { field: 'body' });
  if (e?.type === 'encoding.unsupported') {
    const encoding = (error as { encoding?: string }).encoding;
    return new AppError('unsupported_media_type', `Content-Encoding${encoding ? ` ${JSON.stringify(encoding)}` : ''} is not supported; send the body as it is (identity), or gzip, deflate or br`, { field: 'Content-Encoding' });
  }
  if (e?.type === 'charset.unsupported') return new AppError('unsupported_media_type', 'Content-Type charset must be utf-8', { field: 'Content-Type' });
  // A body whose bytes are not what its Content-Encoding says (zlib's own error, e.g. "incorrect header check";
  // a corrupt Brotli stream's codes are Node's `ERR__ERROR_FORMAT_PADDING_2`, `ERR__ERROR_FORMAT_RESERVED` …).
  if (e?.status === 400 && typeof (error as { code?: unknown }).code === 'string' && /^(Z_|ERR_ZLIB|ERR__?BROTLI|ERR__ERROR_)/.test((error as { code: string }).code)) {
    return new AppError('validation', `body could not be decoded as its Content-Encoding says (${e.message})`, { field: 'Content-Encoding' });
  }
  // The router could not decode a path parameter (`%E0%A4%A`).
  if (e?.status === 400 && /^Failed to decode param/.test(e.message ?? '')) return new AppError('validation', 'The path is not valid percent-encoding', { field: 'path' });
  if (e?.type === 'entity.parse.failed') return new AppError('validation', 'body is not valid JSON', { field: 'body' });
  if (e?.type === 'request.aborted' || e?.type === 'request.size.invalid') return new AppError('validation', 'request body was incomplete', { field: 'body' });
  const status = e?.status ?? e?.statusCode;
  if (status === 404) return new AppError('not_found', 'Not found');
  if (status === 403) return new AppError('forbidden', 'Forbidden path');
  if (status === 400) return new AppError('validation', 'Bad request');
  return null;
}

const NOT_FOUND_PAGE = notFoundPage('Start at <a href="/">the home page</a> or <a href="/llms.txt">/llms.txt</a>.');

/**
 * Answer `error` as the JSON error shape (on `/mcp`, `mcp` answers it as a JSON-RPC
 * error). One exception, for people: a 404 outside the API asked for by a client that
 * names `text/html` above JSON (a browser) gets a small HTML page with a way on. Any
 * other client (`Accept: *\/*`, none, JSON) gets the JSON error, as DESIGN asks.
 */
export function sendError(req: Request, res: Response, error: unknown, logger?: Logger, mcp?: (res: ServerResponse, appError: AppError | null) => void): void {
  const appError = answerFor(error, req.originalUrl, logger);
  if (res.headersSent) return void res.end();
  if (mcp && req.path === '/mcp') return mcp(res, appError);
  if (appError?.status === 404 && !req.path.startsWith('/api/') && !req.path.startsWith('/agencatalog/api/') && req.accepts(['json', 'html']) === 'html') {
    res.setHeader('Cache-Control', 'no-store');
    return void res.status(404).type('html').send(NOT_FOUND_PAGE);
  }
  writeError(res, appError);
}

/**
 * What to answer for `error`: its `AppError`, or null for a bug, which is logged with the
 * URL. A server-side failure (a provider down or refusing the key, the store unavailable,
 * a full disk) is logged with the message its client got: the request log showed only
 * the status, and the operator could not tell a wrong key from a provider outage. A
 * store failure also logs the store's message as `cause` (the file, what is wrong, the fix).
 * (`starting` is the writer's own state, said by `/api/health`.)
 */
export function answerFor(error: unknown, url: string | undefined, logger?: Logger): AppError | null {
  const appError = toAppError(error);
  if (!appError) logger?.error({ err: error, url }, 'unhandled error');
  else if (appError.status >= 500 && appError.code !== 'starting') {
    // The store's own words (which file, what is wrong with it, the fix) are the
    // operator's: the client's message says only that nothing was stored.
    const cause = (appError.cause as { name?: string; message?: string } | undefined);
    const storeCause = cause?.name === 'StoreError' && cause.message ? { cause: cause.message } : {};
    logger?.warn({ url, status: appError.status, code: appError.code, detail: appError.message, ...storeCause }, 'server-side failure');
  }
  return appError;
}

/**
 * The JSON error answer itself, on any Node answer: `sendError`'s, and that of the
 * routes served before Express (`routes/views.ts`). `null` is a bug: a bare 500.
 * `shape` wraps the error body for a protocol of its own (`/mcp`: a JSON-RPC error).
 */
export function writeError(res: ServerResponse, appError: AppError | null, shape: (body: ErrorBody) => unknown = (body) => body): void {
  for (const [k, v] of Object.entries(appError?.headers ?? {})) res.setHeader(k, v);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.statusCode = appError?.status ?? 500;
  res.end(JSON.stringify(shape(appError ? appError.toBody() : { error: { code: 'internal', message: 'Internal server error' } })));
}
