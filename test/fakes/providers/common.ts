/**
 * Helpers shared by the fake providers: the data.go.kr key check and the operation
 * name below a base path.
 */
import { FAKE_KEYS } from '../keys.ts';
import { gatewayXml, type FakeReply, type FakeRequest } from '../wire.ts';

/** The gateway's answer to a wrong or missing serviceKey (XML, HTTP 200), or null when the key is right. */
export function checkServiceKey(req: FakeRequest): FakeReply | null {
  const key = req.query.get('serviceKey') ?? req.query.get('ServiceKey');
  return key === FAKE_KEYS.dataGoKr ? null : gatewayXml('30', 'SERVICE_KEY_IS_NOT_REGISTERED_ERROR');
}

/** The operation after `base` in the request path, or null when the path is elsewhere. */
export function operationOf(req: FakeRequest, base: string): string | null {
  return req.path.startsWith(`${base}/`) ? req.path.slice(base.length + 1) : null;
}

/** A date shifted by whole days, as YYYYMMDD. */
export function addDays(yyyymmdd: string, days: number): string {
  const date = new Date(Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)) + days));
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}
