import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeProviders } from '../fakes/index.ts';
import { realCatalog, startHarness } from './harness.ts';

/** A clock the test moves. */
function clock(iso: string) {
  let now = new Date(iso);
  return { now: () => now, set: (next: string) => (now = new Date(next)), advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

const readQuotas = async (dataDir: string) => JSON.parse(await readFile(join(dataDir, 'quotas.json'), 'utf8')) as { day: string; counts: Record<string, number> };

test('daily quotas', async (t) => {
  const fake = await startFakeProviders();
  const dataDir = await mkdtemp(join(tmpdir(), 'agora-quota-'));
  t.after(async () => {
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const time = clock('2026-11-21T14:59:30Z'); // 23:59:30 KST
  const start = () => startHarness({ fake, dataDir, now: time.now, env: { AGORA_QUOTA_KAPT: '2' } });
  let harness = await start();

  await t.test('should answer 429 with Retry-After until KST midnight once the day is spent', async () => {
    assert.equal((await harness.get('/api/apt?kaptCode=A10000001')).status, 200);
    assert.equal((await harness.get('/api/apt?kaptCode=A10000002')).status, 200);
    const spent = await harness.get('/api/apt?kaptCode=A10000003');
    assert.equal(spent.status, 429);
    assert.equal(spent.error.code, 'rate_limited');
    assert.equal(spent.headers.get('retry-after'), '30');
    assert.match(spent.error.message, /The daily quota of `apartment-complex` \(2 calls per day\) is spent; it resets at midnight Korea time/);
    assert.equal(fake.count('kapt'), 2, 'the refused call never reached the provider');
  });

  await t.test('should keep the counts across a restart', async () => {
    await harness.stop(false);
    assert.deepEqual(await readQuotas(dataDir), { day: '2026-11-21', counts: { 'service:apartment-complex': 2 } });
    harness = await start();
    assert.equal((await harness.get('/api/apt?kaptCode=A10000004')).status, 429);
  });

  await t.test('should reset at midnight Korea time', async () => {
    time.set('2026-11-21T15:00:01Z'); // 00:00:01 KST
    const answer = await harness.get('/api/apt?kaptCode=A10000005');
    assert.equal(answer.status, 200);
    await harness.publicData.close();
    assert.deepEqual(await readQuotas(dataDir), { day: '2026-11-22', counts: { 'service:apartment-complex': 1 } });
    await harness.stop(false);
  });

  await t.test('should take the limit from the catalog rate_limit.per_day', async () => {
    const catalog = await realCatalog();
    const tight = { ...catalog, services: catalog.services.map((s) => (s.slug === 'tourism-content' ? { ...s, rate_limit: { per_day: 1, note: 'test' } } : s)) };
    const small = await startHarness({ fake, catalog: tight, now: time.now });
    assert.equal((await small.get('/api/tour?action=detail&contentId=126508')).status, 200);
    assert.equal((await small.get('/api/tour?action=detail&contentId=127642')).status, 429);
    assert.equal((await small.get('/api/weather')).status, 200, 'other entries keep their own quota');
    await small.stop();
  });
});

test('response cache', async (t) => {
  const time = clock('2026-11-21T02:30:00Z'); // 11:30 KST
  const harness = await startHarness({ now: time.now, env: { AGORA_QUOTA_KMA: '3', AGORA_QUOTA_MSS: '5', AGORA_QUOTA_FSC: '1' } });
  t.after(() => harness.stop());

  await t.test('should serve a repeated question from cache without spending quota', async () => {
    const first = await harness.get('/api/corp?bzno=1248100998');
    const second = await harness.get('/api/corp?bzno=1248100998');
    assert.deepEqual([first.source.cached, second.source.cached], [false, true]);
    assert.deepEqual(second.data, first.data);
    assert.equal(second.source.fetched_at, first.source.fetched_at);
    assert.equal(harness.fake.count('fsc'), 1);
    assert.equal((await harness.get('/api/corp?bzno=1208147521')).status, 429, 'the one call of the day is spent');
    assert.equal((await harness.get('/api/corp?bzno=1248100998')).status, 200, 'cached answers are still served');
    await harness.publicData.close();
    assert.equal((await readQuotas(harness.dataDir)).counts['service:corporate-info'], 1);
  });

  await t.test('should keep weather until the next run is published, then fetch the new run', async () => {
    harness.fake.reset();
    assert.equal((await harness.get('/api/weather')).source.cached, false);
    assert.equal(harness.fake.count('kma'), 2, 'two pages of the 1100 run');
    time.set('2026-11-21T05:09:00Z'); // 14:09 KST, the 1400 run is not out yet
    assert.equal((await harness.get('/api/weather')).source.cached, true);
    assert.equal((await harness.get('/api/weather?lat=37.5665&lon=126.9780')).source.cached, true, 'same grid cell, same entry');
    time.set('2026-11-21T05:10:00Z');
    const fresh = await harness.get('/api/weather');
    assert.deepEqual([fresh.source.cached, fresh.status], [false, 200]);
    assert.equal(harness.fake.count('kma'), 3, 'the 1400 run fits one page');
  });

  await t.test('should refetch lists after ten minutes but keep q filtering per request', async () => {
    harness.fake.reset();
    await harness.get('/api/biznotice');
    const filtered = await harness.get('/api/biznotice?q=%EC%8A%A4%EB%A7%88%ED%8A%B8');
    assert.equal(filtered.source.cached, true, 'q filters the cached page');
    assert.equal((filtered.data as { items: unknown[] }).items.length, 1);
    time.advance(10 * 60_000 + 1);
    assert.equal((await harness.get('/api/biznotice')).source.cached, false);
    assert.equal(harness.fake.count('mss'), 2);
  });

  await t.test('should share one upstream call between identical concurrent requests', async () => {
    harness.fake.reset();
    const answers = await Promise.all(Array.from({ length: 5 }, () => harness.get('/api/tour?action=detail&contentId=126508')));
    assert.ok(answers.every((a) => a.status === 200));
    assert.equal(harness.fake.count('tour'), 1);
    assert.equal(answers.filter((a) => !a.source.cached).length, 1);
  });

  await t.test('should send HEAD the Cache-Control its GET gets (RFC 9110 9.3.2)', async () => {
    const path = '/api/tour?action=detail&contentId=126508';
    const get = await fetch(harness.base + path);
    const head = await fetch(harness.base + path, { method: 'HEAD' });
    assert.deepEqual([get.status, head.status], [200, 200]);
    assert.equal(get.headers.get('cache-control'), 'public, max-age=60');
    assert.equal(head.headers.get('cache-control'), get.headers.get('cache-control'), 'a HEAD answer had no-store while the GET was public');
  });
});
