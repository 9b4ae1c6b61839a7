import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dig, qs, startHarness, type Answer } from './harness.ts';

const NOW = new Date('2026-11-21T02:30:00Z'); // 11:30 KST: the 1100 run is out

function assertEnvelope(answer: Answer, operation: string, provider: RegExp) {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual(Object.keys(answer.body as object).sort(), ['data', 'source']);
  assert.equal(answer.source.operation, operation);
  assert.match(answer.source.provider, provider);
  assert.match(answer.source.attribution, /^Source: /);
  assert.equal(answer.source.fetched_at, NOW.toISOString());
  assert.equal(typeof answer.source.cached, 'boolean');
}

test('simple endpoints', async (t) => {
  const harness = await startHarness({ now: () => NOW });
  t.after(() => harness.stop());

  await t.test('should give nx and ny each its own default (spec 4.3: 60 and 127)', async () => {
    for (const [query, cell] of [['nx=98', [98, 127]], ['ny=76', [60, 76]]] as const) {
      const answer = await harness.get(`/api/weather?${query}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual([dig(answer.data, 'nx'), dig(answer.data, 'ny')], cell);
      assert.match(harness.fake.log.at(-1)?.url ?? '', new RegExp(`nx=${cell[0]}&ny=${cell[1]}`));
    }
  });

  await t.test('should answer /api/weather with hourly rows and daily extremes of the latest run', async () => {
    const answer = await harness.get('/api/weather');
    assertEnvelope(answer, 'getVilageFcst', /Korea Meteorological Administration/);
    assert.equal(dig(answer.data, 'nx'), 60);
    assert.equal(dig(answer.data, 'ny'), 127);
    assert.equal(dig(answer.data, 'base_date'), '20261121');
    assert.equal(dig(answer.data, 'base_time'), '1100');
    const hours = dig(answer.data, 'hours') as Record<string, unknown>[];
    assert.equal(hours.length, 12 + 24 * 3, 'from 1200 today to 2300 three days later');
    // Spec 4.3's elements at 1-hour steps; TMX and TMN only in the hour KMA gives them.
    assert.deepEqual(Object.keys(hours[0] ?? {}), ['date', 'time', 'TMP', 'SKY', 'PTY', 'POP', 'PCP', 'REH', 'WSD', 'TMX', 'TMN']);
    const at = (date: string, time: string) => hours.find((h) => h.date === date && h.time === time);
    assert.deepEqual([at('20261121', '1500')?.TMX, at('20261122', '0600')?.TMN, at('20261122', '1500')?.TMX], [14, 3, 15]);
    assert.deepEqual([at('20261121', '1200')?.TMX, at('20261121', '1200')?.TMN], [null, null]);
    assert.equal(hours[0]?.time, '1200');
    assert.equal(typeof hours[0]?.TMP, 'number');
    assert.equal(hours[0]?.PCP, '강수없음');
    const days = dig(answer.data, 'days') as { date: string; TMX: number | null; TMN: number | null }[];
    assert.deepEqual(days.map((d) => d.date), ['20261121', '20261122', '20261123', '20261124']);
    assert.equal(days[0]?.TMN, null, 'the 0600 slot of today is past');
    assert.equal(days[0]?.TMX, 14);
    assert.deepEqual([days[1]?.TMN, days[1]?.TMX], [3, 15]);
    assert.match(harness.fake.log.at(-1)?.url ?? '', /pageNo=2/, 'the window spans two pages of 1000 rows');
  });

  await t.test('should convert lat and lon with the KMA grid', async () => {
    const answer = await harness.get('/api/weather?lat=35.1798&lon=129.0750');
    assertEnvelope(answer, 'getVilageFcst', /KMA/);
    assert.deepEqual([dig(answer.data, 'nx'), dig(answer.data, 'ny'), dig(answer.data, 'lat')], [98, 76, 35.1798]);
    assert.match(harness.fake.log.at(-1)?.url ?? '', /nx=98&ny=76/);
  });

  await t.test('should answer /api/apt basic and detail info', async () => {
    const basic = await harness.get('/api/apt?kaptCode=A10027875');
    assertEnvelope(basic, 'getAphusBassInfoV5', /K-apt/);
    assert.equal(dig(basic.data, 'found'), true);
    assert.equal(dig(basic.data, 'item', 'kaptName'), '래미안대치팰리스');
    assert.equal(dig(basic.data, 'item', 'kaptdaCnt'), 1608);
    assert.equal(dig(basic.data, 'item', 'kaptUrl'), null, 'a single space is blank');
    const detail = await harness.get('/api/apt?kaptCode=A10027875&detail=1');
    assertEnvelope(detail, 'getAphusDtlInfoV5', /K-apt/);
    assert.equal(dig(detail.data, 'item', 'subwayStation'), '대치역');
  });

  await t.test('should answer "no such complex" for a code the provider answers with nulls', async () => {
    const answer = await harness.get('/api/apt?kaptCode=A99999999');
    assertEnvelope(answer, 'getAphusBassInfoV5', /K-apt/);
    assert.deepEqual(answer.data, { found: false, kaptCode: null, requested: 'A99999999', message: 'no such complex' });
    // Any "letter A plus digits" (spec 4.3) is asked, a short one too.
    const short = await harness.get('/api/apt?kaptCode=A1');
    assert.deepEqual(short.data, { found: false, kaptCode: null, requested: 'A1', message: 'no such complex' });
  });

  await t.test('should answer every /api/tour action', async () => {
    const search = await harness.get(`/api/tour${qs({ action: 'search', keyword: '경복궁' })}`);
    assertEnvelope(search, 'searchKeyword2', /Korea Tourism Organization/);
    assert.equal(dig(search.data, 'totalCount'), 1);
    assert.equal(dig(search.data, 'items', 0, 'contentid'), '126508');
    assert.equal(dig(search.data, 'items', 0, 'mapx'), 126.9769930325);
    const area = await harness.get('/api/tour?action=area&areaCode=6');
    assertEnvelope(area, 'areaBasedList2', /TourAPI/);
    assert.equal(dig(area.data, 'items', 0, 'title'), '해운대해수욕장');
    const near = await harness.get('/api/tour?action=location&mapX=126.9770&mapY=37.5790&radius=1500');
    assertEnvelope(near, 'locationBasedList2', /TourAPI/);
    const items = dig(near.data, 'items') as { dist: number; title: string }[];
    assert.equal(items[0]?.title, '경복궁');
    assert.ok(items.every((item, i) => typeof item.dist === 'number' && item.dist <= 1500 && (i === 0 || item.dist >= (items[i - 1]?.dist ?? 0))));
    assert.match(harness.fake.log.at(-1)?.url ?? '', /arrange=E/);
    const detail = await harness.get('/api/tour?action=detail&contentId=126508');
    assertEnvelope(detail, 'detailCommon2', /TourAPI/);
    assert.match(String(dig(detail.data, 'item', 'overview')), /1395년/);
  });

  await t.test('should answer totalCount 0 with no items when nothing matches', async () => {
    const answer = await harness.get(`/api/tour${qs({ action: 'search', keyword: '없는장소' })}`);
    assert.deepEqual(answer.data, { totalCount: 0, pageNo: 1, numOfRows: 10, items: [] });
    const detail = await harness.get('/api/tour?action=detail&contentId=1');
    assert.equal(dig(detail.data, 'found'), false);
  });

  await t.test('should answer /api/bizinfo status, including an unregistered number as a result', async () => {
    const answer = await harness.get(`/api/bizinfo${qs({ action: 'status', b_no: '1248100998 2208717483,1234567891' })}`);
    assertEnvelope(answer, 'status', /National Tax Service/);
    assert.equal(dig(answer.data, 'match_cnt'), 2);
    assert.equal(dig(answer.data, 'items', 0, 'b_stt'), '계속사업자');
    assert.equal(dig(answer.data, 'items', 1, 'b_stt_cd'), '02');
    assert.equal(dig(answer.data, 'items', 2, 'registered'), false);
    assert.equal(dig(answer.data, 'items', 2, 'tax_type'), '국세청에 등록되지 않은 사업자등록번호입니다.');
    // Only unregistered numbers: the service leaves `match_cnt` out; the answer says 0.
    const none = await harness.get(`/api/bizinfo${qs({ action: 'status', b_no: '1234567891' })}`);
    assert.deepEqual([dig(none.data, 'match_cnt'), dig(none.data, 'items', 0, 'registered')], [0, false]);
    // Spec 7: an unregistered number is a result, whatever its check digit (before: 400 for
    // 1234567890, whose check digit is wrong, as for nine in ten made-up numbers).
    for (const bNo of ['1234567890', '0000000000', '1248100997']) {
      const unknown = await harness.get(`/api/bizinfo${qs({ action: 'status', b_no: bNo })}`);
      assert.equal(unknown.status, 200, `${bNo}: ${JSON.stringify(unknown.body)}`);
      assert.equal(dig(unknown.data, 'items', 0, 'tax_type'), '국세청에 등록되지 않은 사업자등록번호입니다.');
    }
  });

  await t.test('should answer /api/bizinfo validate with 01 on match and 02 on mismatch', async () => {
    const match = await harness.get(`/api/bizinfo${qs({ action: 'validate', b_no: '124-81-00998', start_dt: '19690113', p_nm: '홍길동' })}`);
    assertEnvelope(match, 'validate', /National Tax Service/);
    assert.deepEqual([dig(match.data, 'valid'), dig(match.data, 'matched')], ['01', true]);
    const mismatch = await harness.get(`/api/bizinfo${qs({ action: 'validate', b_no: '1248100998', start_dt: '19700101', p_nm: '홍길동' })}`);
    assert.equal(mismatch.status, 200);
    assert.deepEqual([dig(mismatch.data, 'valid'), dig(mismatch.data, 'matched'), dig(mismatch.data, 'valid_msg')], ['02', false, '확인할 수 없습니다.']);
  });

  await t.test('should answer /api/corp by name, crno and bzno, and totalCount 0 for no match', async () => {
    const byName = await harness.get(`/api/corp${qs({ corpNm: '삼성전자' })}`);
    assertEnvelope(byName, 'getCorpOutline_V2', /Financial Services Commission/);
    assert.equal(dig(byName.data, 'totalCount'), 2);
    const byCrno = await harness.get('/api/corp?crno=1101111129497');
    assert.equal(dig(byCrno.data, 'items', 0, 'corpNm'), '(주)카카오');
    const byBzno = await harness.get('/api/corp?bzno=1248100998');
    assert.equal(dig(byBzno.data, 'items', 0, 'crno'), '1301110006246');
    const none = await harness.get(`/api/corp${qs({ corpNm: '없는회사' })}`);
    assert.equal(none.status, 200);
    assert.equal(dig(none.data, 'totalCount'), 0);
    assert.deepEqual(dig(none.data, 'items'), []);
  });

  await t.test('should answer /api/biznotice as JSON with excerpts and attachments', async () => {
    const answer = await harness.get('/api/biznotice?pageNo=1&numOfRows=10');
    assertEnvelope(answer, 'getbizList_v2', /Ministry of SMEs and Startups/);
    assert.equal(dig(answer.data, 'totalCount'), 3);
    assert.equal(dig(answer.data, 'items', 0, 'excerpt'), '수출바우처 사업에 참여할 중소기업을 모집합니다.\n문의: 1357');
    assert.deepEqual(dig(answer.data, 'items', 0, 'files', 1), { name: '신청서.docx', url: 'https://www.mss.go.kr/common/board/Download.do?bcIdx=1001&streFileNm=b.docx' });
    assert.equal((dig(answer.data, 'items', 1, 'files') as unknown[]).length, 1);
    assert.equal([...String(dig(answer.data, 'items', 1, 'excerpt'))].length, 2000);
    assert.deepEqual(dig(answer.data, 'items', 2, 'files'), []);
    assert.equal(dig(answer.data, 'items', 2, 'excerpt'), '소상공인 <경영개선> 지원');
  });

  await t.test('should read the notices of an answer with an empty <header/> (the wire notes\' shape)', async () => {
    harness.fake.setMode('mss', 'empty-header');
    try {
      // Not the query above: its answer is cached.
      const answer = await harness.get('/api/biznotice?pageNo=1&numOfRows=9');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(dig(answer.data, 'totalCount'), 3);
      assert.equal(dig(answer.data, 'items', 0, 'itemId'), '1001');
    } finally {
      harness.fake.setMode('mss', null);
    }
  });

  await t.test('should decode XML character references (&#NNNN; and &#xHHHH;) in the notices\' text', async () => {
    harness.fake.setMode('mss', 'char-refs');
    try {
      // Not a query above: their answers are cached.
      const answer = await harness.get('/api/biznotice?pageNo=1&numOfRows=8');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(dig(answer.data, 'items', 0, 'title'), "2027년 수출바우처 사업 '참여기업' 모집 공고");
      assert.equal(dig(answer.data, 'items', 0, 'writerName'), '김담당');
    } finally {
      harness.fake.setMode('mss', null);
    }
  });

  await t.test('should filter titles of the page with q and pass dates through', async () => {
    const answer = await harness.get(`/api/biznotice${qs({ q: '스마트', startDate: '2026-11-01', endDate: '2026-11-21' })}`);
    assert.equal(answer.status, 200);
    assert.deepEqual((dig(answer.data, 'items') as { itemId: string }[]).map((n) => n.itemId), ['1002']);
    assert.equal(dig(answer.data, 'totalCount'), 2, 'totalCount is the provider count of the range');
    assert.match(harness.fake.log.at(-1)?.url ?? '', /startDate=2026-11-01&endDate=2026-11-21/);
  });

  await t.test('should answer a page past the last (the provider\'s NO_DATA) with the page and size asked for', async () => {
    const answer = await harness.get('/api/biznotice?pageNo=15&numOfRows=20');
    assert.equal(answer.status, 200);
    assert.deepEqual([dig(answer.data, 'pageNo'), dig(answer.data, 'numOfRows'), dig(answer.data, 'totalCount'), dig(answer.data, 'items')], [15, 20, 0, []]);
  });
});
