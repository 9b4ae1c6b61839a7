/**
 * Fake Bank of Korea ECOS: `/api/{Service}/{KEY}/json/kr/{start}/{end}/…` for
 * StatisticSearch, StatisticTableList and KeyStatisticList. Errors come with HTTP 200
 * as `{"RESULT":{"CODE","MESSAGE"}}`: INFO-100 wrong key, INFO-200 no data,
 * ERROR-101 a date that does not fit the cycle, ERROR-602 (mode `limit`).
 */
import { FAKE_KEYS } from '../keys.ts';
import { json, plain, type FakeReply, type FakeRequest } from '../wire.ts';

/** Real base path of the provider, below its host. */
export const ECOS_BASE = '/api';

const result = (CODE: string, MESSAGE: string) => json({ RESULT: { CODE, MESSAGE } });

const BASE_RATE = ['202507', '202508', '202509', '202510'].map((TIME, i) => ({
  STAT_CODE: '722Y001', STAT_NAME: '1.3.1. 한국은행 기준금리 및 여수신금리', ITEM_CODE1: '0101000', ITEM_NAME1: '한국은행 기준금리', ITEM_CODE2: null, ITEM_NAME2: null, ITEM_CODE3: null, ITEM_NAME3: null, ITEM_CODE4: null, ITEM_NAME4: null, UNIT_NAME: '연%', WGT: null, TIME, DATA_VALUE: i < 2 ? '2.5' : '2.25',
}));
const TABLES = [
  { P_STAT_CODE: '0000000001', STAT_CODE: '722Y001', STAT_NAME: '1.3.1. 한국은행 기준금리 및 여수신금리', CYCLE: 'M', SRCH_YN: 'Y', ORG_NAME: '한국은행' },
  { P_STAT_CODE: '0000000002', STAT_CODE: '901Y009', STAT_NAME: '4.2.1. 소비자물가지수', CYCLE: 'M', SRCH_YN: 'Y', ORG_NAME: '통계청' },
];
const KEYS = [
  { CLASS_NAME: '시장금리', KEYSTAT_NAME: '한국은행 기준금리', DATA_VALUE: '2.25', CYCLE: '20261120', UNIT_NAME: '%' },
  { CLASS_NAME: '환율', KEYSTAT_NAME: '원/달러 환율(종가)', DATA_VALUE: '1392.5', CYCLE: '20261120', UNIT_NAME: '원' },
];
const CYCLE_FORMAT: Record<string, RegExp> = { A: /^\d{4}$/, S: /^\d{4}S[12]$/, Q: /^\d{4}Q[1-4]$/, M: /^\d{6}$/, SM: /^\d{6}S[12]$/, D: /^\d{8}$/ };

/** Handle one ECOS request. */
export function ecos(req: FakeRequest): FakeReply {
  const [, api, service, key, format, lang, start, end, ...rest] = req.path.split('/').map(decodeURIComponent);
  if (api !== 'api' || !service || !['StatisticSearch', 'StatisticTableList', 'KeyStatisticList'].includes(service)) return plain('Not Found', 404);
  if (key !== FAKE_KEYS.ecos) return result('INFO-100', '인증키가 유효하지 않습니다. 인증키를 확인하십시오! 인증키가 없는 경우 인증키를 신청하십시오!');
  if (format !== 'json' || lang !== 'kr' || !/^\d+$/.test(start ?? '') || !/^\d+$/.test(end ?? '')) return result('ERROR-100', '필수 값이 누락되어 있습니다.');
  if (req.mode === 'limit') return result('ERROR-602', '과도한 OpenAPI호출로 이용이 제한되었습니다. 잠시후 이용해주시기 바랍니다.');
  const slice = <T>(rows: T[]) => rows.slice(Number(start) - 1, Number(end));
  if (service === 'StatisticTableList') return json({ StatisticTableList: { list_total_count: TABLES.length, row: slice(TABLES) } });
  if (service === 'KeyStatisticList') return json({ KeyStatisticList: { list_total_count: KEYS.length, row: slice(KEYS) } });
  const [stat, cycle, from, to, item1] = rest;
  const pattern = CYCLE_FORMAT[cycle ?? ''];
  if (!stat || !cycle || !from || !to) return result('ERROR-100', '필수 값이 누락되어 있습니다.');
  if (!pattern || !pattern.test(from) || !pattern.test(to)) return result('ERROR-101', '주기와 다른 형식의 날짜 형식입니다.');
  const rows = stat === '722Y001' && cycle === 'M' ? BASE_RATE.filter((r) => r.TIME >= from && r.TIME <= to && (!item1 || r.ITEM_CODE1 === item1)) : [];
  if (rows.length === 0) return result('INFO-200', '해당하는 데이터가 없습니다.');
  return json({ StatisticSearch: { list_total_count: rows.length, row: slice(rows) } });
}
