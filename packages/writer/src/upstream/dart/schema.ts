/**
 * Reads OpenDART answers: `{"status":"000","message":"정상",…}` on success; errors come
 * with HTTP 200 and a status code (013 no data is an empty result).
 */
import { at, list, num, own, scalars, text, type Scalar } from '../shape.ts';
import type { UpstreamFailure } from '../upstream-error.ts';

/** Outcome of an OpenDART status code. */
export type DartOutcome = 'ok' | 'no_data' | UpstreamFailure;

const STATUS: Record<string, DartOutcome> = {
  '000': 'ok',
  '013': 'no_data',
  '010': 'key',
  '011': 'key',
  '012': 'key',
  '901': 'key',
  '020': 'quota',
  '021': 'params',
  '100': 'params',
  '101': 'params',
  '800': 'unavailable',
  '900': 'failed',
};

/** Classify the answer's status; unknown codes are failures. */
export function dartOutcome(body: unknown): { outcome: DartOutcome; detail: string } {
  const status = text(at(body, 'status'));
  if (status === null) return { outcome: 'malformed', detail: 'no status' };
  return { outcome: own(STATUS, status) ?? 'failed', detail: `status ${status}` };
}

/** A list answer (`list.json`, `fnlttSinglAcntAll.json`); `body` undefined for no data. */
export function readDartList(body: unknown): { total_count: number; page_no: number; page_count: number; total_page: number; items: Record<string, Scalar>[] } {
  const items = list(at(body, 'list')).map(scalars);
  return {
    total_count: num(at(body, 'total_count')) ?? items.length,
    page_no: num(at(body, 'page_no')) ?? 1,
    page_count: num(at(body, 'page_count')) ?? items.length,
    total_page: num(at(body, 'total_page')) ?? 1,
    items,
  };
}

/** One company of corpCode.xml. */
export interface CorpCode {
  corp_code: string;
  corp_name: string;
  stock_code: string | null;
  modify_date: string | null;
}

/** The companies of a parsed corpCode.xml (`<result><list>…</list>…</result>`). */
export function readCorpCodes(parsed: unknown): CorpCode[] {
  return list(at(parsed, 'result', 'list')).flatMap((raw) => {
    const corp_code = text(at(raw, 'corp_code'));
    const corp_name = text(at(raw, 'corp_name'));
    if (!corp_code || !corp_name) return [];
    return [{ corp_code, corp_name, stock_code: text(at(raw, 'stock_code')), modify_date: text(at(raw, 'modify_date')) }];
  });
}
