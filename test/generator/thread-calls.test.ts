/**
 * `ThreadCalls`: calls answered by one worker thread. A worker with no call for `idleMs`
 * stops (a writer at rest holds no file or write thread), and the next call starts
 * another; a call racing the stop is never lost.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThreadCalls } from '../../packages/generator/src/thread-calls.ts';

const WORKER = new URL('../../packages/generator/src/emit/write-thread-entry.mjs', import.meta.url);
type Reply = { seq: number; failures: unknown[] };

test('a thread idle for idleMs stops, and the next call starts another', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-thread-calls-'));
  const calls = new ThreadCalls<{ files: { path: string; bytes: Uint8Array }[] }, Reply>({ url: WORKER, name: 'The test thread', idleMs: 300 });
  t.after(async () => {
    await calls.close();
    await rm(dir, { recursive: true, force: true });
  });
  const write = (name: string, text: string) => calls.call({ files: [{ path: join(dir, name), bytes: new TextEncoder().encode(text) }] });
  assert.deepEqual((await write('a', 'one')).failures, [null]);
  const first = calls.worker;
  assert.ok(first, 'a worker runs after a call');
  // Calls closer together than idleMs keep it (40 ms apart: a loaded machine can fire a timer late).
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 40));
    await write('a', `again ${i}`);
  }
  assert.equal(calls.worker, first, 'kept while calls keep coming');
  await new Promise((r) => setTimeout(r, 1000));
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

test('a close while the worker says it is ready settles before the process may end', async (t) => {
  // The worker loads and says "ready" while the main thread is busy, so that message is
  // still queued when `close()` terminates the worker. Handling it unref'd the worker
  // `close()` waited for: the process ended with the close unsettled (in the test suite,
  // a writer's close that never settled: "Promise resolution is still pending but the
  // event loop has already resolved").
  const dir = await mkdtemp(join(tmpdir(), 'agora-thread-calls-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'worker.mjs'), "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ ready: true });\nparentPort.on('message', (m) => parentPort.postMessage({ seq: m.seq }));\n");
  await writeFile(join(dir, 'main.mts'), [
    `import { ThreadCalls } from ${JSON.stringify(new URL('../../packages/generator/src/thread-calls.ts', import.meta.url).href)};`,
    `const calls = new ThreadCalls({ url: new URL(${JSON.stringify(pathToFileURL(join(dir, 'worker.mjs')).href)}), name: 'The test thread' });`,
    'calls.start();',
    'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);',
    'await calls.close();',
    "console.log('closed');",
  ].join('\n'));
  for (let i = 0; i < 3; i++) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(dir, 'main.mts')], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(child.stdout.trim(), 'closed', `run ${i}: the close never settled; exit ${child.status}, ${child.stderr}`);
  }
});
