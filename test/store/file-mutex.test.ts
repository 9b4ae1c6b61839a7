/**
 * The store lock across processes: a command that needs the whole lock (a token, an
 * agent block, an import) gets it while a writer keeps storing comments on many posts.
 * Polling alone starved it: some post's byte was always held, so `agora` commands failed
 * with "Cannot lock data/.store.lock within 10000 ms" under a heavy comment load.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileMutex } from '../../packages/writer/src/store/embedded/os-lock.ts';
import { REPO_ROOT } from '../helpers/project.ts';

// A busy writer: 12 posts' locks taken over and over, each held 4 ms, so at almost any
// instant some post's byte is held (as 50 clients on distinct posts do).
const BUSY = `
import { FileMutex } from '${pathToFileURL(join(REPO_ROOT, 'packages/writer/src/store/embedded/os-lock.ts')).href}';
const mutex = new FileMutex(process.argv[1]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let runs = 0;
const lane = async (key) => { for (;;) { await mutex.runFor(key, async () => { runs++; await sleep(4); }); } };
for (let i = 0; i < 12; i++) void lane('post-' + i);
setInterval(() => { if (runs > 200) console.log('busy'); }, 100);
`;

test('a whole-lock run gets its turn while another process holds post locks without pause', { timeout: 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-mutex-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, '.store.lock');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', BUSY, path], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('busy') && resolve());
    child.once('exit', (code) => reject(new Error(`the busy process exited with ${code}`)));
  });
  const mutex = new FileMutex(path, 3000);
  t.after(() => mutex.close());
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await mutex.run(async () => {});
    assert.ok(performance.now() - started < 3000);
  }
  // And a post's own lock, while that post is one of the busy ones.
  await mutex.runFor('post-3', async () => {});
});
