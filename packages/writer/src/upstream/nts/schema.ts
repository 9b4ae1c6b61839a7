/**
 * Reads NTS business-registration answers (`status_code: "OK"`). An unregistered
 * number is a result: empty b_stt and a tax_type saying it is not registered.
 */
import { at, list, num, scalars, text, type Scalar } from '../shape.ts';

/** Status of each number asked for. */
export interface BizStatus {
  request_cnt: number | null;
  /** Registered numbers among those asked for (the service leaves it out when there are none). */
  match_cnt: number;
  items: (Record<string, Scalar> & { registered: boolean })[];
}

/** Outcome of an authenticity check. */
export interface BizValidation {
  b_no: string | null;
  /** 01 match, 02 mismatch. */
  valid: string | null;
  matched: boolean;
  valid_msg: string | null;
  status: Record<string, Scalar> | null;
}

/** Whether the answer says OK. */
export function isNtsOk(body: unknown): boolean {
  return text(at(body, 'status_code')) === 'OK';
}

/** A status answer. */
export function readBizStatus(body: unknown): BizStatus {
  const items = list(at(body, 'data')).map((raw) => {
    const item = scalars(raw);
    return { ...item, registered: Boolean(text(item.b_stt_cd)) };
  });
  return { request_cnt: num(at(body, 'request_cnt')), match_cnt: num(at(body, 'match_cnt')) ?? items.filter((i) => i.registered).length, items };
}

/** A validate answer (one record). */
export function readBizValidation(body: unknown): BizValidation {
  const first = list(at(body, 'data'))[0];
  const item = scalars(first);
  const status = at(first, 'status');
  const valid = text(item.valid);
  return { b_no: text(item.b_no), valid, matched: valid === '01', valid_msg: text(item.valid_msg), status: status === undefined ? null : scalars(status) };
}
