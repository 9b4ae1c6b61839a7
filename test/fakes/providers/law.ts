/**
 * Fake law.go.kr DRF: lawSearch.do (JSON; the `law` key is absent when nothing
 * matched) and lawService.do. A wrong OC answers HTTP 200 with a `result` message.
 */
import { FAKE_KEYS } from '../keys.ts';
import { json, plain, xml, type FakeReply, type FakeRequest } from '../wire.ts';

/** Real base path of the provider, below its host. */
export const LAW_BASE = '/DRF';

const LAWS = [
  { 법령일련번호: '248613', 현행연혁코드: '현행', 법령명한글: '자동차관리법', 법령약칭명: '', 법령ID: '001734', 공포일자: '20230328', 공포번호: '19285', 제개정구분명: '일부개정', 소관부처코드: '1613000', 소관부처명: '국토교통부', 법령구분명: '법률', 시행일자: '20240329', 법령상세링크: '/DRF/lawService.do?OC=fakeoc&target=law&MST=248613&type=HTML' },
  { 법령일련번호: '253527', 현행연혁코드: '현행', 법령명한글: '자동차관리법 시행령', 법령약칭명: '', 법령ID: '002880', 공포일자: '20231010', 공포번호: '33770', 제개정구분명: '일부개정', 소관부처코드: '1613000', 소관부처명: '국토교통부', 법령구분명: '대통령령', 시행일자: '20231010', 법령상세링크: '/DRF/lawService.do?OC=fakeoc&target=law&MST=253527&type=HTML' },
];

/** Handle one law.go.kr request. */
export function law(req: FakeRequest): FakeReply {
  const operation = req.path === `${LAW_BASE}/lawSearch.do` ? 'search' : req.path === `${LAW_BASE}/lawService.do` ? 'service' : null;
  if (!operation) return plain('Not Found', 404);
  if (req.query.get('OC') !== FAKE_KEYS.law) {
    return json({ result: '사용자 정보 검증에 실패하였습니다.', msg: 'OPEN API 호출 시 사용자 검증을 위하여 정확한 서버장비의 IP주소 및 도메인주소를 등록해 주세요.' });
  }
  const target = req.query.get('target') ?? '';
  if (operation === 'search') {
    const query = req.query.get('query') ?? '';
    const found = target === 'law' ? LAWS.filter((l) => l.법령명한글.includes(query)) : [];
    const root = { target, 키워드: query, section: 'lawNm', totalCnt: String(found.length), page: req.query.get('page') ?? '1', resultCode: '00', resultMsg: 'success', ...(found.length ? { law: found.map((l, i) => ({ id: String(i + 1), ...l })) } : {}) };
    return req.query.get('type') === 'XML' ? xml({ LawSearch: root }) : json({ LawSearch: root });
  }
  const found = LAWS.find((l) => l.법령일련번호 === req.query.get('MST'));
  if (!found) return json({ Law: '일치하는 법령이 없습니다. 법령명을 확인하여 주십시오.' });
  return json({
    법령: {
      기본정보: { 법령ID: found.법령ID, 법령명_한글: found.법령명한글, 공포일자: found.공포일자, 시행일자: found.시행일자, 소관부처: { content: found.소관부처명 } },
      조문: { 조문단위: [{ 조문번호: '1', 조문제목: '목적', 조문내용: '제1조(목적) 이 법은 자동차를 효율적으로 관리하고 자동차의 성능 및 안전을 확보함으로써 공공의 복리를 증진함을 목적으로 한다.' }] },
      부칙: { 부칙단위: [{ 부칙공포일자: found.공포일자, 부칙내용: '이 법은 공포 후 1년이 경과한 날부터 시행한다.' }] },
    },
  });
}
