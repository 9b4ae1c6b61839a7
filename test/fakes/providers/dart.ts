/**
 * Fake OpenDART: list.json, fnlttSinglAcntAll.json and corpCode.xml (a ZIP of
 * CORPCODE.xml). Errors come with HTTP 200 and a status: 010 wrong key, 013 no data,
 * 020 over the limit (mode `limit`).
 */
import { FAKE_KEYS } from '../keys.ts';
import { json, plain, type FakeReply, type FakeRequest } from '../wire.ts';
import { zipOneFile } from '../zip.ts';

/** Real base path of the provider, below its host. */
export const DART_BASE = '/api';

const CORP_XML = `<?xml version="1.0" encoding="UTF-8"?>
<result>
<list><corp_code>00126380</corp_code><corp_name>삼성전자</corp_name><corp_eng_name>SAMSUNG ELECTRONICS CO,.LTD</corp_eng_name><stock_code>005930</stock_code><modify_date>20260102</modify_date></list>
<list><corp_code>00258999</corp_code><corp_name>삼성전자서비스</corp_name><corp_eng_name>SAMSUNG ELECTRONICS SERVICE</corp_eng_name><stock_code> </stock_code><modify_date>20250301</modify_date></list>
<list><corp_code>00258801</corp_code><corp_name>카카오</corp_name><corp_eng_name>Kakao Corp.</corp_eng_name><stock_code>035720</stock_code><modify_date>20260110</modify_date></list>
</result>`;

const FILINGS = [
  { corp_code: '00126380', corp_name: '삼성전자', stock_code: '005930', corp_cls: 'Y', report_nm: '주요사항보고서(자기주식취득결정)', rcept_no: '20261120000123', flr_nm: '삼성전자', rcept_dt: '20261120', rm: '유' },
  { corp_code: '00258801', corp_name: '카카오', stock_code: '035720', corp_cls: 'Y', report_nm: '분기보고서 (2026.09)', rcept_no: '20261114000456', flr_nm: '카카오', rcept_dt: '20261114', rm: '' },
];

const ACCOUNTS = [
  { rcept_no: '20260311000789', reprt_code: '11011', bsns_year: '2025', corp_code: '00126380', sj_div: 'IS', sj_nm: '손익계산서', account_id: 'ifrs-full_Revenue', account_nm: '매출액', account_detail: '-', thstrm_nm: '제 57 기', thstrm_amount: '300870903000000', frmtrm_nm: '제 56 기', frmtrm_amount: '258935494000000', bfefrmtrm_nm: '제 55 기', bfefrmtrm_amount: '302231360000000', ord: '1', currency: 'KRW' },
  { rcept_no: '20260311000789', reprt_code: '11011', bsns_year: '2025', corp_code: '00126380', sj_div: 'IS', sj_nm: '손익계산서', account_id: 'dart_OperatingIncomeLoss', account_nm: '영업이익', account_detail: '-', thstrm_nm: '제 57 기', thstrm_amount: '32726000000000', frmtrm_nm: '제 56 기', frmtrm_amount: '6566976000000', bfefrmtrm_nm: '제 55 기', bfefrmtrm_amount: '43376630000000', ord: '2', currency: 'KRW' },
];

const noData = () => json({ status: '013', message: '조회된 데이타가 없습니다.' });

/** Handle one OpenDART request. */
export function dart(req: FakeRequest): FakeReply {
  const operation = req.path.startsWith(`${DART_BASE}/`) ? req.path.slice(DART_BASE.length + 1) : '';
  if (!['list.json', 'fnlttSinglAcntAll.json', 'corpCode.xml'].includes(operation)) return plain('Not Found', 404);
  if (req.query.get('crtfc_key') !== FAKE_KEYS.dart) return json({ status: '010', message: '등록되지 않은 키입니다.' });
  if (req.mode === 'limit') return json({ status: '020', message: '요청 제한을 초과하였습니다.' });
  if (operation === 'corpCode.xml') return { status: 200, contentType: 'application/x-msdownload', body: zipOneFile('CORPCODE.xml', Buffer.from(CORP_XML, 'utf8')) };
  if (operation === 'list.json') {
    const begin = req.query.get('bgn_de') ?? '';
    const end = req.query.get('end_de') ?? '';
    const type = req.query.get('pblntf_ty');
    const found = FILINGS.filter((f) => f.rcept_dt >= begin && f.rcept_dt <= end && (!type || (type === 'B' ? f.report_nm.startsWith('주요사항') : type === 'A' && f.report_nm.includes('분기'))));
    if (found.length === 0) return noData();
    return json({ status: '000', message: '정상', page_no: 1, page_count: 10, total_count: found.length, total_page: 1, list: found });
  }
  const found = ACCOUNTS.filter((a) => a.corp_code === req.query.get('corp_code') && a.bsns_year === req.query.get('bsns_year') && a.reprt_code === req.query.get('reprt_code'));
  if (!req.query.get('fs_div')) return json({ status: '100', message: '필드의 부적절한 값입니다. (fs_div)' });
  return found.length ? json({ status: '000', message: '정상', list: found }) : noData();
}
