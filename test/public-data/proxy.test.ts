import { test } from 'node:test';
import { connect } from 'node:net';
import assert from 'node:assert/strict';
import { createToken } from '../../packages/writer/src/public-data/tokens.ts';
import { kstDay } from '../../packages/writer/src/upstream/kst.ts';
import { proxyExampleCall } from '../../packages/generator/src/render/pages/catalog.ts';
import { activeCatalog, dig, startHarness, type Harness } from './harness.ts';
import { FAKE_KEYS } from '../fakes/index.ts';

const NOW = new Date('2026-11-21T02:30:00Z');

/** [service, operation, params, check of data] for every catalog operation. */
const OPERATIONS: [string, string, Record<string, string | number>, (data: unknown) => void][] = [
  ['weather-forecast', 'getUltraSrtNcst', { base_date: '20261121', base_time: '1100', nx: 60, ny: 127 }, (d) => assert.equal(dig(d, 'items', 0, 'obsrValue'), '0')],
  ['weather-forecast', 'getUltraFcst', { base_date: '20261121', base_time: '1030', nx: 60, ny: 127 }, (d) => assert.equal(dig(d, 'totalCount'), 60)],
  ['weather-forecast', 'getVilageFcst', { base_date: '20261121', base_time: '1100', nx: 60, ny: 127, numOfRows: 24 }, (d) => assert.equal(dig(d, 'items', 0, 'category'), 'TMP')],
  ['weather-forecast', 'getVersion', {}, (d) => assert.equal(dig(d, 'items', 0, 'version'), '202611211100')],
  ['statutes-case-law', 'lawSearch.do', { target: 'law', query: '자동차관리법' }, (d) => {
    assert.equal(dig(d, 'totalCnt'), 2);
    assert.equal(dig(d, 'items', 0, 'law_name'), '자동차관리법');
    assert.equal(dig(d, 'items', 0, '법령일련번호'), '248613');
  }],
  ['statutes-case-law', 'lawService.do', { target: 'law', MST: '248613' }, (d) => assert.equal(dig(d, 'document', '법령', '기본정보', '법령ID'), '001734')],
  ['corporate-disclosures', 'list.json', { pblntf_de: '20261120' }, (d) => assert.equal(dig(d, 'items', 0, 'rcept_no'), '20261120000123')],
  ['corporate-disclosures', 'corpCode.json', { corp_name: '삼성' }, (d) => assert.deepEqual(dig(d, 'items'), [{ corp_code: '00126380', corp_name: '삼성전자', stock_code: '005930', modify_date: '20260102' }])],
  ['corporate-disclosures', 'fnlttSinglAcntAll.json', { corp_code: '00126380', bsns_year: '2025', reprt_code: '11011' }, (d) => assert.equal(dig(d, 'items', 1, 'account_nm'), '영업이익')],
  ['economic-statistics', 'StatisticSearch', { stat_code: '722Y001', cycle: 'M', start_dt: '20250801', end_dt: '20251031', item_code1: '0101000' }, (d) => {
    assert.equal(dig(d, 'list_total_count'), 3);
    assert.equal(dig(d, 'items', 2, 'DATA_VALUE'), '2.25');
  }],
  ['economic-statistics', 'StatisticTableList', {}, (d) => assert.equal(dig(d, 'items', 0, 'STAT_CODE'), '722Y001')],
  ['economic-statistics', 'KeyStatisticList', { numOfRows: 1 }, (d) => assert.equal((dig(d, 'items') as unknown[]).length, 1)],
  ['real-estate-trades', 'getRTMSDataSvcAptTrade', { LAWD_CD: '11110', DEAL_YMD: '202610' }, (d) => {
    assert.equal(dig(d, 'items', 0, 'dealAmount'), 164000);
    assert.equal(dig(d, 'items', 0, 'aptDong'), null);
    assert.equal(dig(d, 'items', 2, 'cancelled'), true);
  }],
  ['apartment-complex', 'getAphusBassInfoV5', { kaptCode: 'A10027875' }, (d) => assert.equal(dig(d, 'item', 'kaptCode'), 'A10027875')],
  ['apartment-complex', 'getAphusDtlInfoV5', { kaptCode: 'A10027875' }, (d) => assert.equal(dig(d, 'item', 'kaptdEcnt'), '56')],
  ['tourism-content', 'searchKeyword2', { keyword: '궁' }, (d) => assert.equal(dig(d, 'totalCount'), 2)],
  ['tourism-content', 'areaBasedList2', { areaCode: '1', contentTypeId: '39' }, (d) => assert.equal(dig(d, 'items', 0, 'title'), '광장시장 빈대떡')],
  ['tourism-content', 'locationBasedList2', { mapX: '129.1588', mapY: '35.1587', radius: '500' }, (d) => assert.equal(dig(d, 'items', 0, 'dist'), 0)],
  ['tourism-content', 'detailCommon2', { contentId: '127642' }, (d) => assert.match(String(dig(d, 'item', 'title')), /창덕궁/)],
  ['business-registration', 'status', { b_no: '1248100998,2208717483' }, (d) => assert.equal(dig(d, 'match_cnt'), 2)],
  ['business-registration', 'validate', { b_no: '1248100998', start_dt: '19690113', p_nm: '홍길동' }, (d) => assert.equal(dig(d, 'valid'), '01')],
  ['corporate-info', 'getCorpOutline_V2', { crno: '1301110006246' }, (d) => assert.equal(dig(d, 'items', 0, 'bzno'), '1248100998')],
  ['support-notices', 'getbizList_v2', { q: '공고' }, (d) => assert.equal((dig(d, 'items') as unknown[]).length, 2)],
];

const call = (harness: Harness, token: string, body: unknown) => harness.post('/agencatalog/api/call', body, { 'X-Agent-Token': token });

test('proxy call with every operation', async (t) => {
  const harness = await startHarness({ catalog: await activeCatalog(), now: () => NOW });
  t.after(() => harness.stop());
  const { token } = await createToken(harness.store.tokens, 'test agent');

  for (const [service, operation, params, check] of OPERATIONS) {
    await t.test(`should call ${service} ${operation}`, async () => {
      const answer = await call(harness, token, { service, operation, params });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.source.operation, operation);
      assert.equal(answer.source.cached, false);
      assert.ok(answer.source.attribution);
      check(answer.data);
    });
  }

  await t.test('should map public ids to the real KMA paths', () => {
    const paths = harness.fake.log.filter((entry) => entry.provider === 'kma').map((entry) => entry.url.split('?')[0]?.split('/').at(-1));
    assert.deepEqual(paths, ['getUltraSrtNcst', 'getUltraSrtFcst', 'getVilageFcst', 'getFcstVersion']);
  });

  await t.test('should attach each key the way its scheme says', () => {
    const url = (provider: string) => harness.fake.log.find((entry) => entry.provider === provider)?.url ?? '';
    assert.match(url('law'), /[?&]OC=fakeoc/);
    assert.match(url('dart'), /[?&]crtfc_key=fakedartkey/);
    assert.match(url('ecos'), /^\/api\/StatisticSearch\/FAKEECOSKEY42\/json\/kr\/1\/100\/722Y001\/M\/202508\/202510\/0101000$/);
    assert.match(url('rtms'), /[?&]serviceKey=fake%2BService%2FKey%3D%3D/);
  });
  // Last: its calls would change the provider log the subtests above read.
  await t.test("should answer each catalog page's example call", async () => {
    // Before: corporate-info's page showed `"params":{}`, refused with 400 (exactly one of corpNm, crno, bzno).
    for (const service of (await activeCatalog()).services) {
      const example = proxyExampleCall(service);
      const answer = await call(harness, token, example);
      assert.equal(answer.status, 200, `${JSON.stringify(example)}: ${JSON.stringify(answer.body)}`);
    }
  });

});

test('proxy KMA forecast calls without numOfRows get the whole run, not KMA\'s 10 rows', async (t) => {
  // fetchKmaPage meant 1000 rows a page, but the proxy's `numOfRows: undefined` overrode that
  // default and no numOfRows reached KMA, whose own default is 10: getUltraFcst answered 10
  // of its 60 rows (totalCount 60), getVilageFcst 10 of ~1150, with nothing said.
  const harness = await startHarness({ catalog: await activeCatalog(), now: () => NOW });
  t.after(() => harness.stop());
  const { token } = await createToken(harness.store.tokens, 'rows');
  const answer = await call(harness, token, { service: 'weather-forecast', operation: 'getUltraFcst', params: { base_date: '20261121', base_time: '1030', nx: 60, ny: 127 } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual([dig(answer.data, 'totalCount'), (dig(answer.data, 'items') as unknown[]).length], [60, 60]);
  assert.match(harness.fake.log.at(-1)?.url ?? '', /[?&]numOfRows=1000(&|$)/);
  const asked = await call(harness, token, { service: 'weather-forecast', operation: 'getUltraFcst', params: { base_date: '20261121', base_time: '1030', nx: 60, ny: 127, numOfRows: 6, pageNo: 2 } });
  assert.deepEqual([dig(asked.data, 'pageNo'), (dig(asked.data, 'items') as unknown[]).length], [2, 6]);
});

test('proxy ECOS calls refuse a numOfRows or pageNo that is not what the catalog states', async (t) => {
  // The catalog says "rows per page, at most 1000"; the client turned a bad value into
  // another silently: numOfRows "abc" or 0 asked for 100 rows, 5000 for 1000, pageNo -3 for
  // page 1, each a 200 (and a quota call) with rows the caller did not ask for.
  const harness = await startHarness({ catalog: await activeCatalog(), now: () => NOW });
  t.after(() => harness.stop());
  const { token } = await createToken(harness.store.tokens, 'ecos rows');
  const cases: [Record<string, string | number>, string, RegExp][] = [
    [{ numOfRows: 'abc' }, 'params.numOfRows', /body\/params\/numOfRows must be an integer from 1 to 1000, got "abc"/],
    [{ numOfRows: 0 }, 'params.numOfRows', /from 1 to 1000/],
    [{ numOfRows: 5000 }, 'params.numOfRows', /from 1 to 1000, got "5000"/],
    [{ pageNo: -3 }, 'params.pageNo', /body\/params\/pageNo must be an integer from 1 to 10000/],
  ];
  for (const operation of ['KeyStatisticList', 'StatisticTableList']) {
    for (const [params, field, message] of cases) {
      const answer = await call(harness, token, { service: 'economic-statistics', operation, params });
      assert.deepEqual([answer.status, answer.error?.field], [400, field], `${operation} ${JSON.stringify(params)}: ${JSON.stringify(answer.body)}`);
      assert.match(answer.error.message, message);
    }
  }
  assert.equal(harness.fake.count('ecos'), 0);
  const fine = await call(harness, token, { service: 'economic-statistics', operation: 'KeyStatisticList', params: { numOfRows: 1000, pageNo: 1 } });
  assert.equal(fine.status, 200, JSON.stringify(fine.body));
});

test("proxy answers never carry the server's provider keys", async (t) => {
  // law.go.kr puts the caller's OC in every search hit's detail link (법령상세링크), and
  // the proxy served it: any agent token learned the operator's law.go.kr key.
  const harness = await startHarness({ catalog: await activeCatalog(), now: () => NOW });
  t.after(() => harness.stop());
  const { token } = await createToken(harness.store.tokens, 'keys');
  const forms = Object.values(FAKE_KEYS).flatMap((key) => [key, encodeURIComponent(key)]);
  for (const [service, operation, params] of OPERATIONS) {
    const answer = await call(harness, token, { service, operation, params });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const text = JSON.stringify(answer.body);
    for (const form of forms) assert.ok(!text.includes(form), `${service} ${operation} answered the key ${form}: ${text.slice(0, 300)}`);
  }
  const search = await call(harness, token, { service: 'statutes-case-law', operation: 'lawSearch.do', params: { target: 'law', query: '자동차' } });
  assert.equal(dig(search.data, 'items', 0, 'detail_link'), '/DRF/lawService.do?OC=REDACTED&target=law&MST=248613&type=HTML');
  assert.equal(dig(search.data, 'items', 0, '법령상세링크'), '/DRF/lawService.do?OC=REDACTED&target=law&MST=248613&type=HTML');
});

test('proxy call refusals', async (t) => {
  const harness = await startHarness({ now: () => NOW, env: { AGORA_TOKEN_QUOTA_PER_DAY: '2' } });
  t.after(() => harness.stop());
  const { token, id } = await createToken(harness.store.tokens, 'refusals');
  const ok = { service: 'apartment-complex', operation: 'getAphusBassInfoV5', params: { kaptCode: 'A10027875' } };

  const cases: [string, unknown, number, string, string | undefined, RegExp][] = [
    ['an unknown service', { service: 'horoscope', operation: 'x' }, 404, 'not_found', 'service', /`horoscope` is not in the catalog/],
    ['an unknown operation', { service: 'weather-forecast', operation: 'getUltraSrtFcst' }, 404, 'not_found', 'operation', /known: getUltraSrtNcst, getUltraFcst, getVilageFcst, getVersion/],
    ['a missing required param', { service: 'apartment-complex', operation: 'getAphusBassInfoV5', params: {} }, 400, 'validation', 'params.kaptCode', /body\/params\/kaptCode is required by getAphusBassInfoV5/],
    ['an unknown param', { ...ok, params: { kaptCode: 'A10027875', serviceKey: 'mine' } }, 400, 'validation', 'params.serviceKey', /is not a parameter of getAphusBassInfoV5; allowed: kaptCode/],
    ['a nested param value', { ...ok, params: { kaptCode: { $ne: 1 } } }, 400, 'validation', 'params.kaptCode', /must be a string, number or boolean/],
    ['an unknown body field', { ...ok, key: 'x' }, 400, 'validation', 'key', /body\/key is not a known field/],
    ['a body that is a list', [ok], 400, 'validation', 'body', /body must be a JSON object/],
    ['params that are a list', { ...ok, params: ['A10027875'] }, 400, 'validation', 'params', /body\/params must be an object/],
    ['a base_time KMA does not issue', { service: 'weather-forecast', operation: 'getVilageFcst', params: { base_date: '20261121', base_time: '0600', nx: 60, ny: 127 } }, 400, 'validation', 'params.base_time', /body\/params\/base_time must be one of 0200, 0500, .*got "0600"/],
    ['a base_time off the half hour', { service: 'weather-forecast', operation: 'getUltraFcst', params: { base_date: '20261121', base_time: '1000', nx: 60, ny: 127 } }, 400, 'validation', 'params.base_time', /must be one of 0030, 0130/],
    ['a base_date that is no day', { service: 'weather-forecast', operation: 'getUltraSrtNcst', params: { base_date: '20261332', base_time: '1100', nx: 60, ny: 127 } }, 400, 'validation', 'params.base_date', /real date written YYYYMMDD/],
    ['a grid cell off the KMA grid', { service: 'weather-forecast', operation: 'getUltraSrtNcst', params: { base_date: '20261121', base_time: '1100', nx: 150, ny: 127 } }, 400, 'validation', 'params.nx', /integer from 1 to 149/],
    // Spec 8's limits, by the simple endpoints' own rules (a refused value costs no provider call).
    ['a tourism keyword of 51 characters', { service: 'tourism-content', operation: 'searchKeyword2', params: { keyword: 'a'.repeat(51) } }, 400, 'validation', 'params.keyword', /body\/params\/keyword must be 1 to 50 characters, got 51/],
    ['a point off the map bounds', { service: 'tourism-content', operation: 'locationBasedList2', params: { mapX: 140, mapY: 37 } }, 400, 'validation', 'params.mapX', /longitude from 124 to 132/],
    ['no corporation named (spec 4.5: exactly one of corpNm, crno, bzno)', { service: 'corporate-info', operation: 'getCorpOutline_V2', params: {} }, 400, 'validation', 'params.corpNm', /body\/params\/corpNm conflicts: give exactly one of corpNm, crno, bzno \(got none\)/],
    ['two ways of naming the corporation', { service: 'corporate-info', operation: 'getCorpOutline_V2', params: { crno: '1301110006246', corpNm: '삼성' } }, 400, 'validation', 'params.crno', /give exactly one of corpNm, crno, bzno \(got corpNm, crno\)/],
    ['a radius over 20000 m', { service: 'tourism-content', operation: 'locationBasedList2', params: { mapX: 127, mapY: 37, radius: 20001 } }, 400, 'validation', 'params.radius', /integer from 1 to 20000/],
    ['a content id that is no number', { service: 'tourism-content', operation: 'detailCommon2', params: { contentId: 'abc' } }, 400, 'validation', 'params.contentId', /numeric content id/],
    ['11 business numbers in one status call', { service: 'business-registration', operation: 'status', params: { b_no: Array(11).fill('1248100998').map((n, i) => (i === 0 ? n : '2208162517')).join(',') } }, 400, 'validation', 'params.b_no', /at most 10 business numbers per call, got 11/],
    ['two records in one validate call', { service: 'business-registration', operation: 'validate', params: { b_no: '1248100998,2208162517', start_dt: '20000101', p_nm: 'Hong' } }, 400, 'validation', 'params.b_no', /10-digit business number/],
    ['a p_nm of 31 characters', { service: 'business-registration', operation: 'validate', params: { b_no: '1248100998', start_dt: '20000101', p_nm: 'p'.repeat(31) } }, 400, 'validation', 'params.p_nm', /1 to 30 characters, got 31/],
    ['a support-notice range that ends before it starts (as /api/biznotice refuses it)', { service: 'support-notices', operation: 'getbizList_v2', params: { startDate: '2026-11-21', endDate: '2026-11-01' } }, 400, 'validation', 'params.endDate', /body\/params\/endDate must not be before startDate \(2026-11-21\)/],
    // Before: an empty value was dropped, and the call went upstream unfiltered (200, a quota call spent).
    ['a support-notice q that is empty (as /api/biznotice?q= refuses it)', { service: 'support-notices', operation: 'getbizList_v2', params: { q: '' } }, 400, 'validation', 'params.q', /1 to 30 characters, got 0/],
    ['a tourism radius that is empty (as /api/tour refuses it)', { service: 'tourism-content', operation: 'locationBasedList2', params: { mapX: '126.97', mapY: '37.57', radius: '' } }, 400, 'validation', 'params.radius', /radius/],
    ['a support-notice q of 31 characters', { service: 'support-notices', operation: 'getbizList_v2', params: { q: 'q'.repeat(31) } }, 400, 'validation', 'params.q', /1 to 30 characters, got 31/],
    ['a complex code without its A', { ...ok, params: { kaptCode: 'B1' } }, 400, 'validation', 'params.kaptCode', /the letter A followed by 1 to 12 digits/],
    ['a pending_key entry', { service: 'statutes-case-law', operation: 'lawSearch.do', params: { target: 'law', query: 'x' } }, 503, 'not_configured', undefined, /`statutes-case-law` is pending_key/],
  ];
  for (const [what, body, status, code, field, message] of cases) {
    await t.test(`should answer ${status} for ${what}`, async () => {
      const answer = await call(harness, token, body);
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.error.code, code);
      assert.equal(answer.error.field, field);
      assert.match(answer.error.message, message);
    });
  }

  await t.test('should name Content-Encoding when it is unknown or does not match the bytes', async () => {
    const send = (encoding: string) => fetch(`${harness.base}/agencatalog/api/call`, { method: 'POST', headers: { 'X-Agent-Token': token, 'content-type': 'application/json', 'content-encoding': encoding }, body: JSON.stringify(ok) });
    const unknown = await send('zstdx');
    assert.equal(unknown.status, 415);
    assert.equal(((await unknown.json()) as { error: { field: string } }).error.field, 'Content-Encoding');
    const mismatched = await send('gzip');
    assert.equal(mismatched.status, 400);
    const error = ((await mismatched.json()) as { error: { field: string; message: string } }).error;
    assert.equal(error.field, 'Content-Encoding');
    assert.match(error.message, /could not be decoded as its Content-Encoding says/);
  });

  await t.test('should answer 400 for malformed JSON and 415 for another content type', async () => {
    const bad = await call(harness, token, '{"service":');
    assert.deepEqual([bad.status, bad.error.field], [400, 'body']);
    const response = await fetch(`${harness.base}/agencatalog/api/call`, { method: 'POST', headers: { 'X-Agent-Token': token, 'content-type': 'text/plain' }, body: 'hello' });
    assert.equal(response.status, 415);
    // Any charset but UTF-8 is a 415 naming Content-Type. Before: `utf-16` (any `utf-*`) passed and
    // the UTF-8 bytes were decoded as UTF-16, answered 400 "not valid JSON", while latin1 got the 415.
    for (const charset of ['utf-16', 'UTF-32', 'latin1']) {
      const other = await fetch(`${harness.base}/agencatalog/api/call`, { method: 'POST', headers: { 'X-Agent-Token': token, 'content-type': `application/json; charset=${charset}` }, body: JSON.stringify(ok) });
      assert.equal(other.status, 415, charset);
      const error = ((await other.json()) as { error: { field: string; message: string } }).error;
      assert.deepEqual([error.field, error.message], ['Content-Type', 'Content-Type charset must be utf-8']);
    }
    const quoted = await fetch(`${harness.base}/agencatalog/api/call`, { method: 'POST', headers: { 'X-Agent-Token': token, 'content-type': 'application/json; charset="UTF-8"' }, body: JSON.stringify({}) });
    assert.equal(quoted.status, 400, 'a quoted UTF-8 charset is read (the empty object then fails on its fields)');
    // JSON that is not an object is said as such, and a missing body is not a wrong type.
    const nil = await call(harness, token, 'null');
    assert.deepEqual([nil.status, nil.error.field], [400, 'body']);
    assert.match(nil.error.message, /must be a JSON object/);
    // As `curl -X POST -H 'Content-Type: application/json'` sends it: no Content-Length, no chunks.
    const { hostname, port } = new URL(harness.base);
    const empty = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => socket.write(`POST /agencatalog/api/call HTTP/1.1\r\nHost: ${hostname}\r\nX-Agent-Token: ${token}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n`));
      let answer = '';
      socket.on('data', (c: Buffer) => (answer += c.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
    assert.match(empty, /^HTTP\/1\.1 400 /, empty);
    assert.match(empty, /body is required/);
  });

  await t.test('should answer 405 with Allow for GET', async () => {
    const answer = await harness.get('/agencatalog/api/call', { 'X-Agent-Token': token });
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.get('allow'), 'POST');
  });

  await t.test('should make no upstream call for a refused request', () => {
    assert.equal(harness.fake.log.length, 0);
  });

  await t.test('should spend the per-token quota on top of the provider quota', async () => {
    assert.equal((await call(harness, token, ok)).status, 200);
    assert.equal((await call(harness, token, { ...ok, params: { kaptCode: 'A10000001' } })).status, 200);
    const spent = await call(harness, token, { ...ok, params: { kaptCode: 'A10000002' } });
    assert.equal(spent.status, 429);
    assert.equal(spent.error.code, 'rate_limited');
    assert.match(spent.error.message, new RegExp(`agent token \`${id}\` \\(2 calls per day\\) is spent`));
    assert.equal(spent.headers.get('retry-after'), '45000', '12.5 hours from 11:30 KST to midnight');
    const other = await createToken(harness.store.tokens, 'another agent');
    assert.equal((await call(harness, other.token, { ...ok, params: { kaptCode: 'A10000002' } })).status, 200);
    const cached = await call(harness, token, ok);
    assert.deepEqual([cached.status, cached.source.cached], [200, true], 'a cache hit spends nothing');
  });

  await t.test('should not answer a token that joined an identical call with the other token\'s 429', async () => {
    // The spent token starts a call; the other (one call left) sends the same while the
    // quota is being checked, and joined it: it was answered 429 naming the spent token.
    const other = await createToken(harness.store.tokens, 'joining agent');
    const quotas = harness.store.quotas;
    const take = quotas.take.bind(quotas);
    quotas.take = async (...args) => { await new Promise((r) => setTimeout(r, 150)); return take(...args); };
    try {
      const same = { ...ok, params: { kaptCode: 'A10000003' } };
      const spent = call(harness, token, same);
      await new Promise((r) => setTimeout(r, 30));
      const joined = await call(harness, other.token, same);
      assert.equal((await spent).status, 429);
      assert.equal(joined.status, 200, JSON.stringify(joined.body));
      assert.equal(await quotas.used(kstDay(NOW), `token:${other.id}`), 1, 'its own call, from its own quota');
    } finally {
      quotas.take = take;
    }
  });
});

test('proxy values of the proxy-only entries, by the formats their catalog operations state', async (t) => {
  // Before: these went upstream as given. `DEAL_YMD: "2026-10"` answered 200 with no trades
  // (and a DART date with hyphens the provider's status 100), each spending a call of the
  // token's and the entry's daily quota; now each is a 400 naming the parameter, and no call.
  const harness = await startHarness({ now: () => NOW, catalog: await activeCatalog() });
  t.after(() => harness.stop());
  const { token } = await createToken(harness.store.tokens, 'formats');
  const trades = (params: Record<string, string>) => ({ service: 'real-estate-trades', operation: 'getRTMSDataSvcAptTrade', params: { LAWD_CD: '11110', DEAL_YMD: '202610', ...params } });
  const statements = (params: Record<string, string>) => ({ service: 'corporate-disclosures', operation: 'fnlttSinglAcntAll.json', params: { corp_code: '00126380', bsns_year: '2025', reprt_code: '11011', ...params } });
  const cases: [string, unknown, string, RegExp][] = [
    ['a deal month written with a hyphen', trades({ DEAL_YMD: '2026-10' }), 'params.DEAL_YMD', /body\/params\/DEAL_YMD must be a real month written YYYYMM, got "2026-10"/],
    ['a deal month 13', trades({ DEAL_YMD: '202613' }), 'params.DEAL_YMD', /real month written YYYYMM/],
    ['a district code of 10 digits', trades({ LAWD_CD: '1111010100' }), 'params.LAWD_CD', /body\/params\/LAWD_CD must be the first 5 digits of a legal-district code/],
    ['a receipt date with hyphens', { service: 'corporate-disclosures', operation: 'list.json', params: { pblntf_de: '2026-11-20' } }, 'params.pblntf_de', /real date written YYYYMMDD/],
    ['an end date that is no day', { service: 'corporate-disclosures', operation: 'list.json', params: { pblntf_de: '20261120', end_de: '20261131' } }, 'params.end_de', /real date written YYYYMMDD/],
    ['a page of 101 filings', { service: 'corporate-disclosures', operation: 'list.json', params: { pblntf_de: '20261120', page_count: '101' } }, 'params.page_count', /integer from 1 to 100/],
    ['a company code of 6 digits', { service: 'corporate-disclosures', operation: 'corpCode.json', params: { corp_name: '삼성', corp_code: '126380' } }, 'params.corp_code', /8-digit company code/],
    ['a report code DART has not', statements({ reprt_code: '11015' }), 'params.reprt_code', /must be one of 11011, 11012, 11013, 11014/],
    ['a statement kind DART has not', statements({ fs_div: 'XFS' }), 'params.fs_div', /must be one of OFS, CFS/],
    ['a business year of two digits', statements({ bsns_year: '25' }), 'params.bsns_year', /year written YYYY/],
    ['a law serial number that is no number', { service: 'statutes-case-law', operation: 'lawService.do', params: { target: 'law', MST: 'x1' } }, 'params.MST', /numeric law serial number/],
    ['an effective date that is no day', { service: 'statutes-case-law', operation: 'lawService.do', params: { target: 'law', MST: '248613', efYd: '2026-01-01' } }, 'params.efYd', /real date written YYYYMMDD/],
    ['101 laws per page', { service: 'statutes-case-law', operation: 'lawSearch.do', params: { target: 'law', query: '민법', display: '101' } }, 'params.display', /integer from 1 to 100/],
  ];
  for (const [what, body, field, message] of cases) {
    await t.test(`should answer 400 for ${what}, before any provider call`, async () => {
      const answer = await call(harness, token, body);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.deepEqual([answer.error.code, answer.error.field], ['validation', field]);
      assert.match(answer.error.message, message);
    });
  }
  await t.test('should have called no provider and spent no quota', async () => {
    assert.deepEqual(harness.fake.log, []);
  });
  await t.test('should still answer the values the formats allow', async () => {
    for (const body of [trades({}), statements({ reprt_code: '11014', fs_div: 'OFS' }), { service: 'statutes-case-law', operation: 'lawService.do', params: { target: 'law', MST: '248613', efYd: '20240329' } }]) {
      const answer = await call(harness, token, body);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
  });
});
