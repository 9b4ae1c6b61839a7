/**
 * The one way the clients talk to providers: `AbortSignal.timeout`, a bounded retry
 * of idempotent GETs after network errors only, body size limit, JSON or XML parsing
 * by content, and mapping of every kind of provider trouble to `UpstreamError`.
 */
import { parseXml } from './xml.ts';
import { redactMessage, redactUrl } from './redact.ts';
import { gatewayFailure, statusFailure } from './gateway-error.ts';
import { UpstreamError, type UpstreamFailure } from './upstream-error.ts';
import type { UpstreamContext } from './types.ts';

/** One request to a provider. */
export interface UpstreamRequest {
  url: URL;
  method?: 'GET' | 'POST';
  /** JSON body of a POST. */
  json?: unknown;
}

/** A parsed provider answer with a 2xx status and no gateway error. */
export interface UpstreamResponse {
  status: number;
  body: unknown;
  format: 'json' | 'xml';
}

const MAX_BYTES = 20 * 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Build an `UpstreamError` for this call. */
export function failure(ctx: UpstreamContext, url: URL, kind: UpstreamFailure, extra: { status?: number; detail?: string; cause?: unknown } = {}): UpstreamError {
  return new UpstreamError(kind, {
    provider: ctx.provider,
    url: redactUrl(url, [ctx.key]),
    keyEnv: ctx.keyEnv,
    now: ctx.now,
    ...(extra.status === undefined ? {} : { upstreamStatus: extra.status }),
    // A provider's message may repeat the request, key included.
    ...(extra.detail === undefined ? {} : { detail: redactMessage(extra.detail, [ctx.key]) }),
    cause: extra.cause,
  });
}

/**
 * The body, or null once it runs past `max` bytes (then the rest is not read: a chunked
 * answer has no length to refuse it by, and read whole it took the process's memory).
 */
async function readAtMost(response: Response, max: number): Promise<Buffer | null> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, total);
    total += value.length;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/**
 * Send a request and read the raw bytes, whatever the status.
 *
 * @param ctx The call context (timeout, retries, quota hook).
 * @param request URL, method and JSON body.
 */
export async function sendUpstream(ctx: UpstreamContext, request: UpstreamRequest): Promise<{ status: number; bytes: Buffer }> {
  const method = request.method ?? 'GET';
  await ctx.beforeRequest?.();
  const attempts = method === 'GET' ? 1 + Math.max(0, ctx.retries) : 1;
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(request.url, {
        method,
        // A redirect is not the provider's answer: another host would get the key in the
        // query, and its answer would be served and cached as the provider's (a 3xx is 502).
        redirect: 'manual',
        signal: AbortSignal.timeout(ctx.timeoutMs),
        headers: { accept: 'application/json, application/xml;q=0.9, */*;q=0.5', ...(request.json === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
      });
      const tooLarge = () => failure(ctx, request.url, 'malformed', { status: response.status, detail: 'response too large' });
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_BYTES) {
        await response.body?.cancel().catch(() => {});
        throw tooLarge();
      }
      const bytes = await readAtMost(response, MAX_BYTES);
      if (!bytes) throw tooLarge();
      return { status: response.status, bytes };
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      if (isTimeout(error)) throw failure(ctx, request.url, 'timeout', { cause: error });
      if (attempt >= attempts) throw failure(ctx, request.url, 'network', { cause: error });
      await sleep(100 * attempt);
    }
  }
}

/**
 * Parse a provider body by its first character: `<` is XML, anything else JSON.
 *
 * @returns The parsed value and its format, or `undefined` when unreadable.
 */
export function parseBody(bytes: Buffer): { body: unknown; format: 'json' | 'xml' } | undefined {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '').trim();
  if (text.startsWith('<')) {
    const body = parseXml(text);
    return body === undefined ? undefined : { body, format: 'xml' };
  }
  try {
    return { body: JSON.parse(text) as unknown, format: 'json' };
  } catch {
    return undefined;
  }
}

/**
 * Request, parse and check a provider answer.
 *
 * @param ctx The call context.
 * @param request URL, method and JSON body.
 * @returns The parsed 2xx body; throws `UpstreamError` for gateway key/quota errors, bad statuses, timeouts and unreadable bodies.
 */
export async function requestUpstream(ctx: UpstreamContext, request: UpstreamRequest): Promise<UpstreamResponse> {
  const { status, bytes } = await sendUpstream(ctx, request);
  const parsed = parseBody(bytes);
  const gateway = parsed ? gatewayFailure(parsed.body) : null;
  if (gateway) throw failure(ctx, request.url, gateway.kind, { status, detail: gateway.detail });
  if (status < 200 || status >= 300) throw failure(ctx, request.url, statusFailure(status), { status, detail: `HTTP ${status}` });
  if (!parsed) throw failure(ctx, request.url, 'malformed', { status, detail: 'neither JSON nor XML' });
  return { status, ...parsed };
}

/**
 * Append query parameters to a base URL and path, skipping empty values.
 *
 * @param base Base URL of the provider.
 * @param path Path below the base, e.g. `getVilageFcst`.
 * @param query Parameters.
 */
export function buildUrl(base: string, path: string, query: Record<string, string | undefined>): URL {
  const url = new URL(`${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(name, value);
  return url;
}
