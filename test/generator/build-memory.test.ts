/**
 * What a build keeps in memory (issue: a cold 10,000-post build within 500 MB). A
 * one-off build lets go of each rendering once the last page or feed showing it is
 * written, of the post records once the JSON mirrors are, and stops the render
 * workers once everything is rendered; the render cache writes a new shard as its
 * renderings arrive instead of holding them to the end. A long-lived state keeps
 * renderings and records for its rebuilds. Counts are asserted, not RSS.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { build, type Comment } from '@agora/generator';
import { readValidContent } from '../../packages/generator/src/content.ts';
import { buildSiteModel } from '../../packages/generator/src/model/site.ts';
import { FEED_SIZE } from '../../packages/generator/src/model/feeds.ts';
import { RenderCache, STREAM_CHUNK } from '../../packages/generator/src/render/cache.ts';
import type { RenderPool } from '../../packages/generator/src/render/pool.ts';
import { Manifest } from '../../packages/generator/src/emit/manifest.ts';
import { BuildState } from '../../packages/generator/src/build/state.ts';
import { runFull } from '../../packages/generator/src/build/run.ts';
import { makeProject, postSource, REPO_ROOT, type TestProject } from '../helpers/project.ts';

/** More posts than a feed shows, so the oldest are on no feed: their renderings can go with their pages. */
const POSTS = FEED_SIZE + 30;

async function project(): Promise<TestProject> {
  const files: Record<string, string> = {};
  for (let i = 0; i < POSTS; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const month = String(1 + Math.floor(i / 28)).padStart(2, '0');
    files[`content/posts/post-${i}.md`] = postSource({ title: `Post ${i}`, date: `2025-${month}-${day}`, tags: 'a' }, `The conclusion of post ${i} comes first.\n\n## Detail ${i}\n\n\`\`\`bash\necho ${i}\n\`\`\`\n`);
  }
  return makeProject({ files });
}

test('a one-off build holds each rendering only while a job needs it', async (t) => {
  const p = await project();
  t.after(() => p.remove());
  const { config } = p;
  const { content, posts, messages } = await readValidContent(config);
  const site = buildSiteModel({ config: config.site, posts, comments: [], views: new Map(), catalog: content.catalog });
  const [cache, manifest] = await Promise.all([RenderCache.open(config.cacheDir), Manifest.open(config.cacheDir, config.distDir)]);
  const state = new BuildState(site, content, cache, manifest);
  // Watch the state at every job the build emits.
  const emitted: string[] = [];
  let atSiteFeed = -1;
  let poolClosedAt = -1;
  const emit = state.emit.bind(state);
  state.emit = (job) => {
    const held = state.held;
    if (job.kind === 'site-feed') atSiteFeed = held.renderings;
    emitted.push(job.kind);
    return emit(job);
  };
  // The pool a cold build starts early: it must be closed once rendering is done, before the feeds.
  const pool = { close: async () => void (poolClosedAt = emitted.length) } as unknown as RenderPool;
  const result = await runFull(state, async () => () => {}, messages, { pool });

  await t.test('should render and write the whole site', async () => {
    assert.equal(result.rendered, POSTS);
    const page = await readFile(join(config.distDir, 'guide', 'post-0', 'index.html'), 'utf8');
    assert.match(page, /The conclusion of post 0 comes first\./);
    const feed = await readFile(join(config.distDir, 'feed.atom'), 'utf8');
    assert.equal(feed.match(/<entry>/g)?.length, FEED_SIZE);
  });

  await t.test('should drop each rendering after its page, keeping only the feeds\' for them, and none afterwards', () => {
    // The feeds (site, guide, tag a) all show the newest FEED_SIZE posts; the others' pages are written by then.
    assert.equal(atSiteFeed, FEED_SIZE, 'renderings held when the site feed is emitted');
    assert.deepEqual(state.held, { renderings: 0, records: 0, unsavedRenderings: 0, textPosts: 0, keptListBytes: 0 });
  });

  await t.test('should leave every render-cache shard complete, and no temporary file', async () => {
    const files = await readdir(join(config.cacheDir, 'render'));
    assert.deepEqual(files.filter((f) => !/^[0-9a-f]{2}\.json$/.test(f)), []);
    const again = await RenderCache.open(config.cacheDir);
    assert.equal((await again.getMany(posts.map((post) => post.bodyHash))).size, POSTS);
  });

  await t.test('should close the early render pool before emitting the feeds', () => {
    assert.ok(poolClosedAt >= 0, 'the pool was closed');
    assert.ok(poolClosedAt <= emitted.indexOf('site-feed'), `closed after ${poolClosedAt} jobs, the site feed is job ${emitted.indexOf('site-feed')}`);
  });
});

test('build(): one-off by default, long-lived on request', async (t) => {
  const p = await project();
  t.after(() => p.remove());

  await t.test('should keep no renderings or records after a one-off build, and rebuild from the render cache', async () => {
    const { state, result } = await build(p.config);
    assert.equal(result.posts, POSTS);
    assert.deepEqual(state.held, { renderings: 0, records: 0, unsavedRenderings: 0, textPosts: 0, keptListBytes: 0 });
    const comment: Comment = { id: 'c1', slug: 'post-3', author: 'agent', model: 'gpt-5', date: '2025-06-01', type: 'supplement', position: null, body: 'A comment on an old post.', created_at: '2025-06-01T00:00:00Z' };
    await state.updateComments(new Map([['post-3', [comment]]]));
    const page = await readFile(join(p.config.distDir, 'guide', 'post-3', 'index.html'), 'utf8');
    assert.match(page, /The conclusion of post 3 comes first\./, 'the body, read back from the render cache');
    assert.match(page, /A comment on an old post\./);
    await state.close();
  });

  await t.test('should keep every rendering and record in a long-lived state', async () => {
    const { state } = await build(p.config, { force: true, longLived: true });
    assert.deepEqual(state.held, { renderings: POSTS, records: POSTS, unsavedRenderings: 0, textPosts: 0, keptListBytes: 0 });
    await state.close();
  });
});

test('render cache: a new shard is written as its renderings arrive; a shard on disk gets them merged at save', async (t) => {
  const p = await makeProject();
  t.after(() => p.remove());
  const dir = join(p.config.cacheDir, 'render');
  const cache = await RenderCache.open(p.config.cacheDir);
  const big = (n: number) => ({ html: `<p>${String(n).repeat(STREAM_CHUNK / 2)}</p>`, notes: [] });
  cache.set('ab01', big(1));
  assert.equal(cache.pendingEntries, 1, 'gathered until a chunk is full');
  cache.set('ab02', big(2));
  assert.equal(cache.pendingEntries, 0, 'written out: the cache holds no HTML of a new shard');
  assert.ok(!existsSync(join(dir, 'ab.json')), 'complete only at save');
  assert.equal((await readdir(dir)).filter((f) => f.endsWith('.tmp')).length, 1);
  // Read before save: the shard is completed first.
  assert.deepEqual(await cache.getMany(['ab01', 'ab02']), new Map([['ab01', big(1)], ['ab02', big(2)]]));
  // Now on disk: a new entry waits in memory and is merged at save.
  cache.set('ab03', big(3));
  assert.equal(cache.pendingEntries, 1);
  await cache.save();
  assert.equal(cache.pendingEntries, 0);
  assert.deepEqual(await readdir(dir), ['ab.json']);
  const again = await RenderCache.open(p.config.cacheDir);
  assert.deepEqual(await again.getMany(['ab01', 'ab02', 'ab03']), new Map([['ab01', big(1)], ['ab02', big(2)], ['ab03', big(3)]]));
});

test('render cache: one entry is read out of its shard as the whole shard would give it, whatever its HTML holds', async (t) => {
  const p = await makeProject();
  t.after(() => p.remove());
  const key = (n: number) => `cd${String(n).padStart(38, '0')}`;
  // Quotes, backslashes (one ending the value), a key's own pattern, non-Latin text, an emoji.
  const htmls = [
    '<p>plain</p>',
    '<p>say "hi" \\ and \\</p>\\',
    `<code>${JSON.stringify(key(0))}:"not the key"</code>`,
    '<p>한국어 본문, 日本語, emoji 🙂 and \u2028 line separator\u2028</p>',
    '',
  ];
  const cache = await RenderCache.open(p.config.cacheDir);
  htmls.forEach((html, i) => cache.set(key(i), { html, notes: [] }));
  await cache.save();
  const want = new Map(htmls.map((html, i) => [key(i), { html, notes: [] }]));
  const streamed = await RenderCache.open(p.config.cacheDir);
  for (const [k, v] of want) assert.deepEqual(await streamed.getMany([k]), new Map([[k, v]]), `entry ${k} of the streamed shard`);
  assert.deepEqual(await streamed.getMany(want.keys()), want);
  // Merged at save (written whole by JSON.stringify): the same.
  streamed.set(key(9), { html: '<p>merged</p>', notes: [] });
  await streamed.save();
  want.set(key(9), { html: '<p>merged</p>', notes: [] });
  const merged = await RenderCache.open(p.config.cacheDir);
  for (const [k, v] of want) assert.deepEqual(await merged.getMany([k]), new Map([[k, v]]), `entry ${k} of the merged shard`);
  // A shard cut short (a disk that filled): what cannot be read is a miss, never half an entry.
  const file = join(p.config.cacheDir, 'render', 'cd.json');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.slice(0, text.indexOf('merged')));
  const cut = await RenderCache.open(p.config.cacheDir);
  assert.deepEqual(await cut.getMany([key(9)]), new Map());
  // Only the entry asked for is parsed: a whole entry before a cut one is still read.
  await writeFile(file, `${text.slice(0, text.indexOf('"entries":{') + 11)}${JSON.stringify(key(0))}:"<p>whole</p>",${JSON.stringify(key(1))}:"<p>cu`);
  assert.deepEqual(await cut.getMany([key(0)]), new Map([[key(0), { html: '<p>whole</p>', notes: [] }]]));
  assert.deepEqual(await cut.getMany([key(1)]), new Map());
});

test('a build killed while streaming render-cache shards: the shards on disk stay whole, the next build sweeps the temporary files', { timeout: 180_000 }, async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 600; i++) files[`content/posts/k-${i}.md`] = postSource({ title: `Killed ${i}`, date: '2025-03-01' }, `Body ${i}.\n\n${'A paragraph of text. '.repeat(40)}\n`);
  const p = await makeProject({ files });
  t.after(() => p.remove());
  const dir = join(p.config.cacheDir, 'render');
  const script = `
    import { build, loadConfig } from ${JSON.stringify(join(REPO_ROOT, 'packages/generator/src/index.ts'))};
    const config = loadConfig({ root: ${JSON.stringify(p.root)}, env: {}, overrides: { searchIndex: false, site: { baseUrl: 'https://agora.example' } } });
    await build(config);
    console.log('finished');
  `;
  // A file, not -e: render workers inherit execArgv, and --input-type is refused for a file.
  await p.write('build.mjs', script);
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=agora-source', join(p.root, 'build.mjs')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const temps = async () => (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.tmp'));
  const deadline = Date.now() + 120_000;
  while ((await temps()).length < 3 && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.equal(child.exitCode, null, 'the build was still running');
  child.kill('SIGKILL');
  await exited;
  assert.equal(out, '', 'killed before the build finished');
  const left = await temps();
  assert.ok(left.length >= 3, `temporary shard files left by the killed build: ${left.join(', ')}`);
  for (const f of (await readdir(dir)).filter((f) => f.endsWith('.json'))) JSON.parse(await readFile(join(dir, f), 'utf8'));
  // The killed build held its writing marker; a page write it cut short would have left this.
  assert.ok(existsSync(join(p.config.cacheDir, `manifest.json.writing-${child.pid}`)), 'the killed build\'s writing marker');
  const cut = join(p.config.distDir, 'guide', `.index.html.${child.pid}.7.tmp`);
  await p.write(relative(p.root, cut), '<!doctype html><p>half');

  const { result, state } = await build(p.config);
  await state.close();
  assert.equal(result.posts, 600);
  assert.deepEqual(await temps(), [], 'swept');
  assert.ok(!existsSync(cut), 'the cut-short page write swept from dist/');
  assert.deepEqual((await readdir(p.config.cacheDir)).filter((f) => f.includes('.writing-')), [], 'no writing marker left');
  const cache = await RenderCache.open(p.config.cacheDir);
  const { posts } = await readValidContent(p.config);
  assert.equal((await cache.getMany(posts.map((post) => post.bodyHash))).size, 600, 'every rendering cached');
  assert.match(await readFile(join(p.config.distDir, 'guide', 'k-599', 'index.html'), 'utf8'), /Body 599\./);
});

test('the manifest is saved in runs of entries and reads back the same, empty or with many entries', async (t) => {
  const p = await makeProject();
  t.after(() => p.remove());
  await mkdir(p.config.distDir, { recursive: true });
  const empty = await Manifest.open(p.config.cacheDir, p.config.distDir);
  await empty.save();
  const reopenedEmpty = await Manifest.open(p.config.cacheDir, p.config.distDir);
  assert.equal(reopenedEmpty.outputs.size + reopenedEmpty.jobs.size, 0);
  assert.equal(reopenedEmpty.lost, null, 'read back, not lost');
  // More entries than one run (4,096), with names JSON must escape.
  const manifest = await Manifest.open(p.config.cacheDir, p.config.distDir);
  for (let i = 0; i < 10_000; i++) manifest.outputs.set(`api/post/글-${i}-"q"\\b`, `hash-${i}`);
  for (let i = 0; i < 5_000; i++) manifest.jobs.set(`post-page:p${i}`, { key: `k|${i}|\u2028`, paths: [`a/${i}/index.html`, `a/${i}/post.md`] });
  await manifest.save();
  const again = await Manifest.open(p.config.cacheDir, p.config.distDir);
  assert.deepEqual([...again.outputs], [...manifest.outputs]);
  assert.deepEqual([...again.jobs], [...manifest.jobs]);
});

test('a save during which a rebuild marks the manifest dirty keeps the crash marker', async (t) => {
  const p = await makeProject();
  t.after(() => p.remove());
  await mkdir(p.config.distDir, { recursive: true });
  const marker = join(p.config.cacheDir, 'manifest.json.dirty');
  const manifest = await Manifest.open(p.config.cacheDir, p.config.distDir);
  for (let i = 0; i < 20_000; i++) manifest.outputs.set(`api/post/p${i}`, `hash-${i}`);
  await manifest.markDirty();
  // The save makes its file in runs between yields; a rebuild runs in between.
  const saving = manifest.save();
  await new Promise((resolve) => setImmediate(resolve));
  await manifest.markDirty();
  manifest.outputs.set('api/post/late', 'hash-late');
  await saving;
  assert.ok(existsSync(marker), 'the marker stays: the saved file may lack the late entry');
  assert.equal((await Manifest.open(p.config.cacheDir, p.config.distDir)).lost, 'crash marker');
  // The next save, with nothing running beside it, clears it.
  await manifest.save();
  assert.ok(!existsSync(marker));
  const again = await Manifest.open(p.config.cacheDir, p.config.distDir);
  assert.equal(again.lost, null);
  assert.equal(again.outputs.get('api/post/late'), 'hash-late');
});
