/**
 * The `{"response":{"header":{resultCode,resultMsg},"body":…}}` envelope shared by the
 * data.go.kr services (JSON or XML), and the flat `{resultCode,resultMsg}` error of
 * TourAPI. Success codes are 00, 0000 and 000; 03 NO_DATA is an empty result.
 */
import { at, isRecord } from './shape.ts';
import { classifyResultCode } from './result-codes.ts';
import { failure, requestUpstream } from './http.ts';
import type { UpstreamContext } from './types.ts';

/** The body of a successful data.go.kr answer, `undefined` for NO_DATA. */
export interface DataGoKrResult {
  body: unknown;
  noData: boolean;
}

/**
 * Read a data.go.kr envelope, throwing `UpstreamError` for every non-success code.
 *
 * @param ctx The call context (for the error).
 * @param url The request URL (redacted in the error).
 * @param parsed The parsed answer.
 */
export function readDataGoKr(ctx: UpstreamContext, url: URL, parsed: unknown): DataGoKrResult {
  const header = at(parsed, 'response', 'header') ?? (isRecord(parsed) && 'resultCode' in parsed ? parsed : undefined);
  const body = at(parsed, 'response', 'body');
  if (!isRecord(header) || !('resultCode' in header)) {
    // An empty `<header/>` before a body is how the wire notes give MSS's answer (its codes
    // unconfirmed): read as success. A gateway error has no body, so it is never taken for one.
    if (body !== undefined && body !== '') return { body, noData: false };
    throw failure(ctx, url, 'malformed', { detail: 'no result header' });
  }
  const { outcome, name } = classifyResultCode(header.resultCode);
  if (outcome === 'no_data') return { body: undefined, noData: true };
  if (outcome !== 'ok') {
    const message = typeof header.resultMsg === 'string' && header.resultMsg.trim() ? header.resultMsg : name;
    throw failure(ctx, url, outcome, { detail: message });
  }
  return { body, noData: false };
}

/**
 * GET a data.go.kr service and read its envelope.
 *
 * @param ctx The call context.
 * @param url The full request URL including the serviceKey.
 */
export async function getDataGoKr(ctx: UpstreamContext, url: URL): Promise<DataGoKrResult> {
  const { body } = await requestUpstream(ctx, { url });
  return readDataGoKr(ctx, url, body);
}
