/**
 * Reply helpers of the fakes: JSON and XML bodies (fast-xml-parser's builder, CDATA
 * via `__cdata`), and the data.go.kr `{"response":{"header","body"}}` envelope in
 * either format.
 */
import { XMLBuilder } from 'fast-xml-parser';

/** What a fake handler answers. */
export interface FakeReply {
  status: number;
  contentType: string;
  body: string | Buffer;
  /** More response headers (a redirect's `Location`). */
  headers?: Record<string, string>;
}

/** What a fake handler gets. */
export interface FakeRequest {
  method: string;
  /** Path below the provider prefix, e.g. `/1360000/VilageFcstInfoService_2.0/getVilageFcst`. */
  path: string;
  query: URLSearchParams;
  body: string;
  /** Provider-specific mode set by the test (e.g. `no-data`), or null. */
  mode: string | null;
}

const builder = new XMLBuilder({ ignoreAttributes: true, cdataPropName: '__cdata', format: false, suppressEmptyNode: true });

/** A JSON reply. */
export const json = (body: unknown, status = 200): FakeReply => ({ status, contentType: 'application/json;charset=UTF-8', body: JSON.stringify(body) });

/** An XML reply from an object (`{response: {...}}`). */
export const xml = (body: unknown, status = 200): FakeReply => ({
  status,
  contentType: 'text/xml;charset=UTF-8',
  body: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${builder.build(body) as string}`,
});

/** A plain-text reply. */
export const plain = (body: string, status: number): FakeReply => ({ status, contentType: 'text/plain;charset=UTF-8', body });

/** Whether the caller asked for JSON (`dataType=JSON`, `_type=json`, `resultType=json`). */
export function wantsJson(query: URLSearchParams): boolean {
  return ['dataType', '_type', 'resultType', 'type'].some((name) => query.get(name)?.toLowerCase() === 'json');
}

/** A data.go.kr answer in the format asked for. */
export function dataGoKr(query: URLSearchParams, header: { resultCode: string; resultMsg: string }, body?: unknown): FakeReply {
  const response = body === undefined ? { header } : { header, body };
  return wantsJson(query) ? json({ response }) : xml({ response });
}

/** The gateway's key or quota error: XML with HTTP 200 (even when JSON was asked for). */
export function gatewayXml(code: string, authMsg: string, status = 200): FakeReply {
  return xml({ OpenAPI_ServiceResponse: { cmmMsgHeader: { errMsg: 'SERVICE ERROR', returnAuthMsg: authMsg, returnReasonCode: code } } }, status);
}

/** The gateway's JSON copy of the same error, with HTTP 403. */
export function gatewayJson(code: string, authMsg: string, status = 403): FakeReply {
  return json({ OpenAPI_ServiceResponse: { cmmMsgHeader: { errMsg: 'SERVICE ERROR', returnAuthMsg: authMsg, returnReasonCode: code } } }, status);
}
