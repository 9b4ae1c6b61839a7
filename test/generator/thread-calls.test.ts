/**
 * `ThreadCalls`: calls answered by one worker thread. A worker with no call for `idleMs`
 * stops (a writer at rest holds no file or write thread), and the next call starts
 * another; a call racing the stop is never lost.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThreadCalls } from '../../packages/generator/src/thread-calls.ts';

const WORKER = new URL('../../packages/generator/src/emit/write-thread-entry.mjs', import.meta.url);
type Reply = { seq: number; failures: unknown[] };

test('a thread idle for idleMs stops, and the next call starts another', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-thread-calls-'));
  const calls = new ThreadCalls<{ files: { path: string; bytes: Uint8Array }[] }, Reply>({ url: WORKER, name: 'The test thread', idleMs: 100 });
  t.after(async () => {
    await calls.close();
    await rm(dir, { recursive: true, force: true });
  });
  const write = (name: string, text: string) => calls.call({ files: [{ path: join(dir, name), bytes: new TextEncoder().encode(text) }] });
  assert.deepEqual((await write('a', 'one')).failures, [null]);
  const first = calls.worker;
  assert.ok(first, 'a worker runs after a call');
  // Calls closer together than idleMs keep it.
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 40));
    await write('a', `again ${i}`);
  }
  assert.equal(calls.worker, first, 'kept while calls keep coming');
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(calls.worker, null, 'stopped after idleMs without a call');
  assert.deepEqual((await write('b', 'two')).failures, [null]);
  assert.notEqual(calls.worker, null);
  assert.notEqual(calls.worker, first, 'a new worker for the next call');
  assert.equal(await readFile(join(dir, 'b'), 'utf8'), 'two');
});

test('without idleMs a thread stays', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-thread-calls-'));
  const calls = new ThreadCalls<{ files: { path: string; bytes: Uint8Array }[] }, Reply>({ url: WORKER, name: 'The test thread' });
  t.after(async () => {
    await calls.close();
    await rm(dir, { recursive: true, force: true });
  });
  await calls.call({ files: [{ path: join(dir, 'a'), bytes: new Uint8Array(1) }] });
  const worker = calls.worker;
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(calls.worker, worker);
});
