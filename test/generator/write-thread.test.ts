/**
 * A long-lived process's rebuilds hand their small dist/ files to a write thread in
 * batches (`emit/write-thread.ts`), so the renames that start ext4's write-back run
 * beside the main thread, not on it. The sink still records each file only once it is
 * written, keeps the order of writes of one path, and fails the build, never hangs,
 * when a file or the thread fails.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Manifest, OutputSink } from '../../packages/generator/src/emit/write-outputs.ts';
import { WriteThread, WriteThreads } from '../../packages/generator/src/emit/write-thread.ts';

const exists = (path: string) => stat(path).then(() => true, () => false);

/** A dist/ folder for one test, removed after it, once `threads` are closed. */
async function scratch(t: TestContext, threads: { close(): Promise<void> }): Promise<string> {
  const dist = await mkdtemp(join(tmpdir(), 'agora-write-thread-'));
  t.after(async () => {
    await threads.close();
    await rm(dist, { recursive: true, force: true });
  });
  return dist;
}

test('small files go to the write thread and are recorded once written', async (t) => {
  const thread = new WriteThread();
  const dist = await scratch(t, thread);
  const manifest = new Manifest(null, dist);

  await t.test('written by the thread, in nested folders, from chunks that are views of a bigger buffer', async () => {
    const sink = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: thread });
    const shared = Buffer.from('0123456789abcdef');
    await sink.emit('post:a', 'k', () => [
      { path: 'a/index.html', body: 'page a' },
      { path: 'api/comments/a', body: [shared.subarray(0, 4), shared.subarray(10, 12)] },
      { path: 'deep/er/still/file', body: 'x'.repeat(5000) },
    ]);
    // Handed over, not written on this thread: nothing is recorded until the thread answers.
    assert.equal(sink.result.written.length, 0);
    await sink.finish();
    assert.equal(await readFile(join(dist, 'a/index.html'), 'utf8'), 'page a');
    assert.equal(await readFile(join(dist, 'api/comments/a'), 'utf8'), '0123ab');
    assert.equal((await readFile(join(dist, 'deep/er/still/file'), 'utf8')).length, 5000);
    assert.deepEqual([...sink.result.written].sort(), ['a/index.html', 'api/comments/a', 'deep/er/still/file']);
    assert.ok(manifest.outputs.get('a/index.html'), 'its hash is recorded');
    // The caller's chunks are copied, not taken: the shared buffer is still whole.
    assert.equal(shared.toString(), '0123456789abcdef');
  });

  await t.test('unchanged bytes are not written again', async () => {
    const sink = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: thread });
    await sink.emit('post:a', 'k', () => ({ path: 'a/index.html', body: 'page a' }));
    await sink.finish();
    assert.equal(sink.result.unchanged, 1);
    assert.equal(sink.result.written.length, 0);
  });

  await t.test('a thread write of a path waits for an older write of it still in flight, and a newer one for it', async () => {
    const older = 'o'.repeat(24 << 20);
    const flush = new OutputSink(manifest, { hashLimit: 1 << 20, concurrency: 2 });
    const comment = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: thread });
    const later = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: thread });
    const first = flush.emit('api-post:b', 'k1', () => ({ path: 'api/post/b', body: older }));
    await comment.emit('api-post:b#comment', null, () => ({ path: 'api/post/b', body: 'newer' }));
    await later.emit('api-post:b#later', null, () => ({ path: 'api/post/b', body: 'newest' }));
    await first;
    await Promise.all([later.finish(), comment.finish(), flush.finish()]);
    assert.equal(await readFile(join(dist, 'api/post/b'), 'utf8'), 'newest');
    assert.equal(manifest.writesUnderWay, 0);
  });

  await t.test('a file that cannot be written fails the build and is not recorded; the others are written', async () => {
    await writeFile(join(dist, 'blocker'), 'a file where a folder should be');
    const sink = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: thread });
    await sink.emit('bad', null, () => [
      { path: 'blocker/inside', body: 'cannot' },
      { path: 'fine/file', body: 'fine' },
    ]);
    await assert.rejects(sink.finish(), (error: NodeJS.ErrnoException) => error.code === 'ENOTDIR' || error.code === 'EEXIST');
    assert.equal(manifest.outputs.has('blocker/inside'), false);
    assert.equal(await readFile(join(dist, 'fine/file'), 'utf8'), 'fine');
    assert.equal(manifest.writesUnderWay, 0, 'no claim is left for a later write to wait on');
  });

  await t.test('a thread that dies fails its batch; the next write starts another', async () => {
    const sink = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: thread });
    await sink.emit('lost', null, () => ({ path: 'lost/file', body: 'lost' }));
    // The thread stops as the batch is sent (by finish), before it can answer.
    thread.start();
    const dying = thread.worker!.terminate();
    await assert.rejects(sink.finish(), /write thread stopped/);
    await dying;
    assert.equal(manifest.outputs.has('lost/file'), false);
    assert.equal(manifest.writesUnderWay, 0);
    const again = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: thread });
    await again.emit('again', null, () => ({ path: 'again/file', body: 'again' }));
    await again.finish();
    assert.equal(await exists(join(dist, 'again/file')), true);
  });
});

test('a flush keeps few batches in flight, and a post\'s rebuild does not wait behind them', async (t) => {
  const threads = new WriteThreads();
  const dist = await scratch(t, threads);
  const manifest = new Manifest(null, dist);
  // Both threads loaded first (the writer starts them before it takes comments).
  for (const lane of [threads.rebuilds, threads.flushes]) await lane.write([{ path: join(dist, 'warm'), bytes: new Uint8Array(1) }]);
  // As the writer's flush sink: two writes in flight.
  const flush = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: threads.flushes, concurrency: 2 });
  let most = 0;
  const probe = setInterval(() => (most = Math.max(most, threads.flushes.busy)), 1);
  for (let i = 0; i < 3000; i++) await flush.emit(`r${i}`, null, () => ({ path: `api/post/p${i}`, body: JSON.stringify({ i, t: 'x'.repeat(1500) }) }));
  const started = performance.now();
  const comment = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: threads.rebuilds });
  await comment.emit('c', null, () => [{ path: 'c/index.html', body: 'page' }, { path: 'api/comments/c', body: '[]' }]);
  await comment.finish();
  const commentMs = performance.now() - started;
  await flush.finish();
  clearInterval(probe);
  // Unbounded, ~100 batches waited in the thread and a comment's two files ~1.9 s behind them.
  assert.ok(most <= 2, `batches of the flush in flight at most: ${most}`);
  assert.ok(commentMs < 300, `a post's two files waited ${commentMs.toFixed(0)} ms`);
  assert.equal(await readFile(join(dist, 'api/post/p2999'), 'utf8'), JSON.stringify({ i: 2999, t: 'x'.repeat(1500) }));
});

test('a thread that crashed fails only its own batches: the next thread\'s write is not failed by the old one\'s exit', async (t) => {
  const thread = new WriteThread();
  const dist = await scratch(t, thread);
  thread.start();
  const old = thread.worker!;
  await new Promise((r) => old.once('message', r));
  const keep = setInterval(() => {}, 1000);
  t.after(() => clearInterval(keep));
  const answer = new Promise<string>((resolve) => {
    old.once('error', () => setImmediate(() => thread.write([{ path: join(dist, 'x'), bytes: new TextEncoder().encode('hello') }]).then(() => resolve('written'), (e: Error) => resolve(`rejected: ${e.message}`))));
  });
  // An uncaught error in the thread (as ERR_WORKER_OUT_OF_MEMORY would be): 'error', then 'exit'.
  old.postMessage(null);
  assert.equal(await answer, 'written');
  assert.equal(await readFile(join(dist, 'x'), 'utf8'), 'hello');
});

test('a thread that cannot be made fails the rebuild; no claim is left behind and nothing throws outside it', async (t) => {
  const thread = new WriteThread();
  const dist = await scratch(t, thread);
  // As `new Worker` throws under a container's thread limit (ERR_WORKER_INIT_FAILED).
  const calls = thread as unknown as { ensure: () => unknown };
  const ensure = calls.ensure.bind(thread);
  let broken = true;
  calls.ensure = () => {
    if (broken) throw Object.assign(new Error('Worker initialization failure: EAGAIN'), { code: 'ERR_WORKER_INIT_FAILED' });
    return ensure();
  };
  const manifest = new Manifest(null, dist);
  const sink = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: thread });
  const failed = await sink.emit('job', null, () => Array.from({ length: 70 }, (_, i) => ({ path: `p/f${i}`, body: `v1 ${i}` }))).then(() => sink.finish()).then(() => false, () => true);
  assert.ok(failed, 'the rebuild failed');
  assert.equal(manifest.writesUnderWay, 0, 'no claim is left for a later write to wait on');
  broken = false;
  const again = new OutputSink(manifest, { hashLimit: 1 << 20, syncBelow: 64 * 1024, writeThread: thread });
  await again.emit('job', null, () => ({ path: 'p/f0', body: 'v2' }));
  await again.finish();
  assert.equal(await readFile(join(dist, 'p/f0'), 'utf8'), 'v2');
});
