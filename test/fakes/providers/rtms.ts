/**
 * Fake MOLIT RTMSDataSvcAptTrade: XML with resultCode 000, `<items/>` when empty;
 * prices like " 164,000", blanks as a single space, one cancelled deal.
 */
import { plain, xml, type FakeReply, type FakeRequest } from '../wire.ts';
import { checkServiceKey } from './common.ts';

/** Real base path of the provider, below its host. */
export const RTMS_BASE = '/1613000/RTMSDataSvcAptTrade';

const deal = (aptNm: string, amount: string, area: string, floor: string, day: string, cancelled = false) => ({
  aptDong: ' ', aptNm, aptSeq: '11110-2203', bonbun: '0001', bubun: '0000', buildYear: '2008', buyerGbn: '개인', cdealDay: cancelled ? '26.10.30' : ' ', cdealType: cancelled ? 'O' : ' ',
  dealAmount: amount, dealDay: day, dealMonth: '10', dealYear: '2026', dealingGbn: '중개거래', estateAgentSggNm: '서울 종로구', excluUseAr: area, floor, jibun: '1',
  landCd: '1', landLeaseholdGbn: 'N', rgstDate: ' ', roadNm: '경희궁길', sggCd: '11110', slerGbn: '개인', umdCd: '11500', umdNm: '내수동',
});

const DEALS = [deal('경희궁의아침3단지', ' 164,000', '150.48', '12', '3'), deal('경희궁의아침3단지', '98,500', '84.9', '7', '15'), deal('광화문스페이스본', '210,000', '144.3', '9', '21', true)];

/** Handle one RTMS request. */
export function rtms(req: FakeRequest): FakeReply {
  if (req.path !== `${RTMS_BASE}/getRTMSDataSvcAptTrade`) return plain('Not Found', 404);
  const keyError = checkServiceKey(req);
  if (keyError) return keyError;
  const lawd = req.query.get('LAWD_CD');
  const ymd = req.query.get('DEAL_YMD');
  if (!lawd || !ymd) return xml({ response: { header: { resultCode: '11', resultMsg: 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR' } } });
  const found = lawd === '11110' && ymd === '202610' ? DEALS : [];
  return xml({ response: { header: { resultCode: '000', resultMsg: 'OK' }, body: { items: found.length ? { item: found } : '', numOfRows: 100, pageNo: 1, totalCount: found.length } } });
}
