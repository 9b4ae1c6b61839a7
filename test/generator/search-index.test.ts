/**
 * The Pagefind index: read from `dist/` after a content build that changed pages,
 * post pages only (the only ones with `data-pagefind-body`), which gives the very index
 * a walk of every page gives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build } from '@agora/generator';
import { SEARCH_PAGES_GLOB, shardCount, shardOf } from '../../packages/generator/src/emit/search-index.ts';
import { makeProject, postSource } from '../helpers/project.ts';

/** Every file of a Pagefind output folder, by relative path. */
async function indexFiles(dir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return new Map(await Promise.all(names.map(async (n) => [relative(dir, n), await readFile(n)] as [string, Buffer])));
}

/** What Pagefind's own directory walk of every `index.html` writes (its default glob is all HTML). */
async function indexOfEveryPage(distDir: string, outputPath: string): Promise<void> {
  const pagefind = await import('pagefind');
  try {
    const { index } = await pagefind.createIndex({});
    const added = await index!.addDirectory({ path: distDir, glob: '**/index.html' });
    assert.deepEqual(added.errors, []);
    await index!.writeFiles({ outputPath });
  } finally {
    await pagefind.close();
  }
}

/** The text of every page Pagefind indexed (its fragments are gzipped JSON). */
async function indexedText(distDir: string): Promise<string> {
  const dir = join(distDir, 'pagefind', 'fragment');
  const names = await readdir(dir);
  return (await Promise.all(names.map(async (n) => gunzipSync(await readFile(join(dir, n))).toString('utf8')))).join('\n');
}

test('search index', async (t) => {
  const project = await makeProject({ samplePosts: true, searchIndex: true, files: { 'content/posts/2025-06-01-lantern-fish.md': postSource({ title: 'Lantern fish' }, 'Bioluminescent zanderwort appears here.\n') } });
  t.after(() => project.remove());
  const { distDir } = project.config;

  await t.test('should index every post page, and give the index a walk of every page gives', async (t) => {
    const { result } = await build(project.config);
    const posts = result.posts;
    assert.ok(posts >= 10);
    assert.equal(result.search?.pages, posts, 'post pages only');
    const pages = (await readdir(distDir, { recursive: true })).filter((p) => p === 'index.html' || p.endsWith('/index.html'));
    assert.ok(pages.length > posts + 10, `other pages exist (${pages.length}) and are not read`);
    assert.match(SEARCH_PAGES_GLOB, /^\{reviews,.*,debates\}\/\*\/index\.html$/);
    assert.match(await indexedText(distDir), /zanderwort/);
    const every = join(project.root, 'pagefind-every-page');
    t.after(() => rm(every, { recursive: true, force: true }));
    await indexOfEveryPage(distDir, every);
    const ours = await indexFiles(join(distDir, 'pagefind'));
    assert.ok(ours.size > posts, `${ours.size} index files`);
    assert.deepEqual([...ours.keys()].sort(), [...(await indexFiles(every)).keys()].sort());
    assert.deepEqual(ours, await indexFiles(every), 'byte-identical');
  });

  await t.test('should index an edited page anew, forgetting its old words', async () => {
    await project.write('content/posts/2025-06-01-lantern-fish.md', postSource({ title: 'Lantern fish' }, 'Bioluminescent quillowisp appears here.\n'));
    const { result } = await build(project.config);
    assert.equal(result.search?.pages, result.posts);
    const text = await indexedText(distDir);
    assert.match(text, /quillowisp/);
    assert.doesNotMatch(text, /zanderwort/);
  });

  await t.test('should not touch the index when no page changed', async () => {
    const before = (await stat(join(distDir, 'pagefind', 'pagefind-entry.json'))).mtimeMs;
    const { result } = await build(project.config);
    assert.equal(result.search, undefined);
    assert.equal((await stat(join(distDir, 'pagefind', 'pagefind-entry.json'))).mtimeMs, before);
  });
});

/** The shard folders of `dist/` and each one's entry mtime. */
async function shardEntries(distDir: string): Promise<Map<string, number>> {
  const names = (await readdir(distDir)).filter((n) => /^pagefind(-\d+)?$/.test(n));
  return new Map(await Promise.all(names.map(async (n) => [n, (await stat(join(distDir, n, 'pagefind-entry.json'))).mtimeMs] as [string, number])));
}

test('search index in shards, off the edit path', async (t) => {
  const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`content/posts/2025-06-${String(i + 1).padStart(2, '0')}-p${i}.md`, postSource({ title: `Post ${i}`, date: `2025-06-${String(i + 1).padStart(2, '0')}` }, `Word${i}marker opens post ${i}.\n`)]));
  const project = await makeProject({ files, searchIndex: true, searchShardPages: 4 });
  t.after(() => project.remove());
  const { distDir } = project.config;
  const { state, result } = await build(project.config, { longLived: true });
  t.after(() => state.close());

  await t.test('should split the index into shards listed for the search page', async () => {
    const list = JSON.parse(await readFile(join(distDir, 'search-shards.json'), 'utf8')) as { count: number; bundles: string[] };
    assert.equal(list.count, 4);
    assert.ok(list.bundles.length >= 2, `pages spread over shards (${list.bundles.join(', ')})`);
    // A shard the hash left empty has no bundle (Pagefind cannot merge an empty index).
    assert.deepEqual(list.bundles.map((b) => b.slice(1, -1)).sort(), [...(await shardEntries(distDir)).keys()].sort());
    assert.deepEqual({ shards: result.search?.shards, of: result.search?.of, pages: result.search?.pages }, { shards: list.bundles.length, of: 4, pages: 12 });
    assert.equal(state.searchIndex.state, 'current');
  });

  await t.test('should return from an edit before the index, then re-index only its shard in the background', async () => {
    const before = await shardEntries(distDir);
    await project.write('content/posts/2025-06-06-p5.md', postSource({ title: 'Post 5', date: '2025-06-06' }, 'Glimmerquartz opens post 5 now.\n'));
    const edit = await state.updateSources([join(project.root, 'content/posts/2025-06-06-p5.md')]);
    assert.equal(edit.search, undefined, 'the edit did not index');
    assert.ok(['stale', 'indexing'].includes(state.searchIndex.state), `stale right after the edit (${state.searchIndex.state})`);
    assert.ok(state.searchIndex.pendingPages >= 1);
    assert.ok(state.searchIndex.staleSince !== null);
    await state.searchIndexIdle();
    const status = state.searchIndex;
    assert.equal(status.state, 'current');
    assert.equal(status.pendingPages, 0);
    assert.equal(status.last?.of, 4);
    assert.ok(status.last!.shards < before.size, `a bounded part re-indexed (${status.last!.shards} of ${before.size} shards)`);
    const after = await shardEntries(distDir);
    const rewritten = [...after].filter(([name, mtime]) => before.get(name) !== mtime).map(([name]) => name);
    assert.equal(rewritten.length, status.last!.shards);
    const text = (await Promise.all(rewritten.map((name) => readdir(join(distDir, name, 'fragment')).then((ns) => Promise.all(ns.map(async (n) => gunzipSync(await readFile(join(distDir, name, 'fragment', n))).toString('utf8'))))))).flat().join('\n');
    assert.match(text, /Glimmerquartz/);
  });

  await t.test('should say how far behind the index is while a run indexes the edit, not only before it starts', async () => {
    await project.write('content/posts/2025-06-08-p7.md', postSource({ title: 'Post 7', date: '2025-06-08' }, 'Brightfern opens post 7 now.\n'));
    const editedAt = Date.now();
    await state.updateSources([join(project.root, 'content/posts/2025-06-08-p7.md')]);
    // Every status read while the run indexes, not only its first. Read at every turn of
    // the event loop, not every few ms: on a fast machine a run can take under 5 ms.
    const during: (typeof state.searchIndex)[] = [];
    for (let status = state.searchIndex; status.state !== 'current'; status = state.searchIndex) {
      if (status.state === 'indexing') during.push(status);
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(during.length > 1, `the run was seen under way (${during.length} reads)`);
    for (const seen of during) {
      assert.ok(seen.pendingPages >= 1, `the edited page is still pending while it is indexed (${seen.pendingPages})`);
      assert.ok(seen.staleSince !== null && Date.parse(seen.staleSince) >= editedAt - 1000, `stale since the edit (${seen.staleSince})`);
      // 0 when read in the edit's own millisecond, as a fast machine can.
      assert.ok(seen.staleMs >= 0, `stale since the edit (${seen.staleMs} ms)`);
    }
    assert.ok(during.at(-1)!.staleMs > 0, `stale for a while by the run's end (${during.at(-1)!.staleMs} ms)`);
    await state.searchIndexIdle();
    assert.deepEqual({ state: state.searchIndex.state, pending: state.searchIndex.pendingPages, since: state.searchIndex.staleSince, ms: state.searchIndex.staleMs }, { state: 'current', pending: 0, since: null, ms: 0 });
  });

  await t.test('should coalesce a burst of edits into one background run', async () => {
    let runs = 0;
    state.onSearchIndexed(() => void runs++);
    for (const i of [1, 2, 3]) {
      await project.write(`content/posts/2025-06-0${i + 1}-p${i}.md`, postSource({ title: `Post ${i}`, date: `2025-06-0${i + 1}` }, `Burst${i}word opens post ${i}.\n`));
      await state.updateSources([join(project.root, `content/posts/2025-06-0${i + 1}-p${i}.md`)]);
    }
    await state.searchIndexIdle();
    assert.ok(runs < 3, `three edits, ${runs} runs`);
    assert.equal(state.searchIndex.state, 'current');
  });
});

test('shardCount', async (t) => {
  await t.test('should pick the least power of two that keeps shards at the limit', () => {
    assert.deepEqual([1, 1000, 1001, 4000, 4001, 10_000].map((n) => shardCount(n, 1000)), [1, 1, 2, 4, 8, 16]);
  });
  await t.test('should keep the current count near a boundary, so one post added or deleted does not re-index everything', () => {
    assert.equal(shardCount(4001, 1000, 4), 4);
    assert.equal(shardCount(3999, 1000, 4), 4);
    assert.equal(shardCount(5001, 1000, 4), 8, 'grows past a quarter over');
    assert.equal(shardCount(999, 1000, 4), 1, 'shrinks below a quarter');
  });
  await t.test('should give a page the same shard every time', () => {
    assert.equal(shardOf('guide/a/index.html', 16), shardOf('guide/a/index.html', 16));
    const spread = new Set(Array.from({ length: 200 }, (_, i) => shardOf(`guide/p${i}/index.html`, 8)));
    assert.equal(spread.size, 8);
  });
});
