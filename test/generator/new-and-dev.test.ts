import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newPost, check, watch, build } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';
import { emitSitemap } from '../../packages/generator/src/emit/sitemap.ts';

test('agora new', async (t) => {
  const project = await makeProject();
  t.after(() => project.remove());

  await t.test('should scaffold a post that passes check, keys in the fixed order', async () => {
    const path = await newPost({ contentDir: project.config.contentDir, title: 'Redis: eviction under maxmemory', category: 'knowhow', model: 'gpt-5', date: '2025-11-20' });
    assert.match(path, /content\/posts\/2025-11-20-redis-eviction-under-maxmemory\.md$/);
    const text = await readFile(path, 'utf8');
    const keys = text.split('---')[1]!.trim().split('\n').map((l) => l.split(':')[0]);
    assert.deepEqual(keys, ['title', 'date', 'model', 'category', 'summary', 'tags']);
    const result = await check(project.config);
    assert.deepEqual(result.messages, []);
    await assert.rejects(newPost({ contentDir: project.config.contentDir, title: 'Redis: eviction under maxmemory', category: 'knowhow', model: 'gpt-5', date: '2025-11-20' }), /exists/);
  });

  await t.test('should default to today', async () => {
    const path = await newPost({ contentDir: project.config.contentDir, title: 'Today', category: 'guide', model: 'm' });
    assert.match(await readFile(path, 'utf8'), new RegExp(`^date: ${new Date().toISOString().slice(0, 10)}$`, 'm'));
  });

  await t.test('should refuse a blank title rather than scaffold a post check refuses', async () => {
    await assert.rejects(newPost({ contentDir: project.config.contentDir, title: '   ', category: 'guide', model: 'm' }), /Unexpected empty title/);
  });

  await t.test('should refuse, writing nothing, a post check would refuse: a long title, a line break, a reserved or colliding slug', async () => {
    const before = await readdir(join(project.config.contentDir, 'posts'));
    const base = { contentDir: project.config.contentDir, category: 'guide' as const, model: 'm', date: '2025-11-21' };
    await assert.rejects(newPost({ ...base, title: 'x'.repeat(250) }), /agora check would refuse it\. Unexpected `title` of 250 characters, expected at most 200 \(front-matter-title\)/);
    await assert.rejects(newPost({ ...base, title: 'two\nlines' }), /Unexpected line break in `title`/);
    await assert.rejects(newPost({ ...base, title: 'Fine', summary: 'a\nb' }), /Unexpected line break in `summary`/);
    await assert.rejects(newPost({ ...base, title: 'Count', slug: 'count' }), /slug-reserved/);
    await assert.rejects(newPost({ ...base, title: 'Shouting', slug: '2025-11-20-REDIS-EVICTION-UNDER-MAXMEMORY' }), /collides with `2025-11-20-redis-eviction-under-maxmemory`.*\(slug-collision\)/);
    assert.deepEqual(await readdir(join(project.config.contentDir, 'posts')), before);
  });

  await t.test('should date a post in the years 1 to 99 as written (not 1901 to 1999)', async () => {
    const path = await newPost({ contentDir: project.config.contentDir, title: 'Antiquity', category: 'stories', model: 'm', date: '0099-12-31' });
    assert.ok(path.endsWith('0099-12-31-antiquity.md'));
    const result = await check(project.config);
    assert.deepEqual(result.messages.filter((m) => m.severity === 'error'), []);
  });
});

test('agora dev', async (t) => {
  const project = await makeProject({ files: { 'content/posts/2025-05-01-one.md': postSource({ title: 'One' }), 'content/posts/2025-05-02-two.md': postSource({ title: 'Two', date: '2025-05-02' }) } });
  await build(project.config);
  const builds: { written: string[]; rendered: number }[] = [];
  const errors: unknown[] = [];
  const watcher = await watch(project.config, { onBuild: (r) => void builds.push({ written: r.written, rendered: r.rendered }), onError: (e) => errors.push(e), debounceMs: 20 });
  t.after(async () => {
    await watcher.close();
    await project.remove();
  });

  await t.test('should rebuild only what an edit changes', async () => {
    await writeFile(join(project.root, 'content/posts/2025-05-02-two.md'), postSource({ title: 'Two, edited', date: '2025-05-02' }));
    const deadline = Date.now() + 5000;
    while (builds.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await watcher.idle();
    assert.equal(builds.length >= 1, true, 'a rebuild ran');
    const last = builds.at(-1)!;
    assert.equal(last.rendered, 0, 'the body did not change, so nothing is re-rendered');
    assert.ok(last.written.includes('guide/2025-05-02-two/index.html'));
    assert.ok(!last.written.includes('guide/2025-05-01-one/index.html'));
    assert.ok(!last.written.includes('guide/2025-05-01-one/post.md'));
    assert.match(await readFile(join(project.config.distDir, 'api/post/2025-05-02-two'), 'utf8'), /Two, edited/);
  });

  await t.test('should report content errors and keep watching', async () => {
    await writeFile(join(project.root, 'content/posts/2025-05-02-two.md'), postSource({ date: 'yesterday' }));
    const deadline = Date.now() + 5000;
    while (errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    assert.equal(errors.length, 1);
  });
});

test('watch: a watcher without onBuild still rebuilds (onPages and the files in dist/)', async (t) => {
  const project = await makeProject({ files: { 'content/posts/2025-05-01-one.md': postSource({ title: 'One' }) } });
  const pages: string[][] = [];
  const watcher = await watch(project.config, { onPages: (p) => void pages.push(p.written) });
  t.after(async () => {
    await watcher.close();
    await watcher.state.close();
    await project.remove();
  });
  await writeFile(join(project.root, 'content/posts/2025-05-01-one.md'), postSource({ title: 'One, edited' }));
  const deadline = Date.now() + 5000;
  while (pages.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await watcher.idle();
  assert.ok(pages.length >= 1, 'onPages was told');
  assert.ok(pages[0]!.includes('guide/2025-05-01-one/index.html'), pages[0]!.join(', '));
  assert.match(await readFile(join(project.config.distDir, 'api/post/2025-05-01-one'), 'utf8'), /One, edited/);
});

test('watch: a save in place (truncate, then write) is built whole, once; a file left empty is reported', async (t) => {
  const project = await makeProject({ files: { 'content/posts/2025-05-01-one.md': postSource({ title: 'One' }) } });
  const builds: string[][] = [];
  const errors: unknown[] = [];
  const watcher = await watch(project.config, { onBuild: (r) => void builds.push(r.written), onError: (e) => errors.push(e) });
  t.after(async () => {
    await watcher.close();
    await watcher.state.close();
    await project.remove();
  });
  const file = join(project.root, 'content/posts/2025-05-01-one.md');
  const settled = async () => {
    await new Promise((r) => setTimeout(r, 400));
    await watcher.idle();
  };
  // The two steps of a save further apart than the quiet period (15 ms), as on a busy
  // machine. Before, the empty file was built: a front-matter error, then a second rebuild.
  // 200 ms: the wait is ~0.5 s, so a loaded machine's late timer still leaves room.
  await writeFile(file, '');
  await new Promise((r) => setTimeout(r, 200));
  await writeFile(file, postSource({ title: 'One, saved in place' }));
  await settled();
  assert.deepEqual(errors, [], 'the empty moment of the save was not built');
  assert.ok(builds.length >= 1, 'rebuilt');
  // A late second event of the same write (a busy machine) may rebuild again: the same bytes, nothing written.
  assert.deepEqual(builds.slice(1).flat(), [], `one rebuild that wrote anything: ${JSON.stringify(builds)}`);
  assert.match(await readFile(join(project.config.distDir, 'api/post/2025-05-01-one'), 'utf8'), /One, saved in place/);

  await writeFile(file, '');
  const deadline = Date.now() + 5000;
  while (errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(errors.length, 1, 'a file left empty is reported after the wait');
});

test('watch: a post moved to another folder or renamed is one rebuild: never both files at once', async (t) => {
  const project = await makeProject({
    files: {
      'content/posts/a/2025-05-01-one.md': postSource({ title: 'One' }),
      'content/posts/b/2025-05-02-two.md': postSource({ title: 'Two', date: '2025-05-02' }),
    },
  });
  const builds: number[] = [];
  const errors: string[] = [];
  const watcher = await watch(project.config, {
    onBuild: (r) => void builds.push(r.posts),
    onError: (_e, messages) => errors.push(messages.map((m) => `${m.file} ${m.ruleId}`).join('; ')),
  });
  t.after(async () => {
    await watcher.close();
    await watcher.state.close();
    await project.remove();
  });
  const settled = async () => {
    await new Promise((r) => setTimeout(r, 400));
    await watcher.idle();
  };
  const posts = join(project.root, 'content/posts');
  // Before, chokidar held back each unlink 100 ms (its "atomic" option) while the new
  // name's add came at once: the rebuild after the 15 ms quiet period saw both files, so a
  // move between folders showed a duplicate-slug error in every open page, and a rename
  // published the post twice (lists, feeds, llms.txt) until a second rebuild.
  await rename(join(posts, 'a/2025-05-01-one.md'), join(posts, 'b/2025-05-01-one.md'));
  await settled();
  assert.deepEqual(errors, [], 'no error for a moved post');
  await rename(join(posts, 'b/2025-05-01-one.md'), join(posts, 'b/2025-05-01-uno.md'));
  await settled();
  assert.deepEqual(errors, []);
  assert.ok(builds.length >= 1, 'rebuilt');
  assert.deepEqual(builds.filter((n) => n !== 2), [], `every rebuild saw two posts: ${JSON.stringify(builds)}`);
  assert.ok(existsSync(join(project.config.distDir, 'api/post/2025-05-01-uno')));
  assert.ok(!existsSync(join(project.config.distDir, 'api/post/2025-05-01-one')));
});

test('agora dev: an edit in two speeds', async (t) => {
  const project = await makeProject({ files: { 'content/posts/2025-05-01-one.md': postSource({ title: 'One' }), 'content/posts/2025-05-02-two.md': postSource({ title: 'Two', date: '2025-05-02' }) } });
  t.after(() => project.remove());
  const { state } = await build(project.config, { longLived: true });
  t.after(() => state.close());
  const path = (name: string) => join(project.root, 'content/posts', name);

  await t.test("should write the edited post's own files first, then the lists", async () => {
    await writeFile(path('2025-05-02-two.md'), postSource({ title: 'Two, retitled', date: '2025-05-02', category: 'knowhow' }));
    let first: string[] = [];
    let homeAtFirst = '';
    const result = await state.updateSources([path('2025-05-02-two.md')], (pages) => {
      first = pages.written;
      homeAtFirst = readFileSync(join(project.config.distDir, 'index.html'), 'utf8');
    });
    assert.ok(first.includes('knowhow/2025-05-02-two/index.html'), `first half: ${first.join(', ')}`);
    assert.ok(first.every((p) => p.includes('2025-05-02-two')), 'only the post\'s own files');
    assert.doesNotMatch(homeAtFirst, /Two, retitled/, 'the home list follows later');
    assert.ok(!existsSync(join(project.config.distDir, 'guide/2025-05-02-two/index.html')), 'the page under the old category is gone');
    assert.match(await readFile(join(project.config.distDir, 'index.html'), 'utf8'), /Two, retitled/);
    assert.ok(result.pages && result.pages.ms <= result.ms);
    assert.ok(result.written.includes('knowhow/2025-05-02-two/index.html'), 'the result counts both halves');
  });

  await t.test('should check an edited post against the rest of the site again (names remembered between reads)', async () => {
    await writeFile(path('2025-05-02-two.md'), postSource({ title: 'Two', date: '2025-05-02', model: 'GPT-5' }));
    await assert.rejects(state.updateSources([path('2025-05-02-two.md')]), (error: Error & { messages?: { ruleId: string }[] }) => error.messages?.some((m) => m.ruleId === 'model-collision') === true);
    await writeFile(path('2025-05-02-two.md'), postSource({ title: 'Two', date: '2025-05-02' }));
    await state.updateSources([path('2025-05-02-two.md')]);
  });

  await t.test("should write a new post's page, and remove a deleted post's files, in the first half", async () => {
    await writeFile(path('2025-05-03-three.md'), postSource({ title: 'Three', date: '2025-05-03' }));
    let first: string[] = [];
    await state.updateSources([path('2025-05-03-three.md')], (pages) => void (first = pages.written));
    assert.ok(first.includes('guide/2025-05-03-three/index.html'));
    await rm(path('2025-05-03-three.md'));
    let removed: string[] = [];
    await state.updateSources([path('2025-05-03-three.md')], (pages) => void (removed = pages.removed));
    assert.ok(removed.includes('guide/2025-05-03-three/index.html'), `removed: ${removed.join(', ')}`);
    assert.ok(!existsSync(join(project.config.distDir, 'guide/2025-05-03-three/index.html')));
  });
});

test('sitemap index', async (t) => {
  const project = await makeProject({ files: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`content/posts/p${i}.md`, postSource({ title: `P${i}` })])) });
  t.after(() => project.remove());
  const { state } = await build(project.config);

  await t.test('should split into a sitemap index past the limit', () => {
    const outputs = emitSitemap(state.site, 4);
    assert.deepEqual(outputs.map((o) => o.path), ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap-4.xml', 'sitemap-5.xml', 'sitemap.xml']);
    const index = outputs.at(-1)!.body;
    assert.match(index, /<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    assert.match(index, /<loc>https:\/\/agora.example\/sitemap-1.xml<\/loc>/);
    const urls = outputs.slice(0, -1).map((o) => (o.body.match(/<url>/g) ?? []).length);
    assert.ok(urls.every((n) => n <= 4));
    // home, categories, /comments/, /tags/, tags a and b, model gpt-5, /search/, posts
    assert.equal(urls.reduce((a, b) => a + b, 0), 1 + 7 + 1 + 1 + 2 + 1 + 1 + 5);
  });
});
