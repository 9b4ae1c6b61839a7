/**
 * `writeFileAtomic` with `syncEvery` (the store's post files, the writer's big lists):
 * the bytes are the same as one write, and they go to disk in steps (`fdatasync` once
 * per step, then before the rename), so another file's fsync waits for one step at
 * most. A big string is one chunk: it is cut into steps too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from '@agora/generator/files';

test('a stepped write writes the same bytes, synced in steps', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-steps-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // Count fdatasync calls on every file handle.
  const probe = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
  await probe.close();
  const original = proto.datasync;
  let datasyncs = 0;
  proto.datasync = function (this: unknown) {
    datasyncs++;
    return original.call(this);
  };
  t.after(() => void (proto.datasync = original));

  const text = 'x'.repeat(300_000) + 'é'.repeat(50_000) + '\n';
  await writeFileAtomic(join(dir, 'one-string'), text, { durable: false, syncEvery: 64 * 1024 });
  assert.equal(await readFile(join(dir, 'one-string'), 'utf8'), text);
  const bytes = Buffer.byteLength(text);
  assert.equal(datasyncs, Math.ceil(bytes / (64 * 1024)), 'one fdatasync per step of the one big chunk, the last before the rename');

  datasyncs = 0;
  const chunks = Array.from({ length: 40 }, (_, i) => Buffer.from(`chunk ${i} `.repeat(1000)));
  await writeFileAtomic(join(dir, 'chunks'), chunks, { durable: false, syncEvery: 100 * 1024 });
  assert.deepEqual(await readFile(join(dir, 'chunks')), Buffer.concat(chunks));
  assert.ok(datasyncs >= 3 && datasyncs <= Math.ceil(Buffer.concat(chunks).byteLength / (100 * 1024)) + 1, `stepped (${datasyncs} fdatasyncs)`);

  datasyncs = 0;
  await writeFileAtomic(join(dir, 'plain'), text, { durable: false });
  assert.equal(datasyncs, 0, 'no steps without syncEvery');
});

test('writeFileAtomicSync: durable and in steps, the same bytes (the store\'s file thread)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-steps-sync-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // Count fdatasyncSync and fsyncSync calls (named imports of node:fs follow the module object after syncBuiltinESMExports).
  const original = { fdatasyncSync: fs.fdatasyncSync, fsyncSync: fs.fsyncSync };
  let datasyncs = 0;
  let fsyncs = 0;
  fs.fdatasyncSync = (fd) => {
    datasyncs++;
    original.fdatasyncSync(fd);
  };
  fs.fsyncSync = (fd) => {
    fsyncs++;
    original.fsyncSync(fd);
  };
  syncBuiltinESMExports();
  t.after(() => {
    Object.assign(fs, original);
    syncBuiltinESMExports();
  });
  const text = 'y'.repeat(200_000) + 'ü'.repeat(30_000) + '\n';
  writeFileAtomicSync(join(dir, 'sync-one'), text, undefined, { durable: true, syncEvery: 64 * 1024 });
  assert.equal(await readFile(join(dir, 'sync-one'), 'utf8'), text);
  assert.equal(datasyncs, Math.floor(Buffer.byteLength(text) / (64 * 1024)), 'one fdatasync per whole step');
  assert.equal(fsyncs, 2, 'the file, then its folder');
  datasyncs = fsyncs = 0;
  const chunks = Array.from({ length: 30 }, (_, i) => Buffer.from(`part ${i} `.repeat(900)));
  writeFileAtomicSync(join(dir, 'sync-chunks'), chunks, undefined, { durable: true, syncEvery: 50 * 1024 });
  assert.deepEqual(await readFile(join(dir, 'sync-chunks')), Buffer.concat(chunks));
  assert.equal(datasyncs, Math.floor(Buffer.concat(chunks).byteLength / (50 * 1024)));
  datasyncs = fsyncs = 0;
  writeFileAtomicSync(join(dir, 'sync-plain'), chunks);
  assert.deepEqual(await readFile(join(dir, 'sync-plain')), Buffer.concat(chunks));
  assert.deepEqual([datasyncs, fsyncs], [0, 0], 'not durable: no sync');
  assert.deepEqual((await readdir(dir)).sort(), ['sync-chunks', 'sync-one', 'sync-plain'], 'no temporary file left');
});

test('a folder removed after it was made (knownDirs) is made again, by both writes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-gone-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const known = new Set<string>();
  const folder = join(dir, 'posts', 'a');
  writeFileAtomicSync(join(folder, 'index.html'), 'one', known);
  await rm(join(dir, 'posts'), { recursive: true });
  writeFileAtomicSync(join(folder, 'index.html'), 'two', known);
  assert.equal(await readFile(join(folder, 'index.html'), 'utf8'), 'two');
  await rm(join(dir, 'posts'), { recursive: true });
  await writeFileAtomic(join(folder, 'index.html'), 'three', { knownDirs: known, durable: false });
  assert.equal(await readFile(join(folder, 'index.html'), 'utf8'), 'three');
});
