/**
 * A write that the system cuts short (a disk filling up, a file-size limit) must fail,
 * never be renamed over the good file as if whole. The kernel's own short write, under
 * `ulimit -f` in a child: the first `writev` past the limit writes part of its bytes
 * without an error, the next one fails (EFBIG; on a full disk ENOSPC). Unchecked, a
 * full disk truncated the store's post files at 4 KiB boundaries and 201'd comments
 * were gone (found by an outside test on a 3 MB tmpfs and an 8 MB ext4).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/project.ts';

const run = promisify(execFile);

// Both ways the product replaces a file: the store's file thread (sync, durable, in
// steps) and the writer's big outputs (async). 1 MB each, in several chunks.
const CHILD = `
import { writeFileAtomic, writeFileAtomicSync } from '@agora/generator/files';
const big = Buffer.alloc(1 << 20, 0x61);
const chunks = [big.subarray(0, 300000), big.subarray(300000, 700000), big.subarray(700000)];
const out = {};
try { writeFileAtomicSync(process.argv[1], chunks, undefined, { durable: true, syncEvery: 256 * 1024 }); out.sync = 'written'; } catch (e) { out.sync = e.code; }
try { await writeFileAtomic(process.argv[1], chunks, { durable: true }); out.async = 'written'; } catch (e) { out.async = e.code; }
process.stdout.write(JSON.stringify(out));
`;

test('a write cut short by the system fails and leaves the file as it was', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-short-'));
  try {
    const path = join(dir, 'post.json');
    const before = '{"slug":"p","comments":[]}\n';
    await writeFile(path, before);
    // 128 blocks (64 or 128 KB, as the shell counts them): far below the 1 MB written.
    const { stdout } = await run('sh', ['-c', `ulimit -f 128; exec "${process.execPath}" --import tsx --conditions=agora-source --input-type=module -e "$0" "$1"`, CHILD, path], { cwd: REPO_ROOT });
    assert.deepEqual(JSON.parse(stdout), { sync: 'EFBIG', async: 'EFBIG' });
    assert.equal(await readFile(path, 'utf8'), before, 'the good file is untouched');
    assert.deepEqual(await readdir(dir), ['post.json'], 'no temporary file left');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the writer\'s store removes what killed writes left in data/ when it opens', async () => {
  const { openEmbeddedStore } = await import('../../packages/writer/src/store/embedded/index.ts');
  const dir = await mkdtemp(join(tmpdir(), 'agora-temps-'));
  try {
    await mkdir(join(dir, 'comments'), { recursive: true });
    const good = '{"slug":"p","comments":[]}\n';
    await writeFile(join(dir, 'comments', 'p.json'), good);
    // A dead process's temporary files (a pid no process has), and a living one's (ours).
    const dead = 2 ** 22 + 12345;
    await writeFile(join(dir, 'comments', `.p.json.${dead}.1.tmp`), '{"slug":"p","comm');
    await writeFile(join(dir, `.views.json.${dead}.2.tmp`), '{');
    await writeFile(join(dir, 'comments', `.p.json.${process.pid}.3.tmp`), '{');
    const store = await openEmbeddedStore(dir, 'server');
    await store.close();
    assert.deepEqual((await readdir(join(dir, 'comments'))).sort(), [`.p.json.${process.pid}.3.tmp`, 'p.json']);
    assert.ok(!(await readdir(dir)).some((n) => n.includes(String(dead))));
    assert.equal(await readFile(join(dir, 'comments', 'p.json'), 'utf8'), good);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// The store under a file-size limit: the comment that does not fit is refused as
// `disk_full` (the writer's 507 storage_full, "nothing was stored"), not a 500, and the
// comments stored before it stay readable.
const STORE_CHILD = `
import { openEmbeddedStore } from '${pathToFileURL(join(REPO_ROOT, 'packages/writer/src/store/embedded/index.ts')).href}';
const store = await openEmbeddedStore(process.argv[2], 'server');
const comment = (i, size) => ({ id: 'c' + i, slug: 'p', author: 'a', model: 'm', date: '2026-11-27', type: 'supplement', position: null, body: 'x'.repeat(size), created_at: new Date().toISOString() });
const out = {};
await store.comments.add(comment(1, 1000));
try { await store.comments.add(comment(2, 1 << 20)); out.big = 'stored'; } catch (e) { out.big = e.code; }
out.kept = (await store.comments.forSlug('p')).map((c) => c.id);
await store.close();
process.stdout.write(JSON.stringify(out));
`;

test('a comment past the file-size limit is refused as disk_full and the stored ones stay', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-efbig-'));
  try {
    // A file, not \`-e\`: the store's file thread inherits the flags, and \`--input-type\` stops a worker.
    const script = join(REPO_ROOT, 'test', `.efbig-${process.pid}.mts`);
    await writeFile(script, STORE_CHILD);
    const { stdout } = await run('sh', ['-c', `ulimit -f 128; exec "${process.execPath}" --import tsx --conditions=agora-source "$0" "$1"`, script, dir], { cwd: REPO_ROOT }).finally(() => rm(script, { force: true }));
    assert.deepEqual(JSON.parse(stdout), { big: 'disk_full', kept: ['c1'] });
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'comments', 'p.json'), 'utf8')).comments.map((c: { id: string }) => c.id), ['c1']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// The render cache streams new shards as renderings arrive; a write the system cuts
// short must drop the shard (a miss: the body renders again), never leave a cut one.
const CACHE_CHILD = `
import { RenderCache, STREAM_CHUNK } from '${pathToFileURL(join(REPO_ROOT, 'packages/generator/src/render/cache.ts')).href}';
const cache = await RenderCache.open(process.argv[2]);
for (let i = 0; i < 40; i++) cache.set('ab' + String(i).padStart(2, '0'), { html: '<p>' + 'x'.repeat(STREAM_CHUNK / 4) + '</p>', notes: [] });
let saved = 'saved';
try { await cache.save(); } catch (e) { saved = e.code; }
process.stdout.write(JSON.stringify({ saved }));
`;

test('a render-cache shard cut short by the system is dropped, not kept cut', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-shard-'));
  try {
    const script = join(REPO_ROOT, 'test', `.shard-${process.pid}.mts`);
    await writeFile(script, CACHE_CHILD);
    await run('sh', ['-c', `ulimit -f 128; exec "${process.execPath}" --import tsx --conditions=agora-source "$0" "$1"`, script, dir], { cwd: REPO_ROOT }).finally(() => rm(script, { force: true }));
    const shards: string[] = await readdir(join(dir, 'render')).catch(() => []);
    for (const name of shards.filter((n) => n.endsWith('.json'))) JSON.parse(await readFile(join(dir, 'render', name), 'utf8'));
    assert.deepEqual(shards.filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');
    assert.ok(!shards.includes('ab.json'), 'the cut shard is not in place');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
