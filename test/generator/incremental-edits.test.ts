/**
 * The incremental path of an edit in `agora dev` (issue 21): the site checks kept from
 * edit to edit (`SiteChecks`) against a full `checkSite`, the model derived from the last
 * one (`updateSiteModel`) against `buildSiteModel` from scratch, each after random
 * sequences of edits, and `SiteBuild.updateSources` end to end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';
import { toSourceFile, type SourceFile } from '../../packages/generator/src/load/posts.ts';
import { parsePost, type ParsedPost } from '../../packages/generator/src/validate/post.ts';
import { SiteChecks } from '../../packages/generator/src/validate/site.ts';
import { contentMessages, readValidContent } from '../../packages/generator/src/content.ts';
import { sortMessages, type Message } from '../../packages/generator/src/messages.ts';
import { buildSiteModel, updateSiteModel } from '../../packages/generator/src/model/site.ts';
import type { Comment, Post, SiteModel } from '../../packages/generator/src/types.ts';

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

type Parsed = { source: SourceFile; result: ParsedPost };

/** What a full read checks: every file in path order (as `listPostFiles` gives them). */
function fullMessages(files: ReadonlyMap<string, Parsed>): Message[] {
  const parsed = new Map([...files].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  return sortMessages(contentMessages({ parsed, catalog: null, catalogMessages: [] }).messages);
}

test('SiteChecks', async (t) => {
  const root = '/site';
  // Names that collide in every way the checks know: slugs by case and folder, a reserved
  // slug, models by case, tags by case and spacing, names too long for a file.
  const paths = ['alpha', 'Alpha', 'x/alpha', 'beta', 'x/Beta', 'count', 'gamma', 'index.html', 'x/delta', 'ALPHA', 'y/gamma', 'epsilon', 'feed.atom', 'x/Index.md']
    .map((name) => `${root}/content/posts/${name}.md`);
  const models = ['gpt-5', 'GPT-5', 'claude', 'Claude', 'm'.repeat(300)];
  const tags = ['Nginx', 'nginx', 'NGINX', 'web dev', 'Web Dev', 'web-dev', 'redis', 't'.repeat(300), 'a', 'b', 'index.md', 'Index.html'];
  const text = (rnd: () => number): string => {
    const r = rnd();
    if (r < 0.08) return 'no front matter at all';
    const n = Math.floor(rnd() * 4);
    const tagList = Array.from({ length: n }, () => pick(rnd, tags)).join(', ');
    return postSource({ title: r < 0.12 ? '' : `T${Math.floor(rnd() * 3)}`, model: pick(rnd, models), tags: tagList || 'a' }, `Body ${Math.floor(rnd() * 3)}.\n`);
  };
  const read = (path: string, body: string): Parsed => {
    const source = toSourceFile(path, root, body);
    return { source, result: parsePost(source) };
  };

  await t.test('should give what a full check gives, after every edit of random sequences', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = random(seed);
      const files = new Map<string, Parsed>();
      for (const path of paths) if (rnd() < 0.5) files.set(path, read(path, text(rnd)));
      const checks = SiteChecks.of(files);
      assert.deepEqual(sortMessages(checks.messages()), fullMessages(files), `seed ${seed}, start`);
      for (let step = 0; step < 60; step++) {
        // One to three files per edit, as a save of several files does.
        const batch = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(rnd, paths));
        for (const path of batch) {
          if (files.has(path) && rnd() < 0.3) files.delete(path);
          else files.set(path, read(path, text(rnd)));
          checks.set(path, files.get(path));
        }
        const got = sortMessages(checks.messages());
        assert.deepEqual(got, fullMessages(files), `seed ${seed}, step ${step}`);
        assert.deepEqual(sortMessages(SiteChecks.of(files).messages()), got, `seed ${seed}, step ${step}: from scratch`);
      }
    }
  });

  await t.test('should report a collision an edit introduces, and forget it when the edit is undone', () => {
    const files = new Map<string, Parsed>([[paths[0]!, read(paths[0]!, postSource({ tags: 'Nginx' }))], [paths[3]!, read(paths[3]!, postSource({ tags: 'redis' }))]]);
    const checks = SiteChecks.of(files);
    assert.deepEqual(checks.messages(), []);
    checks.set(paths[3]!, read(paths[3]!, postSource({ tags: 'nginx' })));
    const [warning] = checks.messages();
    assert.equal(warning?.ruleId, 'tag-collision');
    assert.equal(warning?.severity, 'warning');
    // `Alpha.md` comes first in path order: the message is on `alpha.md`.
    checks.set(paths[1]!, read(paths[1]!, postSource()));
    assert.ok(checks.messages().some((m) => m.ruleId === 'slug-collision' && m.file === 'content/posts/alpha.md'));
    checks.set(paths[1]!, undefined);
    checks.set(paths[3]!, read(paths[3]!, postSource({ tags: 'redis' })));
    assert.deepEqual(checks.messages(), []);
  });
});

test('updateSiteModel', async (t) => {
  const CONFIG = { title: 'T', description: 'D', baseUrl: 'https://agora.example', writerUrl: '', lang: 'en' } as unknown as SiteModel['config'];
  const post = (slug: string, date: string, version: number): Post => ({
    slug, title: `${slug} v${version}`, date, model: 'm', author_type: 'ai-agent', category: 'guide', summary: 's', tags: 'a',
    content: `v${version}`, source: `v${version}`, hash: `${slug}-${version}`, bodyHash: `${slug}-${version}`, file: `content/posts/${slug}.md`, bodyLine: 8, url: `/guide/${slug}/`,
  });
  const comment = (slug: string, i: number): Comment => ({ id: `${slug}-c${i}`, slug, created_at: `2025-01-0${(i % 9) + 1}T00:00:00Z`, hidden: i % 5 === 4 }) as unknown as Comment;
  const strip = (site: SiteModel) => ({ posts: site.posts, bySlug: site.bySlug, comments: site.comments, views: site.views, catalog: site.catalog });

  await t.test('should equal a model built from scratch after every edit of random sequences', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rnd = random(seed);
      const slugs = Array.from({ length: 40 }, (_, i) => `p${i}`);
      const dates = ['2025-01-01', '2025-01-02', '2025-02-01', '2024-12-31'];
      const posts = slugs.filter(() => rnd() < 0.7).map((s) => post(s, pick(rnd, dates), 0));
      const comments = posts.flatMap((p) => Array.from({ length: Math.floor(rnd() * 3) }, (_, i) => comment(p.slug, i)));
      const views = new Map(posts.map((p) => [p.slug, pick(rnd, [0, 3, 7, -1, 1.5])]));
      let reference = buildSiteModel({ config: CONFIG, posts, comments, views, catalog: null });
      // A model of its own: `updateSiteModel` uses up the one it is given.
      let site = buildSiteModel({ config: CONFIG, posts, comments, views, catalog: null });
      for (let step = 0; step < 40; step++) {
        const remove: string[] = [];
        const add: Post[] = [];
        // Now and then a batch big enough to re-sort instead of moving posts one by one.
        const size = rnd() < 0.1 ? 80 : 1 + Math.floor(rnd() * 3);
        for (let i = 0; i < size; i++) {
          const slug = pick(rnd, slugs);
          if (rnd() < 0.3) remove.push(slug);
          else add.push(post(slug, pick(rnd, dates), step + 1));
        }
        const before = [...site.posts];
        const next = updateSiteModel(site, { remove, add });
        assert.deepEqual(site.posts, before, "the old model's order is left as it was (its maps move into the new one)");
        // What the edit did before: every post again, with the last model's comments and views.
        const kept = new Map(reference.bySlug);
        for (const slug of remove) kept.delete(slug);
        for (const p of add) kept.set(p.slug, p);
        reference = buildSiteModel({ config: CONFIG, posts: [...kept.values()], comments: [...reference.comments.values()].flat(), views: reference.views, catalog: null });
        assert.deepStrictEqual(strip(next), strip(reference), `seed ${seed}, step ${step}`);
        assert.equal(next.memo.size, 0);
        site = next;
      }
    }
  });
});

test('agora dev: edits against kept indexes', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 1; i <= 9; i++) files[`content/posts/2025-05-0${i}-p${i}.md`] = postSource({ title: `P${i}`, date: `2025-05-0${i}`, tags: i % 2 ? 'Nginx, redis' : 'redis', model: i % 3 ? 'gpt-5' : 'claude' });
  const project = await makeProject({ files });
  t.after(() => project.remove());
  const { state } = await build(project.config, { longLived: true });
  t.after(() => state.close());
  state.prepareEdits();
  const path = (name: string) => join(project.root, 'content/posts', name);
  /** The model must equal one built from a fresh read of every file. */
  const sameAsFresh = async (label: string) => {
    const { posts, content } = await readValidContent(project.config);
    const fresh = buildSiteModel({ config: project.config.site, posts, comments: [], views: new Map(), catalog: content.catalog });
    assert.deepStrictEqual(state.site.posts, fresh.posts, label);
    assert.deepStrictEqual([...state.site.bySlug.keys()].sort(), [...fresh.bySlug.keys()].sort(), label);
    assert.deepStrictEqual(state.site.views, fresh.views, label);
  };
  const rejectsWith = (paths: string[], ruleId: string) => assert.rejects(state.updateSources(paths), (error: Error & { messages?: Message[] }) => {
    assert.ok(error.messages?.some((m) => m.ruleId === ruleId), `${ruleId} in ${JSON.stringify(error.messages)}`);
    return true;
  });

  await t.test('should keep the model equal to a fresh one through body, front-matter, new and deleted edits', async () => {
    await writeFile(path('2025-05-03-p3.md'), postSource({ title: 'P3', date: '2025-05-03', tags: 'Nginx, redis', model: 'claude' }, 'A new body.\n'));
    await state.updateSources([path('2025-05-03-p3.md')]);
    await sameAsFresh('body edit');
    // Date, tags, category and title: the post moves in the order and between lists.
    await writeFile(path('2025-05-03-p3.md'), postSource({ title: 'P3 moved', date: '2025-05-09', tags: 'moved', category: 'knowhow', model: 'claude' }));
    const moved = await state.updateSources([path('2025-05-03-p3.md')]);
    await sameAsFresh('front-matter edit');
    assert.ok(moved.pages?.written.includes('knowhow/2025-05-03-p3/index.html'));
    assert.equal(state.site.posts[0]?.slug, '2025-05-03-p3', 'moved to the top (same date as p9, slug first)');
    await writeFile(path('2025-05-10-new.md'), postSource({ title: 'New', date: '2025-05-10' }));
    await state.updateSources([path('2025-05-10-new.md')]);
    await sameAsFresh('new post');
    assert.equal(state.site.posts[0]?.slug, '2025-05-10-new');
    await rm(path('2025-05-10-new.md'));
    const gone = await state.updateSources([path('2025-05-10-new.md')]);
    await sameAsFresh('deleted post');
    assert.ok(gone.pages?.removed.includes('guide/2025-05-10-new/index.html'));
  });

  await t.test('should report a new post whose slug collides, keep reporting it while it stays, and take every edit made meanwhile', async () => {
    await mkdir(path('sub'), { recursive: true });
    await writeFile(path('sub/2025-05-01-P1.md'), postSource({ title: 'Collides', date: '2025-05-01' }));
    await rejectsWith([path('sub/2025-05-01-P1.md')], 'slug-collision');
    // Another file's edit does not hide the collision; the edit waits with it.
    await writeFile(path('2025-05-02-p2.md'), postSource({ title: 'P2 edited while broken', date: '2025-05-02', tags: 'redis' }));
    await rejectsWith([path('2025-05-02-p2.md')], 'slug-collision');
    assert.equal(state.site.bySlug.get('2025-05-02-p2')?.title, 'P2', 'the model stays at the last valid content');
    await rm(path('sub'), { recursive: true });
    // The watcher reports the folder: it is listed again.
    await state.updateSources([path('sub')]);
    await sameAsFresh('collision removed');
    assert.equal(state.site.bySlug.get('2025-05-02-p2')?.title, 'P2 edited while broken');
    assert.ok(existsSync(join(project.config.distDir, 'guide/2025-05-02-p2/index.html')));
  });

  await t.test('should report a tag spelled two ways, a model collision and an invalid post, each until it is fixed', async () => {
    await writeFile(path('2025-05-04-p4.md'), postSource({ title: 'P4', date: '2025-05-04', tags: 'nginx', model: 'gpt-5' }));
    const spelled = await state.updateSources([path('2025-05-04-p4.md')]);
    assert.ok(spelled.messages.some((m) => m.ruleId === 'tag-collision' && m.severity === 'warning' && m.file === 'content/posts/2025-05-04-p4.md'), JSON.stringify(spelled.messages));
    await writeFile(path('2025-05-04-p4.md'), postSource({ title: 'P4', date: '2025-05-04', tags: 'redis', model: 'GPT-5' }));
    await rejectsWith([path('2025-05-04-p4.md')], 'model-collision');
    await writeFile(path('2025-05-05-p5.md'), '---\ntitle: "P5"\n---\nNo date.\n');
    await assert.rejects(state.updateSources([path('2025-05-05-p5.md')]), (error: Error & { messages?: Message[] }) => {
      const files = new Set(error.messages?.filter((m) => m.severity === 'error').map((m) => m.file));
      assert.deepEqual([...files].sort(), ['content/posts/2025-05-04-p4.md', 'content/posts/2025-05-05-p5.md']);
      assert.ok(error.messages?.every((m) => m.line >= 1 && m.column >= 1 && m.fix));
      return true;
    });
    await writeFile(path('2025-05-04-p4.md'), postSource({ title: 'P4', date: '2025-05-04', tags: 'redis', model: 'gpt-5' }));
    await writeFile(path('2025-05-05-p5.md'), postSource({ title: 'P5 fixed', date: '2025-05-05' }));
    const fixed = await state.updateSources([path('2025-05-04-p4.md'), path('2025-05-05-p5.md')]);
    assert.ok(!fixed.messages.some((m) => m.ruleId === 'tag-collision'));
    await sameAsFresh('fixed');
  });
});

test('agora dev: dist/ deleted while it runs is written whole again at the next edit', async (t) => {
  // `rm -rf dist` beside `agora dev` left the site 404 until a restart: the next edit wrote the
  // 5 files it changed and called the other 116 "unchanged", from the kept manifest.
  const files: Record<string, string> = {};
  for (let i = 1; i <= 3; i++) files[`content/posts/2025-05-0${i}-p${i}.md`] = postSource({ title: `P${i}`, date: `2025-05-0${i}` });
  const project = await makeProject({ files });
  t.after(() => project.remove());
  const { state, result: first } = await build(project.config, { longLived: true });
  t.after(() => state.close());
  state.prepareEdits();
  const dist = project.config.distDir;
  const total = first.written.length;
  // Five times: the edit's first half makes dist/ again, which often gets the freed inode
  // back (ext4 gives it at once), and the manifest, which knew dist/ by its inode alone,
  // took the new, empty dist/ for the old one in about half the runs ("index.html written again").
  for (let round = 1; round <= 5; round++) {
    await rm(dist, { recursive: true, force: true });
    await writeFile(join(project.root, 'content/posts/2025-05-02-p2.md'), postSource({ title: 'P2', date: '2025-05-02' }, `An edited body, round ${round}.\n`));
    const edit = await state.updateSources([join(project.root, 'content/posts/2025-05-02-p2.md')]);
    for (const page of ['index.html', 'guide/index.html', 'guide/2025-05-01-p1/index.html', 'guide/2025-05-02-p2/index.html', 'api/posts', 'sitemap.xml', 'assets/site.css']) assert.ok(existsSync(join(dist, page)), `round ${round}: ${page} written again`);
    assert.equal(edit.written.length, total, `round ${round}: every file of the site, each once`);
  }
  // Then edits are cheap again.
  await writeFile(join(project.root, 'content/posts/2025-05-02-p2.md'), postSource({ title: 'P2', date: '2025-05-02' }, 'Edited once more.\n'));
  const next = await state.updateSources([join(project.root, 'content/posts/2025-05-02-p2.md')]);
  assert.ok(next.written.length < total / 2, `${next.written.length} of ${total} written`);
});
