/**
 * Recognizes the data.go.kr gateway's key and quota answers, which arrive as XML
 * `<OpenAPI_ServiceResponse><cmmMsgHeader>…` with HTTP 200 (even when JSON was asked
 * for), or as its JSON copy with HTTP 403, or with HTTP 401/403/429.
 */
import { at } from './shape.ts';
import { classifyResultCode } from './result-codes.ts';
import type { UpstreamFailure } from './upstream-error.ts';

/** A recognized gateway failure. */
export interface GatewayFailure {
  kind: UpstreamFailure;
  detail: string;
}

/**
 * The gateway failure in a parsed body, or `null` when the body is not a gateway message.
 *
 * @param body Parsed JSON or XML.
 */
export function gatewayFailure(body: unknown): GatewayFailure | null {
  const header = at(body, 'OpenAPI_ServiceResponse', 'cmmMsgHeader');
  if (header === undefined) return null;
  const reason = at(header, 'returnReasonCode');
  const { outcome, name } = classifyResultCode(reason);
  const authMsg = at(header, 'returnAuthMsg');
  const detail = typeof authMsg === 'string' && authMsg.trim() ? authMsg.trim() : name;
  const kind: UpstreamFailure = outcome === 'ok' || outcome === 'no_data' ? 'failed' : outcome;
  return { kind, detail };
}

/** Failure kind for an HTTP status without a recognizable body. */
export function statusFailure(status: number): UpstreamFailure {
  if (status === 401 || status === 403) return 'key';
  if (status === 429) return 'quota';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 503) return 'unavailable';
  return 'failed';
}
