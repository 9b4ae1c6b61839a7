/**
 * Fake NTS nts-businessman v1 on api.odcloud.kr: POST `status` and `validate` with
 * JSON bodies and the serviceKey in the query. 1248100998 and 2208717483 are
 * registered; any other number answers the "not registered" item. validate matches
 * 1248100998 / 19690113 / 홍길동 (01), anything else is 02.
 */
import { FAKE_KEYS } from '../keys.ts';
import { json, plain, type FakeReply, type FakeRequest } from '../wire.ts';

/** Real base path of the provider, below its host. */
export const NTS_BASE = '/api/nts-businessman/v1';

const REGISTERED: Record<string, Record<string, string>> = {
  '1248100998': { b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '', utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99' },
  '2208717483': { b_stt: '휴업자', b_stt_cd: '02', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '', utcc_yn: 'N', tax_type_change_dt: '20200101', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99' },
};

function statusOf(bNo: string): Record<string, string> {
  return { b_no: bNo, ...(REGISTERED[bNo] ?? { b_stt: '', b_stt_cd: '', tax_type: '국세청에 등록되지 않은 사업자등록번호입니다.', tax_type_cd: '', end_dt: '', utcc_yn: '', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '', rbf_tax_type_cd: '' }) };
}

function parse(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Handle one NTS request. */
export function nts(req: FakeRequest): FakeReply {
  const operation = req.path.startsWith(`${NTS_BASE}/`) ? req.path.slice(NTS_BASE.length + 1) : '';
  if (operation !== 'status' && operation !== 'validate') return json({ code: -3, msg: '등록되지 않은 서비스 입니다.' }, 404);
  if (req.query.get('serviceKey') !== FAKE_KEYS.dataGoKr) return json({ code: -4, msg: '등록되지 않은 인증키 입니다.' }, 401);
  if (req.method !== 'POST') return plain('Method Not Allowed', 405);
  if (req.mode === 'internal-error') return json({ status_code: 'INTERNAL_ERROR' }, 500);
  const body = parse(req.body);
  if (!body) return json({ status_code: 'BAD_JSON_REQUEST' }, 400);
  if (operation === 'status') {
    const numbers = body.b_no;
    if (!Array.isArray(numbers) || numbers.length === 0) return json({ status_code: 'REQUEST_DATA_MALFORMED' }, 411);
    if (numbers.length > 100) return json({ status_code: 'TOO_LARGE_REQUEST' }, 413);
    const data = numbers.map((n) => statusOf(String(n)));
    const matched = data.filter((d) => d.b_stt_cd).length;
    // As the service does: no `match_cnt` at all when no number is registered.
    return json({ status_code: 'OK', ...(matched > 0 ? { match_cnt: matched } : {}), request_cnt: numbers.length, data });
  }
  const businesses = body.businesses;
  if (!Array.isArray(businesses) || businesses.length === 0) return json({ status_code: 'REQUEST_DATA_MALFORMED' }, 411);
  const data = businesses.map((raw) => {
    const b = raw as Record<string, string>;
    const match = b.b_no === '1248100998' && b.start_dt === '19690113' && b.p_nm === '홍길동';
    return match
      ? { b_no: b.b_no, valid: '01', request_param: b, status: statusOf(String(b.b_no)) }
      : { b_no: b.b_no, valid: '02', valid_msg: '확인할 수 없습니다.', request_param: b };
  });
  return json({ status_code: 'OK', request_cnt: businesses.length, valid_cnt: data.filter((d) => d.valid === '01').length, data });
}
