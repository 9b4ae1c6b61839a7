import { test } from 'node:test';
import assert from 'node:assert/strict';
import { latestVilageBase } from '../../packages/writer/src/upstream/kma/base-time.ts';

/** A KST wall-clock instant (UTC+9). */
const kst = (iso: string) => new Date(`${iso}+09:00`);

test('latestVilageBase', async (t) => {
  const cases: [string, string, string, string][] = [
    ['2026-11-21T00:05:00', '20261120', '2300', '2026-11-21T02:10:00'],
    ['2026-11-21T02:09:59', '20261120', '2300', '2026-11-21T02:10:00'],
    ['2026-11-21T02:10:00', '20261121', '0200', '2026-11-21T05:10:00'],
    ['2026-11-21T05:09:00', '20261121', '0200', '2026-11-21T05:10:00'],
    ['2026-11-21T11:30:00', '20261121', '1100', '2026-11-21T14:10:00'],
    ['2026-11-21T23:09:00', '20261121', '2000', '2026-11-21T23:10:00'],
    ['2026-11-21T23:59:00', '20261121', '2300', '2026-11-22T02:10:00'],
    ['2026-03-01T01:00:00', '20260228', '2300', '2026-03-01T02:10:00'],
    ['2027-01-01T00:00:00', '20261231', '2300', '2027-01-01T02:10:00'],
  ];
  for (const [at, date, time, next] of cases) {
    await t.test(`should pick ${date} ${time} at ${at} KST`, () => {
      const base = latestVilageBase(kst(at));
      assert.equal(base.baseDate, date);
      assert.equal(base.baseTime, time);
      assert.equal(base.nextPublishedAt.toISOString(), kst(next).toISOString());
    });
  }
  await t.test('should not depend on the host time zone (UTC instants)', () => {
    const base = latestVilageBase(new Date('2026-11-20T15:05:00Z'));
    assert.deepEqual([base.baseDate, base.baseTime], ['20261120', '2300']);
  });
});
