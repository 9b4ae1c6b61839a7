/**
 * The embedded store's file thread (`store/embedded/file-thread.ts`): a new comment is
 * appended to its post's file by a worker, one round trip. What the store promised
 * before still holds: a busy post's big file never holds another post's comment;
 * concurrent adds all land, in order, durably replaced (no temp
 * file left); a broken post file is refused and left as it is; a thread that dies fails
 * only what it was doing, and the next add starts another.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { closeSync, openSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Comment } from '@agora/generator';
import { openEmbeddedStore } from '../../packages/writer/src/store/embedded/index.ts';
import { FileThread, FileThreads } from '../../packages/writer/src/store/embedded/file-thread.ts';
import { StoreError } from '../../packages/writer/src/store/types.ts';

const comment = (slug: string, i: number): Comment => ({
  id: `${slug}-${String(i).padStart(3, '0')}`, slug, author: 'a', model: 'm', date: '2026-01-01', type: 'supplement', position: null,
  body: `Comment ${i}.`, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), html: `<p>Comment ${i}.</p>`, html_key: 'v1',
});

test('concurrent adds through the file thread all land, in order, with no temp file left', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-file-thread-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = await openEmbeddedStore(dir, 'server');
  t.after(() => store.close());
  const slugs = ['alpha', 'beta', 'gamma'];
  await Promise.all(Array.from({ length: 60 }, (_, i) => store.comments.add(comment(slugs[i % 3]!, i))));
  for (const slug of slugs) {
    const stored = await store.comments.forSlug(slug);
    assert.deepEqual(stored.map((c) => c.id), Array.from({ length: 20 }, (_, k) => `${slug}-${String(k * 3 + slugs.indexOf(slug)).padStart(3, '0')}`));
    assert.equal(stored[0]!.html, '<p>Comment ' + slugs.indexOf(slug) + '.</p>', 'the HTML is stored with the comment');
  }
  assert.deepEqual((await readdir(join(dir, 'comments'))).sort(), ['alpha.json', 'beta.json', 'gamma.json']);
});

test('a broken post file is refused with the file and the fix, and left as it is', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-file-thread-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = await openEmbeddedStore(dir, 'server');
  t.after(() => store.close());
  await store.comments.add(comment('alpha', 1));
  const file = join(dir, 'comments', 'alpha.json');
  await writeFile(file, '{"slug": "alpha", "comments": {}}');
  const error = await store.comments.add(comment('alpha', 2)).then(() => null, (e: unknown) => e);
  assert.ok(error instanceof StoreError, `a StoreError, not ${String(error)}`);
  assert.equal(error.code, 'corrupt');
  assert.match(error.message, /alpha\.json/);
  assert.match(error.message, /Restore it from a backup/);
  assert.equal(await readFile(file, 'utf8'), '{"slug": "alpha", "comments": {}}', 'not overwritten');
  // Another post is unharmed.
  await store.comments.add(comment('beta', 3));
  assert.equal((await store.comments.forSlug('beta')).length, 1);
});

test('a file thread that dies fails what it was doing; the next call starts another', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-file-thread-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const files = new FileThread();
  t.after(() => files.close());
  const path = join(dir, 'alpha.json');
  await files.appendComments(path, 'alpha', [comment('alpha', 1)], 'fix it');
  const worker = (files as unknown as { worker: Worker }).worker;
  const pending = files.appendComments(path, 'alpha', [comment('alpha', 2)], 'fix it').then(() => 'stored', (e: unknown) => e);
  await worker.terminate();
  const outcome = await pending;
  // Either it was stored before the thread stopped, or it failed as unavailable: never half-written.
  if (outcome !== 'stored') assert.equal((outcome as StoreError).code, 'unavailable');
  await files.appendComments(path, 'alpha', [comment('alpha', 3)], 'fix it');
  const stored = JSON.parse(await readFile(path, 'utf8')) as { comments: Comment[] };
  assert.deepEqual(stored.comments.map((c) => c.id), outcome === 'stored' ? ['alpha-001', 'alpha-002', 'alpha-003'] : ['alpha-001', 'alpha-003']);
  // An error with a code (here: a file where a folder should be) keeps its code, so the store maps ENOSPC to `disk_full`.
  const failed = await files.appendComments(join(path, 'x.json'), 'x', [comment('x', 1)], 'fix it').then(() => null, (e: NodeJS.ErrnoException) => e);
  assert.equal(failed?.code, 'ENOTDIR');
});

test("a busy post's big file does not hold another post's comment", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-file-thread-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const files = new FileThreads();
  t.after(() => files.close());
  // A heavy client's post: 4,000 comments with their HTML, ~20 MB to read, parse and write.
  const heavy = join(dir, 'heavy.json');
  const big = Array.from({ length: 4000 }, (_, i) => ({ ...comment('heavy', i), html: `<p>${'x'.repeat(5000)}</p>` }));
  await writeFile(heavy, JSON.stringify({ slug: 'heavy', comments: big }));
  // Both threads started and loaded (two calls at once go to two threads).
  await Promise.all([files.appendComments(join(dir, 'light.json'), 'light', [comment('light', 0)], 'fix it'), files.appendComments(join(dir, 'other.json'), 'other', [comment('other', 0)], 'fix it')]);
  const done: string[] = [];
  await Promise.all([
    files.appendComments(heavy, 'heavy', [comment('heavy', 9999)], 'fix it').then(() => done.push('heavy')),
    files.appendComments(join(dir, 'light.json'), 'light', [comment('light', 1)], 'fix it').then(() => done.push('light')),
  ]);
  assert.deepEqual(done, ['light', 'heavy']);
});

test('idle file threads never keep a process alive', async (t) => {
  // A CLI command or a test that opened the store and forgot to close it must still exit.
  const dir = await mkdtemp(join(tmpdir(), 'agora-file-thread-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'forgets-to-close.mts');
  // It appended a comment (so a thread is running, idle, with its idle timer set), then forgot to close.
  const post = JSON.stringify(join(dir, 'alpha.json'));
  await writeFile(script, `import { FileThreads } from ${JSON.stringify(join(process.cwd(), 'packages/writer/src/store/embedded/file-thread.ts'))};\nawait new FileThreads().appendComments(${post}, 'alpha', [${JSON.stringify(comment('alpha', 1))}], 'fix');\n`);
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=agora-source', script], { stdio: 'ignore' });
  const code = await Promise.race([once(child, 'exit').then(([c]) => c as number), new Promise<string>((r) => setTimeout(() => r('still running after 15 s'), 15_000))]);
  child.kill('SIGKILL');
  assert.equal(code, 0);
  assert.equal((JSON.parse(await readFile(join(dir, 'alpha.json'), 'utf8')) as { comments: unknown[] }).comments.length, 1, 'it did append');
});

test('a comment the store could not read back is refused before it is written', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-file-thread-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = await openEmbeddedStore(dir, 'server');
  t.after(() => store.close());
  await store.comments.add(comment('alpha', 1));
  const bad = { ...comment('alpha', 2), type: 'review' } as unknown as Comment;
  const error = await store.comments.add(bad).then(() => null, (e: unknown) => e);
  assert.match(String(error), /unknown type; nothing was stored/);
  // The post's file still reads, with the comment stored before.
  assert.deepEqual((await store.comments.forSlug('alpha')).map((c) => c.id), [comment('alpha', 1).id]);
});

test('a process out of file descriptors refuses a comment as unavailable (a 503), stores nothing, and stores again once some close', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-file-thread-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = await openEmbeddedStore(dir, 'server');
  t.after(() => store.close());
  await store.comments.add(comment('alpha', 1));
  // Every descriptor taken, as by a flood of connections (worker threads share the table).
  const held: number[] = [];
  const release = () => held.splice(0).forEach((fd) => closeSync(fd));
  t.after(release);
  try {
    for (;;) held.push(openSync('/dev/null', 'r'));
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'EMFILE');
  }
  const refused = await store.comments.add(comment('alpha', 2)).then(() => null, (e: unknown) => e);
  release();
  // Before: the bare EMFILE, answered 500 internal.
  assert.ok(refused instanceof StoreError, `a StoreError: ${String(refused)}`);
  assert.equal(refused.code, 'unavailable');
  assert.match(refused.message, /EMFILE: too many open files.*nothing was stored.*ulimit -n/);
  await store.comments.add(comment('alpha', 3));
  assert.deepEqual((await store.comments.forSlug('alpha')).map((c) => c.id), ['alpha-001', 'alpha-003']);
});
