/**
 * Reads law.go.kr DRF answers. Searches answer `{"LawSearch":{totalCnt, page, law:[…]}}`
 * (the target key is absent when nothing matched; other targets use other roots);
 * Korean field names of laws get English aliases. A bad OC answers HTTP 200 with
 * `{"result":"사용자 정보 검증에 실패하였습니다."}`.
 */
import { isRecord, list, num, scalars, text, type Json, type Scalar } from '../shape.ts';

const ALIASES: Record<string, string> = {
  법령일련번호: 'law_serial_no',
  법령명한글: 'law_name',
  법령약칭명: 'law_short_name',
  법령ID: 'law_id',
  공포일자: 'promulgation_date',
  공포번호: 'promulgation_no',
  시행일자: 'effective_date',
  소관부처명: 'ministry',
  법령구분명: 'law_class',
  제개정구분명: 'amendment_type',
  법령상세링크: 'detail_link',
  현행연혁코드: 'history_code',
};

/** A page of search results. */
export interface LawSearchResult {
  totalCnt: number;
  page: number;
  items: Record<string, Scalar>[];
}

/** The error text of a failed-verification answer, or null. */
export function lawAuthFailure(body: unknown): string | null {
  return isRecord(body) && typeof body.result === 'string' && !('LawSearch' in body) ? body.result : null;
}

/** The search root (`LawSearch`, `PrecSearch`, …) of an answer. */
function searchRoot(body: unknown): Json | undefined {
  if (!isRecord(body)) return undefined;
  return Object.values(body).find((value): value is Json => isRecord(value) && 'totalCnt' in value);
}

/**
 * A search answer; `undefined` when the body has no search root.
 *
 * @param body The parsed answer.
 * @param target The searched collection, e.g. `law` or `prec`.
 */
export function readLawSearch(body: unknown, target: string): LawSearchResult | undefined {
  const root = searchRoot(body);
  if (!root) return undefined;
  const items = list(root[target]).map((raw) => {
    const item = scalars(raw);
    for (const [korean, alias] of Object.entries(ALIASES)) if (korean in item) item[alias] = item[korean] ?? null;
    return item;
  });
  return { totalCnt: num(root.totalCnt) ?? items.length, page: num(root.page) ?? 1, items };
}

/** Whether a text is a real result code of success. */
export function isLawOk(code: unknown): boolean {
  const value = text(code);
  return value === null || value === '00';
}
