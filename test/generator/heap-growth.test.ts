/**
 * `limitHeapGrowth` (heap-growth.ts): `agora build` asks V8 to collect before the heap
 * grows past 1.2× what the last full collection kept. Measured in a child process (the
 * flag is process-wide) by the heap a build-like allocation pattern reaches: a live
 * base, and garbage that is promoted before it dies, as a page's HTML is until written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { REPO_ROOT } from '../helpers/project.ts';
import { limitHeapGrowth } from '../../packages/generator/src/heap-growth.ts';

const execFileP = promisify(execFile);

const CHURN = `
  import { limitHeapGrowth } from ${JSON.stringify(join(REPO_ROOT, 'packages/generator/src/heap-growth.ts'))};
  const set = limitHeapGrowth();
  const live = Array.from({ length: 50 }, () => Array.from({ length: 12_500 }, (_, i) => ({ i })));
  const ring = new Array(200);
  let peak = 0;
  for (let n = 0; n < 4000; n++) {
    ring[n % ring.length] = Array.from({ length: 3000 }, (_, i) => ({ n, i }));
    if (n % 20 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
  }
  console.log(JSON.stringify({ set, live: live.length, peakMB: Math.round(peak / 1048576) }));
`;

async function churn(percent: string | undefined): Promise<{ set: number | null; peakMB: number }> {
  const env = { ...process.env };
  delete env.AGORA_HEAP_GROWING_PERCENT;
  if (percent !== undefined) env.AGORA_HEAP_GROWING_PERCENT = percent;
  const { stdout } = await execFileP(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHURN], { env, cwd: REPO_ROOT });
  return JSON.parse(stdout) as { set: number | null; peakMB: number };
}

test('the heap of a build collects sooner', async () => {
  const [bounded, v8Default] = await Promise.all([churn(undefined), churn('0')]);
  assert.equal(bounded.set, 20);
  assert.equal(v8Default.set, null, '0 keeps V8 default');
  // ~50 MB live: V8's default let this pattern reach ~270 MB, 1.2× growth ~116 MB.
  assert.ok(bounded.peakMB < v8Default.peakMB * 0.7, `bounded ${bounded.peakMB} MB against V8's default ${v8Default.peakMB} MB`);
});

test('AGORA_HEAP_GROWING_PERCENT sets the percentage, and refuses what is not a whole number', () => {
  assert.equal(limitHeapGrowth({ AGORA_HEAP_GROWING_PERCENT: '0' }), null);
  for (const bad of ['20%', '-5', '1.5', 'fast', '12345']) {
    assert.throws(() => limitHeapGrowth({ AGORA_HEAP_GROWING_PERCENT: bad }), (e: Error) => e.message.includes('AGORA_HEAP_GROWING_PERCENT') && e.message.includes(bad));
  }
});

test('agora build stops on a wrong AGORA_HEAP_GROWING_PERCENT, naming it, before building', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-heap-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const agora = join(REPO_ROOT, 'bin', 'agora');
  await execFileP(process.execPath, [agora, 'init', dir], { env: { ...process.env, LOG_LEVEL: 'silent' } });
  const run = await execFileP(process.execPath, [agora, 'build'], { cwd: dir, env: { ...process.env, AGORA_SEARCH_INDEX: '0', AGORA_HEAP_GROWING_PERCENT: 'fast' } }).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code: number; stderr: string }) => e,
  );
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /AGORA_HEAP_GROWING_PERCENT must be a whole number/);
  assert.equal(existsSync(join(dir, 'dist')), false, 'nothing built');
});

test('agora start stops on a wrong AGORA_HEAP_GROWING_PERCENT, naming it, before listening', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-heap-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const agora = join(REPO_ROOT, 'bin', 'agora');
  await execFileP(process.execPath, [agora, 'init', dir], { env: { ...process.env, LOG_LEVEL: 'silent' } });
  // The writer sets the same limit as build: a wrong value stops it, which a writer that ignored the setting would not.
  const run = await execFileP(process.execPath, [agora, 'start', '--port', '0'], { cwd: dir, timeout: 60_000, env: { ...process.env, AGORA_SEARCH_INDEX: '0', AGORA_HEAP_GROWING_PERCENT: '20%' } }).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code: number; stderr: string }) => e,
  );
  assert.equal(run.code, 1);
  assert.match(run.stderr, /AGORA_HEAP_GROWING_PERCENT must be a whole number of percent .* not "20%"/);
  assert.equal(existsSync(join(dir, 'dist')), false, 'nothing built, nothing served');
});
