/**
 * `writeFileAtomic` with `syncEvery` (the store's post files, the writer's big lists):
 * the bytes are the same as one write, and they go to disk in steps (`fdatasync` once
 * per step, then before the rename), so another file's fsync waits for one step at
 * most. A big string is one chunk: it is cut into steps too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '@agora/generator';

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
