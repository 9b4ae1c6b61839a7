import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, qs } from './harness.ts';

/** [request path, field named in the 400, text the message must contain] */
const CASES: [string, string, RegExp][] = [
  ['/api/weather?nx=0&ny=127', 'nx', /query\/nx must be an integer from 1 to 149/],
  ['/api/weather?nx=60&ny=abc', 'ny', /query\/ny must be an integer from 1 to 253/],
  ['/api/weather?lat=37.5', 'lon', /query\/lon is required together with lat/],
  ['/api/weather?lat=91&lon=127', 'lat', /query\/lat must be a latitude from 32 to 44/],
  ['/api/weather?lat=37.5&lon=200', 'lon', /query\/lon must be a longitude from 123 to 133/],
  ['/api/weather?lat=37.5&lon=127&nx=60', 'lat', /must not be combined with nx and ny/],
  ['/api/weather?nx=60&ny=127&city=seoul', 'city', /query\/city is not a known parameter; allowed: nx, ny, lat, lon/],
  ['/api/weather?nx=60&nx=61&ny=127', 'nx', /query\/nx must be given once/],
  ['/api/apt', 'kaptCode', /query\/kaptCode is required/],
  ['/api/apt?kaptCode=B10027875', 'kaptCode', /query\/kaptCode must be the letter A followed by 1 to 12 digits/],
  ['/api/apt?kaptCode=A1002787x', 'kaptCode', /letter A followed by 1 to 12 digits/],
  ['/api/apt?kaptCode=A', 'kaptCode', /letter A followed by 1 to 12 digits/],
  ['/api/apt?kaptCode=A1234567890123', 'kaptCode', /letter A followed by 1 to 12 digits/],
  ['/api/apt?kaptCode=A10027875&detail=2', 'detail', /query\/detail must be one of 0, 1/],
  ['/api/tour', 'action', /query\/action is required/],
  ['/api/tour?action=nearby', 'action', /query\/action must be one of search, area, location, detail/],
  ['/api/tour?action=toString', 'action', /query\/action must be one of/],
  // Before: "must be one of search, area, location, detail", though both values were among them.
  ['/api/tour?action=search&action=area&keyword=a', 'action', /query\/action must be given once, as text/],
  ['/api/bizinfo?action=status&action=status&b_no=1248100998', 'action', /query\/action must be given once, as text/],
  ['/api/tour?action=search', 'keyword', /query\/keyword is required/],
  [`/api/tour${qs({ action: 'search', keyword: '가'.repeat(51) })}`, 'keyword', /query\/keyword must be 1 to 50 characters, got 51/],
  ['/api/tour?action=search&keyword=', 'keyword', /query\/keyword is required/],
  // Before: "must be 1 to 100 characters, got 0" for a name the client did send.
  ['/api/corp?corpNm=%20', 'corpNm', /query\/corpNm must be 1 to 100 characters, got 0 \(only spaces/],
  ['/api/tour?action=search&keyword=a&contentTypeId=13', 'contentTypeId', /must be one of 12, 14, 15, 25, 28, 32, 38, 39/],
  ['/api/tour?action=search&keyword=a&arrange=Z', 'arrange', /must be one of A, C, D, O, Q, R/],
  ['/api/tour?action=search&keyword=a&numOfRows=0', 'numOfRows', /must be an integer from 1 to 100/],
  ['/api/tour?action=search&keyword=a&mapX=127', 'mapX', /query\/mapX is not a known parameter/],
  ['/api/tour?action=area', 'areaCode', /query\/areaCode is required/],
  ['/api/tour?action=area&areaCode=99', 'areaCode', /must be one of 1, 2, 3/],
  ['/api/tour?action=location&mapY=37.5', 'mapX', /query\/mapX is required/],
  ['/api/tour?action=location&mapX=123.9&mapY=37.5', 'mapX', /query\/mapX must be a longitude from 124 to 132/],
  ['/api/tour?action=location&mapX=126.9&mapY=43.1', 'mapY', /query\/mapY must be a latitude from 33 to 43/],
  ['/api/tour?action=location&mapX=126.9&mapY=37.5&radius=0', 'radius', /query\/radius must be an integer from 1 to 20000/],
  ['/api/tour?action=location&mapX=126.9&mapY=37.5&radius=20001', 'radius', /from 1 to 20000, got "20001"/],
  ['/api/tour?action=detail&contentId=12a', 'contentId', /query\/contentId must be a numeric content id/],
  ['/api/bizinfo?b_no=1248100998', 'action', /query\/action is required; one of status, validate/],
  ['/api/bizinfo?action=close&b_no=1248100998', 'action', /must be one of status, validate/],
  ['/api/bizinfo?action=status', 'b_no', /query\/b_no is required/],
  ['/api/bizinfo?action=status&b_no=12481009', 'b_no', /query\/b_no must be a 10-digit business number/],
  [`/api/bizinfo${qs({ action: 'status', b_no: Array(11).fill('1248100998').join(',') })}`, 'b_no', /at most 10 business numbers per call, got 11/],
  ['/api/bizinfo?action=status&b_no=1248100998&start_dt=20200101', 'start_dt', /query\/start_dt is not a known parameter/],
  ['/api/bizinfo?action=validate&b_no=1248100998&p_nm=x', 'start_dt', /query\/start_dt is required/],
  ['/api/bizinfo?action=validate&b_no=1248100998&start_dt=20230230&p_nm=x', 'start_dt', /must be a real date written YYYYMMDD, got "20230230"/],
  ['/api/bizinfo?action=validate&b_no=1248100998&start_dt=2023-01-01&p_nm=x', 'start_dt', /YYYYMMDD/],
  ['/api/bizinfo?action=validate&b_no=1248100998&start_dt=20230101', 'p_nm', /query\/p_nm is required/],
  [`/api/bizinfo${qs({ action: 'validate', b_no: '1248100998', start_dt: '20230101', p_nm: '가'.repeat(31) })}`, 'p_nm', /query\/p_nm must be 1 to 30 characters, got 31/],
  ['/api/bizinfo?action=validate&b_no=1248100998,2208717483&start_dt=20230101&p_nm=x', 'b_no', /10-digit business number/],
  ['/api/corp', 'corpNm', /give exactly one of corpNm, crno, bzno \(got none\)/],
  ['/api/corp?corpNm=a&crno=1301110006246', 'crno', /give exactly one of corpNm, crno, bzno \(got corpNm, crno\)/],
  ['/api/corp?crno=130111000624', 'crno', /query\/crno must be a 13-digit corporate registration number/],
  ['/api/corp?bzno=12481009981', 'bzno', /query\/bzno must be a 10-digit business registration number/],
  ['/api/corp?corpNm=a&pageNo=0', 'pageNo', /must be an integer from 1 to 10000/],
  ['/api/biznotice?startDate=2026-02-30', 'startDate', /query\/startDate must be a real date written YYYY-MM-DD/],
  ['/api/biznotice?endDate=20261121', 'endDate', /YYYY-MM-DD, got "20261121"/],
  ['/api/biznotice?startDate=2026-11-21&endDate=2026-11-01', 'endDate', /query\/endDate must not be before startDate/],
  [`/api/biznotice${qs({ q: 'x'.repeat(31) })}`, 'q', /query\/q must be 1 to 30 characters, got 31/],
  ['/api/biznotice?q=', 'q', /query\/q must be 1 to 30 characters, got 0/],
  ['/api/biznotice?numOfRows=101', 'numOfRows', /must be an integer from 1 to 100/],
  ['/api/biznotice?serviceKey=mine', 'serviceKey', /query\/serviceKey is not a known parameter/],
];

test('query validation', async (t) => {
  const harness = await startHarness();
  t.after(() => harness.stop());

  for (const [path, field, message] of CASES) {
    await t.test(`should refuse ${decodeURIComponent(path).slice(0, 90)} naming ${field}`, async () => {
      const answer = await harness.get(path);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.error.code, 'validation');
      assert.equal(answer.error.field, field);
      assert.match(answer.error.message, message);
    });
  }

  await t.test('should make no upstream call for any refused request', () => {
    for (const provider of ['kma', 'kapt', 'tour', 'nts', 'fsc', 'mss'] as const) assert.equal(harness.fake.count(provider), 0, provider);
  });

  await t.test('should tolerate spaces, commas and hyphens in b_no', async () => {
    const answer = await harness.get(`/api/bizinfo${qs({ action: 'status', b_no: '124-81-00998, 220-87-17483' })}`);
    assert.equal(answer.status, 200);
    assert.equal(harness.fake.log.at(-1)?.provider, 'nts');
  });
});
