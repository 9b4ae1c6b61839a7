/**
 * Fake FSC GetCorpBasicInfoService_V2 (getCorpOutline_V2): corpNm partial match,
 * crno and bzno exact; no match answers totalCount 0 with `"items":""`.
 */
import { dataGoKr, plain, type FakeReply, type FakeRequest } from '../wire.ts';
import { checkServiceKey } from './common.ts';

/** Real base path of the provider, below its host. */
export const FSC_BASE = '/1160100/service/GetCorpBasicInfoService_V2';

const CORPS = [
  { basDt: '20261101', crno: '1301110006246', corpNm: '삼성전자(주)', corpEnsnNm: 'SAMSUNG ELECTRONICS CO,.LTD', enpRprFnm: '전영현', corpRegMrktDcdNm: '유가증권', bzno: '1248100998', enpBsadr: '경기도 수원시 영통구 삼성로 129', enpDtadr: '(매탄동)', enpTlno: '031-200-1114', enpHmpgUrl: 'www.samsung.com/sec', sicNm: '통신 및 방송 장비 제조업', enpEstbDt: '19690113', enpEmpeCnt: '124207', enpKrxLstgDt: '19750611', enpKosdaqLstgDt: '', smenpYn: 'N', fssCorpUnqNo: '00126380' },
  { basDt: '20261101', crno: '1101110145453', corpNm: '삼성전자서비스(주)', corpEnsnNm: 'SAMSUNG ELECTRONICS SERVICE', enpRprFnm: '임영빈', corpRegMrktDcdNm: '기타', bzno: '1248165161', enpBsadr: '경기도 수원시 영통구 삼성로 290', enpDtadr: ' ', enpTlno: '1588-3366', enpHmpgUrl: '', sicNm: '가전제품 수리업', enpEstbDt: '19980101', enpEmpeCnt: '1200', enpKrxLstgDt: '', enpKosdaqLstgDt: '', smenpYn: 'N', fssCorpUnqNo: '00258999' },
  { basDt: '20261101', crno: '1101111129497', corpNm: '(주)카카오', corpEnsnNm: 'Kakao Corp.', enpRprFnm: '정신아', corpRegMrktDcdNm: '유가증권', bzno: '1208147521', enpBsadr: '제주특별자치도 제주시 첨단로 242', enpDtadr: '', enpTlno: '1577-3321', enpHmpgUrl: 'www.kakaocorp.com', sicNm: '포털 및 기타 인터넷 정보매개 서비스업', enpEstbDt: '19950216', enpEmpeCnt: '3901', enpKrxLstgDt: '20170710', enpKosdaqLstgDt: '19991111', smenpYn: 'N', fssCorpUnqNo: '00258801' },
];

/** Handle one FSC request. */
export function fsc(req: FakeRequest): FakeReply {
  if (req.path !== `${FSC_BASE}/getCorpOutline_V2`) return plain('Not Found', 404);
  const keyError = checkServiceKey(req);
  if (keyError) return keyError;
  const name = req.query.get('corpNm');
  const crno = req.query.get('crno');
  const bzno = req.query.get('bzno');
  const found = CORPS.filter((c) => (!name || c.corpNm.includes(name)) && (!crno || c.crno === crno) && (!bzno || c.bzno === bzno));
  const pageNo = Number(req.query.get('pageNo') ?? 1);
  const numOfRows = Number(req.query.get('numOfRows') ?? 10);
  const item = found.slice((pageNo - 1) * numOfRows, pageNo * numOfRows);
  return dataGoKr(req.query, { resultCode: '00', resultMsg: 'NORMAL SERVICE.' }, { numOfRows, pageNo, totalCount: found.length, items: item.length ? { item } : '' });
}
