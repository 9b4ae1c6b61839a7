/**
 * Two rebuilds of one build state may write the same file side by side: a site-wide
 * flush rewrites `/api/post/{slug}` of a post whose views changed while a comment's
 * rebuild rewrites it with the new comment. The file must end with the content made
 * last, whichever write finishes first: the output sink orders the writes of one path
 * in the order their content was made.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Manifest, OutputSink } from '../../packages/generator/src/emit/write-outputs.ts';

test('writes of one path land in the order their content was made', async (t) => {
  const dist = await mkdtemp(join(tmpdir(), 'agora-write-order-'));
  t.after(() => rm(dist, { recursive: true, force: true }));
  const manifest = new Manifest(null, dist);
  // 24 MB through the thread pool: its rename comes long after a small synchronous write.
  const older = 'o'.repeat(24 << 20);

  await t.test('a newer synchronous write waits for an older one still in flight', async () => {
    const flush = new OutputSink(manifest, { hashLimit: 1 << 20, concurrency: 2 });
    const comment = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024 });
    const first = flush.emit('api-post:a', 'k1', () => ({ path: 'api/post/a', body: older }));
    await comment.emit('api-post:a#comment', null, () => ({ path: 'api/post/a', body: 'newer' }));
    await first;
    await Promise.all([flush.finish(), comment.finish()]);
    assert.equal(await readFile(join(dist, 'api/post/a'), 'utf8'), 'newer');
    assert.equal(manifest.outputs.get('api/post/a') !== undefined, true, 'the last write is recorded');
  });

  await t.test('two asynchronous writes of one path keep their order too', async () => {
    const a = new OutputSink(manifest, { hashLimit: 1 << 20 });
    const b = new OutputSink(manifest, { hashLimit: 1 << 20 });
    const first = a.emit('x:1', null, () => ({ path: 'api/post/b', body: older }));
    const second = b.emit('x:2', null, () => ({ path: 'api/post/b', body: 'second' }));
    await Promise.all([first, second]);
    await Promise.all([a.finish(), b.finish()]);
    assert.equal(await readFile(join(dist, 'api/post/b'), 'utf8'), 'second');
  });

  await t.test('a write of another path does not wait', async () => {
    const slow = new OutputSink(manifest, { hashLimit: 1 << 20 });
    const fast = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024 });
    const big = slow.emit('y:1', null, () => ({ path: 'api/posts', body: older }));
    await fast.emit('y:2', null, () => ({ path: 'api/post/c', body: 'c' }));
    // Written synchronously at once: on disk before the big write has finished.
    assert.equal(await readFile(join(dist, 'api/post/c'), 'utf8'), 'c');
    await big;
    await slow.finish();
  });

  await t.test('nothing is left waiting: the order of a path is forgotten once its writes are done', () => {
    assert.equal(manifest.writesUnderWay, 0);
  });
});
