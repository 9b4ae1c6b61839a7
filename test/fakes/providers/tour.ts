/**
 * Fake TourAPI 4.0 KorService2: searchKeyword2, areaBasedList2, locationBasedList2
 * (with `dist`, sorted by distance) and detailCommon2. MobileOS and MobileApp are
 * required (flat code-11 error); a bad areaCode answers the flat code-10 error (so does
 * every request in mode `invalid-param`, for a value the writer's own rules let through);
 * no match answers `"items":""`.
 */
import { dataGoKr, json, plain, type FakeReply, type FakeRequest } from '../wire.ts';
import { checkServiceKey, operationOf } from './common.ts';

/** Real base path of the provider, below its host. */
export const TOUR_BASE = '/B551011/KorService2';

const PLACES = [
  { contentid: '126508', contenttypeid: '12', title: '경복궁', addr1: '서울특별시 종로구 사직로 161', addr2: '', areacode: '1', sigungucode: '23', cat1: 'A02', cat2: 'A0201', cat3: 'A02010100', mapx: '126.9769930325', mapy: '37.5788222356', mlevel: '6', tel: '02-3700-3900', firstimage: 'http://tong.visitkorea.or.kr/cms/resource/33/2678633_image2_1.jpg', firstimage2: '', zipcode: '03045', cpyrhtDivCd: 'Type3', createdtime: '20021016090000', modifiedtime: '20251016153218', overview: '경복궁은 1395년 태조 이성계에 의해서 새로운 조선왕조의 법궁으로 지어졌다.', homepage: '<a href="http://www.royalpalace.go.kr" target="_blank">www.royalpalace.go.kr</a>' },
  { contentid: '127642', contenttypeid: '12', title: '창덕궁과 후원 [유네스코 세계유산]', addr1: '서울특별시 종로구 율곡로 99', addr2: '', areacode: '1', sigungucode: '23', cat1: 'A02', cat2: 'A0201', cat3: 'A02010100', mapx: '126.9910373150', mapy: '37.5794115439', mlevel: '6', tel: '02-3668-2300', firstimage: 'http://tong.visitkorea.or.kr/cms/resource/06/2686206_image2_1.jpg', firstimage2: '', zipcode: '03072', cpyrhtDivCd: 'Type3', createdtime: '20031020090000', modifiedtime: '20250910111111', overview: '창덕궁은 1405년 경복궁의 이궁으로 지어진 궁궐이다.', homepage: '' },
  { contentid: '2757458', contenttypeid: '39', title: '광장시장 빈대떡', addr1: '서울특별시 종로구 창경궁로 88', addr2: '', areacode: '1', sigungucode: '23', cat1: 'A05', cat2: 'A0502', cat3: 'A05020100', mapx: '126.9996', mapy: '37.5700', mlevel: '6', tel: '', firstimage: '', firstimage2: '', zipcode: '03195', cpyrhtDivCd: '', createdtime: '20210601090000', modifiedtime: '20250101090000', overview: '광장시장의 빈대떡 가게.', homepage: '' },
  { contentid: '126081', contenttypeid: '12', title: '해운대해수욕장', addr1: '부산광역시 해운대구 우동', addr2: '', areacode: '6', sigungucode: '16', cat1: 'A01', cat2: 'A0101', cat3: 'A01011200', mapx: '129.1588', mapy: '35.1587', mlevel: '6', tel: '051-749-7621', firstimage: '', firstimage2: '', zipcode: '48094', cpyrhtDivCd: 'Type3', createdtime: '20040101090000', modifiedtime: '20250701090000', overview: '부산의 대표 해수욕장.', homepage: '' },
];
const AREA_CODES = ['1', '2', '3', '4', '5', '6', '7', '8', '31', '32', '33', '34', '35', '36', '37', '38', '39'];

const flat = (code: string, message: string) => json({ responseTime: '2026-11-21T14:00:00.000', resultCode: code, resultMsg: message });

function distance(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 6371000 * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

function listReply(req: FakeRequest, all: Record<string, string>[]): FakeReply {
  const pageNo = Number(req.query.get('pageNo') ?? 1);
  const numOfRows = Number(req.query.get('numOfRows') ?? 10);
  const type = req.query.get('contentTypeId');
  const matching = type ? all.filter((p) => p.contenttypeid === type) : all;
  const slice = matching.slice((pageNo - 1) * numOfRows, pageNo * numOfRows).map(({ overview: _o, homepage: _h, ...item }) => item);
  return dataGoKr(req.query, { resultCode: '0000', resultMsg: 'OK' }, { items: slice.length ? { item: slice } : '', numOfRows, pageNo, totalCount: matching.length });
}

/** Handle one TourAPI request. */
export function tour(req: FakeRequest): FakeReply {
  const operation = operationOf(req, TOUR_BASE);
  if (!operation) return plain('Not Found', 404);
  const keyError = checkServiceKey(req);
  if (keyError) return keyError;
  if (req.mode === 'invalid-param') return flat('10', 'INVALID_REQUEST_PARAMETER_ERROR(areaCode)');
  if (!req.query.get('MobileOS')) return flat('11', 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR1(MobileOS)');
  if (!req.query.get('MobileApp')) return flat('11', 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR1(MobileApp)');
  if (operation === 'searchKeyword2') {
    const keyword = req.query.get('keyword');
    if (!keyword) return flat('11', 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR1(keyword)');
    return listReply(req, PLACES.filter((p) => p.title.includes(keyword)));
  }
  if (operation === 'areaBasedList2') {
    const area = req.query.get('areaCode');
    if (area && !AREA_CODES.includes(area)) return flat('10', 'INVALID_REQUEST_PARAMETER_ERROR(areaCode)');
    return listReply(req, area ? PLACES.filter((p) => p.areacode === area) : PLACES);
  }
  if (operation === 'locationBasedList2') {
    const x = Number(req.query.get('mapX'));
    const y = Number(req.query.get('mapY'));
    const radius = Number(req.query.get('radius') ?? 0);
    if (!x || !y || !radius) return flat('11', 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR1(mapX)');
    const near = PLACES.map((p) => ({ ...p, dist: distance(x, y, Number(p.mapx), Number(p.mapy)).toFixed(13) }))
      .filter((p) => Number(p.dist) <= radius)
      .sort((a, b) => Number(a.dist) - Number(b.dist));
    return listReply(req, near);
  }
  if (operation === 'detailCommon2') {
    const id = req.query.get('contentId');
    if (!id) return flat('11', 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR1(contentId)');
    const place = PLACES.find((p) => p.contentid === id);
    const item = place ? { contentid: place.contentid, contenttypeid: place.contenttypeid, title: place.title, overview: place.overview, homepage: place.homepage, addr1: place.addr1, tel: place.tel, mapx: place.mapx, mapy: place.mapy, firstimage: place.firstimage, cat1: place.cat1, cat2: place.cat2, cat3: place.cat3 } : undefined;
    return dataGoKr(req.query, { resultCode: '0000', resultMsg: 'OK' }, { items: item ? { item: [item] } : '', numOfRows: 10, pageNo: 1, totalCount: item ? 1 : 0 });
  }
  return plain('Not Found', 404);
}
