import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactData, redactMessage, redactUrl } from '../../packages/writer/src/upstream/redact.ts';
import { sanitizeDetail } from '../../packages/writer/src/upstream/upstream-error.ts';
import { toExcerpt, EXCERPT_MAX } from '../../packages/writer/src/upstream/mss/excerpt.ts';
import { secondsUntilKstMidnight, kstDay } from '../../packages/writer/src/upstream/kst.ts';
import { classifyResultCode } from '../../packages/writer/src/upstream/result-codes.ts';
import { ecosDate } from '../../packages/writer/src/upstream/ecos/client.ts';

test('redactUrl', async (t) => {
  await t.test('should mask key parameters by name', () => {
    const out = redactUrl('https://apis.data.go.kr/x/getVilageFcst?serviceKey=abc%2B123%3D%3D&nx=60');
    assert.doesNotMatch(out, /abc/);
    assert.match(out, /serviceKey=REDACTED/);
    assert.match(out, /nx=60/);
  });
  await t.test('should mask a key inside the path (ECOS)', () => {
    const out = redactUrl('https://ecos.bok.or.kr/api/StatisticSearch/SECRETKEY1/json/kr/1/10', ['SECRETKEY1']);
    assert.equal(out, 'https://ecos.bok.or.kr/api/StatisticSearch/REDACTED/json/kr/1/10');
  });
  await t.test('should mask OC and crtfc_key', () => {
    assert.doesNotMatch(redactUrl('https://www.law.go.kr/DRF/lawSearch.do?OC=me&target=law'), /OC=me/);
    assert.doesNotMatch(redactUrl('https://opendart.fss.or.kr/api/list.json?crtfc_key=k123'), /k123/);
  });
});

test('redactMessage', async (t) => {
  const key = 'Ab3dEf9hIj2kLm7nOp4qRs';
  const b64 = 'xYz12AbC+dEf/GhI34jKl==';
  // What reaches the client: the detail after masking and shortening to letters, digits and a few signs.
  const shown = (message: string, secret = key) => sanitizeDetail(redactMessage(message, [secret]));
  const leaks = (text: string, secret = key) => text.toLowerCase().replace(/[^a-z0-9]/g, '').includes(secret.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 12));
  const cases: [string, string, string?][] = [
    ['as it is', `bad key ${key}`],
    ['upper-cased by the provider', `INVALID SERVICE KEY ${key.toUpperCase()}`],
    ['lower-cased', `invalid key ${key.toLowerCase()}`],
    ['percent-escaped twice', `key=${[...key].map((c) => `%25${c.charCodeAt(0).toString(16)}`).join('')}`],
    ['an HTML reference inside an escaped one', `key=${[...key].map((c) => `&amp;#${c.charCodeAt(0)};`).join('')}`],
    ['cut short by the provider', `key ${key.slice(0, -2)}... not registered`],
    ['a base64 key upper-cased', `KEY ${b64.toUpperCase()}`, b64],
    ['configured percent-encoded, echoed decoded with a space', 'key xYz12AbC dEf/GhI34jKl==', encodeURIComponent(b64)],
  ];
  for (const [what, message, secret] of cases) {
    await t.test(`should not show a key echoed ${what}`, () => {
      const out = shown(message, secret ?? key);
      assert.ok(!leaks(out, secret ?? key), out);
    });
  }
  await t.test('should keep a message that holds no key', () => {
    assert.equal(redactMessage('SERVICE_KEY_IS_NOT_REGISTERED_ERROR (30)', [key]), 'SERVICE_KEY_IS_NOT_REGISTERED_ERROR (30)');
  });
});

test('redactData', async (t) => {
  await t.test('should mask key parameters in links, whatever the key, and the key anywhere', () => {
    const data = JSON.parse('{"items":[{"link":"/DRF/lawService.do?OC=abc&target=law&MST=1","__proto__":"x fake+Service/Key== y"}],"n":3,"ok":true,"none":null}') as unknown;
    const masked = redactData(data, ['abc', 'fake+Service/Key==']);
    assert.equal(JSON.stringify(masked), '{"items":[{"link":"/DRF/lawService.do?OC=REDACTED&target=law&MST=1","__proto__":"x REDACTED y"}],"n":3,"ok":true,"none":null}');
  });

  await t.test('should mask a short key (law.go.kr\'s OC is a user id) in links only, not every word that equals it', () => {
    const data = { link: '/DRF/lawService.do?OC=test&target=law', title: '시험 test 법령', note: 'a test of the law' };
    assert.deepEqual(redactData(data, ['test']), { link: '/DRF/lawService.do?OC=REDACTED&target=law', title: '시험 test 법령', note: 'a test of the law' });
  });
});

test('toExcerpt', async (t) => {
  await t.test('should strip tags, scripts and entities', () => {
    assert.equal(toExcerpt('<p>Hello&nbsp;<b>world</b></p><script>alert(1)</script><br>&lt;ok&gt; &#54620;'), 'Hello world\n<ok> 한');
  });
  await t.test('should cut at 2000 characters', () => {
    assert.equal([...toExcerpt('가'.repeat(5000))].length, EXCERPT_MAX);
  });
});

test('kst', async (t) => {
  await t.test('should count seconds to the next KST midnight', () => {
    assert.equal(secondsUntilKstMidnight(new Date('2026-11-21T14:59:00Z')), 60);
    assert.equal(secondsUntilKstMidnight(new Date('2026-11-21T15:00:00Z')), 86400);
  });
  await t.test('should name the KST day', () => {
    assert.equal(kstDay(new Date('2026-11-21T14:59:59Z')), '2026-11-21');
    assert.equal(kstDay(new Date('2026-11-21T15:00:00Z')), '2026-11-22');
  });
});

test('classifyResultCode', async (t) => {
  await t.test('should read every success form and the failure table', () => {
    for (const ok of ['00', '0000', '000', 0]) assert.equal(classifyResultCode(ok).outcome, 'ok');
    assert.equal(classifyResultCode('03').outcome, 'no_data');
    assert.equal(classifyResultCode('22').outcome, 'quota');
    assert.equal(classifyResultCode(30).outcome, 'key');
    assert.equal(classifyResultCode('constructor').outcome, 'failed');
  });
});

test('ecosDate', async (t) => {
  await t.test('should cut YYYYMMDD to the cycle format', () => {
    assert.equal(ecosDate('A', '20260915', 'start_dt'), '2026');
    assert.equal(ecosDate('Q', '20260915', 'start_dt'), '2026Q3');
    assert.equal(ecosDate('M', '20260915', 'start_dt'), '202609');
    assert.equal(ecosDate('D', '20260915', 'start_dt'), '20260915');
  });
  await t.test('should refuse an unknown cycle with a 400', () => {
    assert.throws(() => ecosDate('X', '20260915', 'start_dt'), /params\/cycle must be A, Q, M or D/);
  });
});
