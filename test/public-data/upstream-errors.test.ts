import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createToken } from '../../packages/writer/src/public-data/tokens.ts';
import { FAKE_KEYS, startFakeProviders, type FakeProviders } from '../fakes/index.ts';
import { activeCatalog, dig, startHarness, type Answer, type Harness } from './harness.ts';

const NOW = new Date('2026-11-21T02:30:00Z'); // 11:30 KST, 45000 s before midnight
const APT = '/api/apt?kaptCode=A10027875';

/** No error answer may leak a key or a raw provider body. */
function assertClean(answer: Answer) {
  const text = JSON.stringify(answer.body);
  const keys = [FAKE_KEYS.dataGoKr, encodeURIComponent(FAKE_KEYS.dataGoKr), FAKE_KEYS.law, FAKE_KEYS.dart, FAKE_KEYS.ecos];
  // Also as a message shortened to letters, digits and a few signs would show them.
  const stripped = keys.map((k) => k.replace(/[^\p{L}\p{N}/]/gu, ''));
  for (const secret of [...keys, ...stripped]) assert.ok(!text.includes(secret), `leaks ${secret}`);
  assert.doesNotMatch(text, /<OpenAPI|<html|cmmMsgHeader|Internal Server Error|등록되지 않은/);
  assert.deepEqual(Object.keys(answer.body as object), ['error']);
}

/** [error form, status, code, message, Retry-After, requests the form costs] */
const FORMS: [string, number, string, RegExp, string | null, number][] = [
  ['xml-key-error', 503, 'upstream_unavailable', /Provider `kapt` rejected the server's key \(SERVICE_KEY_IS_NOT_REGISTERED_ERROR\); the operator must check `AGORA_DATA_GO_KR_KEY`/, null, 1],
  ['json-key-error', 503, 'upstream_unavailable', /rejected the server's key \(SERVICE_KEY_IS_NOT_REGISTERED_ERROR\)/, null, 1],
  ['http-401', 503, 'upstream_unavailable', /rejected the server's key \(HTTP 401\)/, null, 1],
  ['http-403', 503, 'upstream_unavailable', /rejected the server's key \(HTTP 403\)/, null, 1],
  ['http-429', 503, 'upstream_unavailable', /daily quota is spent \(LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR\)/, '45000', 1],
  ['quota-22', 503, 'upstream_unavailable', /daily quota is spent/, '45000', 1],
  ['rate-23', 503, 'upstream_unavailable', /is throttling requests/, '1', 1],
  ['params-10', 400, 'validation', /Provider `kapt` rejected the parameters \(INVALID_REQUEST_PARAMETER_ERROR\)/, null, 1],
  ['app-error', 502, 'upstream_error', /Provider `kapt` answered with an error \(UNKNOWN_ERROR\)/, null, 1],
  ['echo-key', 502, 'upstream_error', /Provider `kapt` answered with an error \(UNKNOWN ERROR serviceKeyREDACTED encodedREDACTED decodedREDACTED path\/xServiceKeyREDACTED\)/, null, 1],
  ['echo-key-escaped', 502, 'upstream_error', /Provider `kapt` answered with an error \(ERROR keyREDACTED htmlREDACTED\)/, null, 1],
  ['redirect', 502, 'upstream_error', /Provider `kapt` answered with an error \(HTTP 302\)/, null, 1],
  ['http-500', 502, 'upstream_error', /answered with an error \(HTTP 500\)/, null, 1],
  ['http-503', 503, 'upstream_unavailable', /Provider `kapt` is unavailable \(HTTP 503\)/, null, 1],
  ['malformed', 502, 'upstream_error', /could not be read \(neither JSON nor XML\)/, null, 1],
  ['garbage', 502, 'upstream_error', /could not be read/, null, 1],
  // Stopped once past the size limit, not read until the timeout (RSS had grown by the whole body).
  ['endless', 502, 'upstream_error', /could not be read \(response too large\)/, null, 1],
  ['connection-reset', 502, 'upstream_error', /Provider `kapt` could not be reached/, null, 2],
  ['timeout', 504, 'upstream_timeout', /Provider `kapt` did not answer in time/, null, 1],
];

test('upstream error forms', async (t) => {
  const fake = await startFakeProviders();
  const harness = await startHarness({ fake, now: () => NOW, catalog: await activeCatalog() });
  t.after(async () => {
    await harness.stop();
    await fake.close();
  });

  // The endless body with time to reach the size limit: with the 500 ms of the others, a busy
  // CI machine read too little of it in time and the answer was the timeout's 504.
  const patient = await startHarness({ fake, now: () => NOW, catalog: await activeCatalog(), env: { AGORA_UPSTREAM_TIMEOUT_MS: '20000' } });
  t.after(() => patient.stop());

  for (const [form, status, code, message, retryAfter, requests] of FORMS) {
    await t.test(`should map ${form} to ${status} ${code}`, async () => {
      fake.reset();
      fake.setMode('kapt', form);
      const answer = await (form === 'endless' ? patient : harness).get(APT);
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.error.code, code);
      assert.match(answer.error.message, message);
      assert.equal(answer.headers.get('retry-after'), retryAfter);
      assert.equal(fake.count('kapt'), requests, requests === 2 ? 'a GET is retried once after a network error' : 'no retry');
      assertClean(answer);
    });
  }

  await t.test('should not cache errors: the next call reaches the provider again', async () => {
    fake.reset();
    assert.equal((await harness.get(APT)).status, 200);
    assert.equal(fake.count('kapt'), 1);
  });

  await t.test('should never retry a POST (NTS) after a network error', async () => {
    fake.reset();
    fake.setMode('nts', 'connection-reset');
    const answer = await harness.get('/api/bizinfo?action=status&b_no=1248100998');
    assert.equal(answer.status, 502);
    assert.equal(fake.count('nts'), 1);
  });

  await t.test('should map NTS INTERNAL_ERROR (HTTP 500 JSON) to 502', async () => {
    fake.reset();
    fake.setMode('nts', 'internal-error');
    const answer = await harness.get('/api/bizinfo?action=status&b_no=1248100998');
    assert.deepEqual([answer.status, answer.error.code], [502, 'upstream_error']);
    assertClean(answer);
  });

  await t.test('should fall back to the previous run while the latest answers NO_DATA', async () => {
    fake.reset();
    fake.setMode('kma', 'no-data');
    const answer = await harness.get('/api/weather?nx=61&ny=126');
    assert.equal(answer.status, 200);
    assert.deepEqual(dig(answer.data, 'hours'), []);
    assert.deepEqual(fake.log.map((e) => /base_time=(\d+)/.exec(e.url)?.[1]), ['1100', '0800']);
  });

  await t.test('should not cache an answer without forecast rows: the next request asks again', async () => {
    fake.reset();
    fake.setMode('kma', 'no-data');
    assert.deepEqual(dig((await harness.get('/api/weather?nx=62&ny=126')).data, 'hours'), []);
    fake.setMode('kma', null);
    const recovered = await harness.get('/api/weather?nx=62&ny=126');
    assert.equal(recovered.status, 200);
    assert.equal(recovered.source.cached, false);
    assert.notDeepEqual(dig(recovered.data, 'hours'), []);
    assert.ok(fake.log.length > 2, 'the latest run and the previous one for the empty answer, then the latest again');
  });

  await t.test("should answer 502 when KMA refuses the parameters of /api/weather, which the server chose, and 400 through the proxy", async () => {
    // /api/weather?nx=63 gives nothing KMA could refuse; base date and time are the server's.
    // It answered 400 `field: "params"`, blaming the caller, who then had nothing to fix.
    fake.reset();
    fake.setMode('kma', 'too-old');
    const answer = await harness.get('/api/weather?nx=63&ny=126');
    assert.deepEqual([answer.status, answer.error.code, answer.error.field], [502, 'upstream_error', undefined], JSON.stringify(answer.body));
    assert.match(answer.error.message, /Provider `kma` answered with an error \(.*최근 1일 간의 자료만 제공합니다/);
    const proxied = await harness.post('/agencatalog/api/call', { service: 'weather-forecast', operation: 'getVilageFcst', params: { base_date: '20261101', base_time: '1100', nx: 60, ny: 127 } }, { 'X-Agent-Token': (await createToken(harness.store.tokens, 'kma')).token });
    fake.setMode('kma', null);
    assert.deepEqual([proxied.status, proxied.error.field], [400, 'params'], 'the proxy caller chose base_date: theirs to fix');
    assert.match(proxied.error.message, /최근 1일 간의 자료만 제공합니다/);
  });

  const { token } = await createToken(harness.store.tokens, 'errors');
  const call = (service: string, operation: string, params: Record<string, string>) => harness.post('/agencatalog/api/call', { service, operation, params }, { 'X-Agent-Token': token });

  await t.test('should map the TourAPI flat code-10 error to 400 naming the parameter', async () => {
    fake.reset();
    // areaCode 99 is refused by the writer's own rule before any call; the provider's own refusal:
    const refused = await call('tourism-content', 'areaBasedList2', { areaCode: '99' });
    assert.deepEqual([refused.status, refused.error.field, fake.count('tour')], [400, 'params.areaCode', 0]);
    fake.setMode('tour', 'invalid-param');
    const answer = await call('tourism-content', 'areaBasedList2', { areaCode: '39' });
    fake.setMode('tour', null);
    assert.deepEqual([answer.status, answer.error.field], [400, 'params']);
    assert.match(answer.error.message, /INVALID_REQUEST_PARAMETER_ERROR\(areaCode\)/);
  });
  await t.test('should map OpenDART 020 to 503 with Retry-After and 013 to an empty list', async () => {
    fake.setMode('dart', 'limit');
    const limit = await call('corporate-disclosures', 'list.json', { pblntf_de: '20261119' });
    assert.deepEqual([limit.status, limit.headers.get('retry-after')], [503, '45000']);
    assert.match(limit.error.message, /daily quota is spent \(status 020\)/);
    fake.setMode('dart', null);
    const empty = await call('corporate-disclosures', 'list.json', { pblntf_de: '20261119' });
    assert.equal(empty.status, 200);
    assert.deepEqual(dig(empty.data, 'items'), []);
  });
  await t.test('should map ECOS ERROR-602 to 503, ERROR-101 to 400 and INFO-200 to an empty list', async () => {
    fake.setMode('ecos', 'limit');
    assert.equal((await call('economic-statistics', 'KeyStatisticList', {})).status, 503);
    fake.setMode('ecos', null);
    const badDate = await call('economic-statistics', 'StatisticSearch', { stat_code: '722Y001', cycle: 'M', start_dt: '2025Q1', end_dt: '20251031' });
    assert.deepEqual([badDate.status, badDate.error.code], [400, 'validation']);
    assert.match(badDate.error.message, /ERROR-101/);
    const none = await call('economic-statistics', 'StatisticSearch', { stat_code: '999Y999', cycle: 'M', start_dt: '20250101', end_dt: '20251031' });
    assert.deepEqual([none.status, dig(none.data, 'list_total_count')], [200, 0]);
  });
  // ECOS's ERROR-602 says "too many OpenAPI calls, use restricted; use it again in a while"
  // (과도한 OpenAPI호출로 이용이 제한되었습니다. 잠시후 이용해주시기 바랍니다.): a throttle, not
  // the day's quota. Answered as "daily quota is spent" with Retry-After until midnight KST,
  // a client that obeys waited up to a day for an API that answered again minutes later.
  await t.test('should answer ECOS ERROR-602 as throttling, not as a spent daily quota', async () => {
    fake.setMode('ecos', 'limit');
    const answer = await call('economic-statistics', 'KeyStatisticList', {});
    fake.setMode('ecos', null);
    assert.deepEqual([answer.status, answer.error.code, answer.headers.get('retry-after')], [503, 'upstream_unavailable', '1']);
    assert.match(answer.error.message, /Provider `ecos` is throttling requests \(ERROR-602\)/);
    assert.doesNotMatch(answer.error.message, /daily quota|midnight/);
  });
  await t.test('should answer an empty RTMS month as an empty list', async () => {
    const answer = await call('real-estate-trades', 'getRTMSDataSvcAptTrade', { LAWD_CD: '11680', DEAL_YMD: '202610' });
    assert.deepEqual([answer.status, dig(answer.data, 'totalCount'), dig(answer.data, 'items')], [200, 0, []]);
  });
  await t.test('should answer law.go.kr zero results without a law key as an empty list', async () => {
    const answer = await call('statutes-case-law', 'lawSearch.do', { target: 'law', query: '없는법' });
    assert.deepEqual([answer.status, dig(answer.data, 'totalCnt'), dig(answer.data, 'items')], [200, 0, []]);
  });
});

test('provider key errors of each scheme', async (t) => {
  const fake: FakeProviders = await startFakeProviders();
  const wrong = { AGORA_NTS_KEY: 'wrong', AGORA_LAW_OC: 'wrong', AGORA_DART_KEY: 'wrong', AGORA_ECOS_KEY: 'wrong', AGORA_UPSTREAM_KAPT_URL: `${fake.origin}/kapt/1613000/AptBasisInfoServiceV4` };
  const harness: Harness = await startHarness({ fake, now: () => NOW, catalog: await activeCatalog(), env: wrong });
  const { token } = await createToken(harness.store.tokens, 'keys');
  t.after(async () => {
    await harness.stop();
    await fake.close();
  });
  const call = (service: string, operation: string, params: Record<string, string>) => harness.post('/agencatalog/api/call', { service, operation, params }, { 'X-Agent-Token': token });

  const cases: [string, () => Promise<Answer>, RegExp][] = [
    ['NTS gateway 401 {code:-4}', () => harness.get('/api/bizinfo?action=status&b_no=1248100998'), /`nts` rejected the server's key \(HTTP 401\); the operator must check `AGORA_NTS_KEY`/],
    ['law.go.kr HTTP 200 verification failure', () => call('statutes-case-law', 'lawSearch.do', { target: 'law', query: '법' }), /`law` rejected the server's key \(user verification failed\); the operator must check `AGORA_LAW_OC`/],
    ['OpenDART status 010', () => call('corporate-disclosures', 'list.json', { pblntf_de: '20261120' }), /`dart` rejected the server's key \(status 010\); the operator must check `AGORA_DART_KEY`/],
    ['OpenDART corpCode.xml answering JSON instead of a ZIP', () => call('corporate-disclosures', 'corpCode.json', { corp_name: '삼성' }), /`dart` rejected the server's key \(status 010\)/],
    ['ECOS INFO-100 (key in the path)', () => call('economic-statistics', 'StatisticTableList', {}), /`ecos` rejected the server's key \(INFO-100\); the operator must check `AGORA_ECOS_KEY`/],
  ];
  for (const [what, request, message] of cases) {
    await t.test(`should map ${what} to 503`, async () => {
      const answer = await request();
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.equal(answer.error.code, 'upstream_unavailable');
      assert.match(answer.error.message, message);
      assertClean(answer);
      assert.ok(!JSON.stringify(answer.body).includes('wrong'));
    });
  }
  await t.test('should map the retired K-apt V4 path (HTTP 400, code 12) to 502', async () => {
    const answer = await harness.get('/api/apt?kaptCode=A10027875');
    assert.deepEqual([answer.status, answer.error.code], [502, 'upstream_error']);
    assertClean(answer);
  });
});

test('missing provider keys', async (t) => {
  const harness = await startHarness({ now: () => NOW, catalog: await activeCatalog(), env: { AGORA_DATA_GO_KR_KEY: undefined, AGORA_ECOS_KEY: undefined } });
  t.after(() => harness.stop());
  const { token } = await createToken(harness.store.tokens, 'nokey');

  for (const path of ['/api/weather', '/api/apt?kaptCode=A10027875', '/api/tour?action=detail&contentId=1', '/api/bizinfo?action=status&b_no=1248100998', '/api/corp?bzno=1248100998', '/api/biznotice']) {
    await t.test(`should answer 503 not_configured naming the setting for ${path}`, async () => {
      const answer = await harness.get(path);
      assert.equal(answer.status, 503);
      assert.equal(answer.error.code, 'not_configured');
      assert.match(answer.error.message, /is not configured on this server; the operator must set AGORA_DATA_GO_KR_KEY \(or AGORA_[A-Z]+_KEY\)/);
    });
  }
  await t.test('should answer 503 naming AGORA_ECOS_KEY through the proxy', async () => {
    const answer = await harness.post('/agencatalog/api/call', { service: 'economic-statistics', operation: 'KeyStatisticList' }, { 'X-Agent-Token': token });
    assert.equal(answer.status, 503);
    assert.match(answer.error.message, /must set AGORA_ECOS_KEY$/);
  });
  await t.test('should still validate first (400 beats 503)', async () => {
    assert.equal((await harness.get('/api/apt')).status, 400);
  });
  await t.test('should call no provider at all', () => {
    assert.equal(harness.fake.log.length, 0);
  });
});
