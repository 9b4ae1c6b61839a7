/**
 * Fake K-apt AptBasisInfoServiceV5 (getAphusBassInfoV5, getAphusDtlInfoV5): one
 * complex, A10027875; any other code answers 00 with every field null. V4 paths
 * answer HTTP 400 code 12, as reported.
 */
import { dataGoKr, json, plain, type FakeReply, type FakeRequest } from '../wire.ts';
import { checkServiceKey } from './common.ts';

/** Real base path of the provider, below its host. */
export const KAPT_BASE = '/1613000/AptBasisInfoServiceV5';

const BASIC = {
  kaptCode: 'A10027875', kaptName: '래미안대치팰리스', kaptAddr: '서울특별시 강남구 대치동 1027 래미안대치팰리스', doroJuso: '서울특별시 강남구 삼성로 212',
  bjdCode: '1168010600', codeSaleNm: '분양', codeHeatNm: '지역난방', codeMgrNm: '위탁관리', codeHallNm: '계단식', kaptDongCnt: '28', kaptdaCnt: 1608.0,
  hoCnt: 1608, kaptTarea: 287365.92, kaptBcompany: '삼성물산(주)', kaptAcompany: '대치1지구재건축조합', kaptTel: '02-555-1234', kaptFax: '02-555-1235',
  kaptUrl: ' ', kaptUsedate: '20150918', kaptTopFloor: 35, ktownFlrNo: 35, kaptMparea60: 312, kaptMparea85: 594, kaptMparea135: 486, kaptMparea136: 216, privArea: '197023.45',
  codeAptNm: '아파트', zipcode: '06283',
};

const DETAIL = {
  kaptCode: 'A10027875', kaptName: '래미안대치팰리스', codeMgr: '위탁관리', kaptMgrCnt: '21', kaptCcompany: '우리관리(주)', codeSec: '위탁관리', kaptdScnt: '48',
  kaptdSecCom: '에스원', codeClean: '위탁관리', kaptdClcnt: '30', codeGarbage: '음식물쓰레기종량제', codeDisinf: '위탁관리', kaptdDcnt: '4', disposalType: '도포식',
  codeStr: '철근콘크리트구조', kaptdEcapa: 14500, codeEcon: '단일계약', codeEmgr: '상주선임', codeFalarm: 'R형', codeWsupply: '부스타방식', codeElev: '위탁관리',
  kaptdEcnt: '56', kaptdPcnt: '2816', kaptdPcntu: '2816', codeNet: '무', kaptdCccnt: '612', welfareFacility: '관리사무소, 노인정, 보육시설, 주민공동시설',
  kaptdWtimebus: '5분이내', subwayLine: '3호선, 분당선', subwayStation: '대치역', kaptdWtimesub: '5~10분이내', convenientFacility: '관공서(강남구청) 병원(삼성서울병원)',
  educationFacility: '초등학교(대곡초등학교) 중학교(대청중학교)', groundElChargerCnt: 12, undergroundElChargerCnt: 48, useYn: 'Y',
};

const blank = (record: Record<string, unknown>) => Object.fromEntries(Object.keys(record).map((key) => [key, null]));

/** Handle one K-apt request. */
export function kapt(req: FakeRequest): FakeReply {
  if (req.path.startsWith('/1613000/AptBasisInfoServiceV4/')) {
    return json({ response: { header: { resultCode: '12', resultMsg: 'NO_OPENAPI_SERVICE_ERROR' } } }, 400);
  }
  const operation = req.path.startsWith(`${KAPT_BASE}/`) ? req.path.slice(KAPT_BASE.length + 1) : '';
  const record = operation === 'getAphusBassInfoV5' ? BASIC : operation === 'getAphusDtlInfoV5' ? DETAIL : null;
  if (!record) return plain('Not Found', 404);
  const keyError = checkServiceKey(req);
  if (keyError) return keyError;
  const kaptCode = req.query.get('kaptCode');
  if (!kaptCode) return dataGoKr(req.query, { resultCode: '11', resultMsg: 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR' });
  const item = kaptCode === BASIC.kaptCode ? record : blank(record);
  return dataGoKr(req.query, { resultCode: '00', resultMsg: 'NORMAL SERVICE.' }, { item });
}
