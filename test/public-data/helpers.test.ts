import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidBusinessNumber } from '../../packages/writer/src/public-data/query/business-number.ts';
import { redactUrl } from '../../packages/writer/src/upstream/redact.ts';
import { toExcerpt, EXCERPT_MAX } from '../../packages/writer/src/upstream/mss/excerpt.ts';
import { secondsUntilKstMidnight, kstDay } from '../../packages/writer/src/upstream/kst.ts';
import { classifyResultCode } from '../../packages/writer/src/upstream/result-codes.ts';
import { ecosDate } from '../../packages/writer/src/upstream/ecos/client.ts';

test('isValidBusinessNumber', async (t) => {
  await t.test('should accept 1248100998 and 2208717483', () => {
    assert.equal(isValidBusinessNumber('1248100998'), true);
    assert.equal(isValidBusinessNumber('2208717483'), true);
  });
  await t.test('should refuse a wrong check digit and a wrong length', () => {
    assert.equal(isValidBusinessNumber('1248100997'), false);
    assert.equal(isValidBusinessNumber('124810099'), false);
  });
});

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
