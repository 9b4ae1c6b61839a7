import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromGrid, toGrid } from '../../packages/writer/src/upstream/kma/grid.ts';

test('toGrid', async (t) => {
  await t.test('should map Seoul City Hall (37.5665, 126.9780) to 60,127', () => {
    assert.deepEqual(toGrid(37.5665, 126.978), { nx: 60, ny: 127 });
  });
  await t.test('should map Busan City Hall (35.1798, 129.0750) to 98,76', () => {
    assert.deepEqual(toGrid(35.1798, 129.075), { nx: 98, ny: 76 });
  });
  await t.test('should map Jeju (33.4996, 126.5312) to 53,38', () => {
    assert.deepEqual(toGrid(33.4996, 126.5312), { nx: 53, ny: 38 });
  });
});

test('fromGrid', async (t) => {
  await t.test('should map 60,127 back to about 37.5799, 126.9894', () => {
    const { lat, lon } = fromGrid(60, 127);
    assert.ok(Math.abs(lat - 37.5799) < 0.0005, `lat ${lat}`);
    assert.ok(Math.abs(lon - 126.9894) < 0.0005, `lon ${lon}`);
  });
  await t.test('should round-trip every cell near the origin', () => {
    for (const [nx, ny] of [[43, 136], [98, 76], [1, 1], [149, 253]] as const) {
      const { lat, lon } = fromGrid(nx, ny);
      assert.deepEqual(toGrid(lat, lon), { nx, ny });
    }
  });
});
