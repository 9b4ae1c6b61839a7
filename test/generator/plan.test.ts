/**
 * The build plan alone (`build/plan.ts`): a site model in memory, a manifest that
 * remembers a previous build, and the exact jobs a change emits, skips and removes,
 * with their reasons. No rendering, no emitting, no dist/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Comment, Post, SiteConfig, SiteModel } from '@agora/generator';
import { toSourceFile } from '../../packages/generator/src/load/posts.ts';
import { parsePost } from '../../packages/generator/src/validate/post.ts';
import { buildSiteModel } from '../../packages/generator/src/model/site.ts';
import { ChangeLog } from '../../packages/generator/src/model/change-log.ts';
import { Manifest } from '../../packages/generator/src/emit/manifest.ts';
import { planBuild, settleRemovals, type BuildPlan } from '../../packages/generator/src/build/plan.ts';
import { postSource } from '../helpers/project.ts';
import { createJobKeyer } from '../../packages/generator/src/model/job-keys.ts';
import type { Job } from '../../packages/generator/src/model/jobs.ts';

const CONFIG: SiteConfig = { title: 'Plan test', description: 'A test site.', baseUrl: 'https://agora.example', apiKey: 'k', writerUrl: '', lang: 'en', pageSize: 50 };
const FINGERPRINT = 'code-v1';

/** Three posts: two guides by gpt-5 (tags a, b / a), one review by claude (tag c). */
const SOURCES: Record<string, string> = {
  one: postSource({ date: '2025-05-03', category: 'guide', model: 'gpt-5', tags: 'a, b' }, 'The conclusion comes first: one.\n'),
  two: postSource({ date: '2025-05-02', category: 'guide', model: 'gpt-5', tags: 'a' }, 'The conclusion comes first: two.\n'),
  three: postSource({ date: '2025-05-01', category: 'reviews', model: 'claude', tags: 'c' }, 'The conclusion comes first: three.\n'),
};

function post(slug: string, text: string): Post {
  const { post, messages } = parsePost(toSourceFile(`/p/content/posts/${slug}.md`, '/p', text));
  assert.ok(post, JSON.stringify(messages));
  return post;
}

function site(sources: Record<string, string> = SOURCES, options: { comments?: Comment[]; views?: Map<string, number>; config?: SiteConfig } = {}): SiteModel {
  return buildSiteModel({ config: options.config ?? CONFIG, posts: Object.entries(sources).map(([slug, text]) => post(slug, text)), comments: options.comments ?? [], views: options.views ?? new Map(), catalog: null });
}

function comment(slug: string, id: string): Comment {
  return { id, slug, author: 'a', model: 'gpt-5', date: '2025-06-01', type: 'supplement', position: null, body: 'Yes.', created_at: `2025-06-01T00:00:0${id.length}Z` };
}

/** What the sink would record after carrying out a plan: each emitted job wrote one file named after it. */
function record(manifest: Manifest, plan: BuildPlan): Manifest {
  for (const { id, key } of plan.emit) {
    manifest.jobs.set(id, { key: key ?? '', paths: [`${id}.out`] });
    manifest.outputs.set(`${id}.out`, 'hash');
  }
  for (const r of plan.remove) manifest.outputs.delete(r.path);
  for (const id of plan.gone) manifest.jobs.delete(id);
  manifest.lost = null;
  return manifest;
}

/** A manifest that remembers a full build of `model`. */
function built(model: SiteModel): Manifest {
  return record(new Manifest(null, '/nowhere'), planBuild(model, { kind: 'full' }, new Manifest(null, '/nowhere'), { fingerprint: FINGERPRINT }));
}

const full = (model: SiteModel, manifest: Manifest, options: Parameters<typeof planBuild>[3] = {}) => planBuild(model, { kind: 'full' }, manifest, { fingerprint: FINGERPRINT, ...options });
const emitted = (plan: BuildPlan) => plan.emit.map((e) => `${e.id} (${e.reason})`).sort();
const ids = (plan: BuildPlan) => plan.emit.map((e) => e.id).sort();
const reasons = (plan: BuildPlan) => [...new Set(plan.emit.map((e) => e.reason))];
const rendered = (plan: BuildPlan) => plan.render.map((r) => `${r.post.slug} (${r.reason})`);

/** Jobs keyed on the whole site: any source, comment or view change re-emits them. */
const SITE_JOBS = ['agents-md', 'api-comment-count', 'api-posts', 'api-views', 'assets', 'catalog', 'comment-twins', 'comments-feed', 'comments-page', 'debates-page', 'headers', 'home', 'llms-full-txt', 'llms-txt', 'markdown-twins', 'not-found-page', 'openapi', 'robots', 'search-page', 'sitemap', 'tags-page'];
/** The site-wide jobs whose outputs show or count comments or views. */
const SITE_WITH_COMMENTS = ['api-comment-count', 'api-posts', 'api-views', 'comment-twins', 'comments-feed', 'comments-page', 'debates-page'];

test('planBuild', async (t) => {
  await t.test('should skip every job of a warm build with nothing changed, and render and remove nothing', () => {
    const model = site();
    const plan = full(model, built(model), { notesKnown: () => true });
    assert.deepEqual(plan.emit, []);
    assert.deepEqual(plan.render, []);
    assert.deepEqual(plan.remove, []);
    assert.deepEqual(plan.gone, []);
    assert.equal(plan.skip.length, 70);
    assert.ok(plan.skip.every((s) => s.reason === 'unchanged'));
  });

  await t.test('should emit every job of a first build, and render every post page once', () => {
    const plan = full(site(), new Manifest(null, '/nowhere'));
    assert.equal(plan.emit.length, 70);
    assert.deepEqual(reasons(plan), ['new job']);
    assert.deepEqual(rendered(plan), ['one (page emitted)', 'two (page emitted)', 'three (page emitted)']);
  });

  await t.test("should plan a comment's rebuild: the post's own outputs now, keyed as a full build keys them", () => {
    const model = site(SOURCES, { comments: [comment('two', 'c1')] });
    const plan = planBuild(model, { kind: 'post-comments', slugs: ['two'] }, built(site()), { fingerprint: FINGERPRINT });
    assert.deepEqual(emitted(plan), ['api-comments:two (comments changed)', 'api-post:two (comments changed)', 'post-page:two (comments changed)']);
    // Keyed, so the next start finds them unchanged instead of emitting them again.
    const fullKeys = new Map(full(model, new Manifest(null, '/nowhere')).emit.map((e) => [e.id, e.key]));
    for (const e of plan.emit) assert.equal(e.key, fullKeys.get(e.id), `${e.id} keyed as a full build keys it`);
    assert.deepEqual(rendered(plan), ['two (page emitted)']);
    assert.deepEqual([plan.skip, plan.remove, plan.gone], [[], [], []]);
  });

  await t.test("should plan an edit's fast half: the post's own outputs, keyed, so the full plan after it skips them", () => {
    const manifest = built(site());
    const edited = site({ ...SOURCES, two: SOURCES.two!.replace('two.', 'two, edited.') });
    const plan = planBuild(edited, { kind: 'post-sources', slugs: ['two'] }, manifest, { fingerprint: FINGERPRINT });
    assert.deepEqual(emitted(plan), ['api-comments:two (source changed)', 'api-post:two (source changed)', 'post-comments-feed:two (source changed)', 'post-md:two (source changed)', 'post-page:two (source changed)']);
    assert.deepEqual(rendered(plan), ['two (page emitted)']);
    record(manifest, plan);
    const after = full(edited, manifest);
    assert.ok(!after.emit.some((e) => e.id.endsWith(':two') && !e.id.startsWith('api-tag')), `the post's own jobs are skipped: ${after.emit.map((e) => e.id).join(', ')}`);
    assert.ok(after.emit.some((e) => e.id === 'category-page:guide'), 'the lists follow in the full plan');
  });

  await t.test("should plan a deleted post's fast half: its own files removed, its jobs gone", () => {
    const manifest = built(site());
    const { three: _, ...rest } = SOURCES;
    const plan = planBuild(site(rest), { kind: 'post-sources', slugs: ['three'] }, manifest, { fingerprint: FINGERPRINT });
    assert.deepEqual(plan.emit, []);
    assert.deepEqual([...plan.gone].sort(), ['api-comments:three', 'api-post:three', 'post-comments-feed:three', 'post-md:three', 'post-page:three']);
    assert.deepEqual(plan.remove.map((r) => r.path).sort(), plan.gone.map((id) => `${id}.out`).sort());
  });

  await t.test('should plan a comment in a full build: what shows it or counts it, not the post feeds or post.md', () => {
    const manifest = built(site());
    const plan = full(site(SOURCES, { comments: [comment('two', 'c1')] }), manifest);
    assert.deepEqual(reasons(plan), ['comments changed']);
    assert.deepEqual(ids(plan), [
      ...SITE_WITH_COMMENTS, 'api-category:guide', 'api-comments:two', 'api-model:gpt-5', 'api-post:two', 'api-tag:a', 'post-comments-feed:two', 'post-page:two',
    ].sort());
    assert.deepEqual(rendered(plan), ['two (page emitted)']);
    assert.ok(!plan.skip.some((s) => s.id === 'api-tag:a'));
    assert.ok(plan.skip.some((s) => s.id === 'site-feed') && plan.skip.some((s) => s.id === 'post-md:two') && plan.skip.some((s) => s.id === 'tag-page:b'));
    // HTML lists and the site-wide documents show no comment: a writer restarted after
    // comments does not make llms.txt, _headers or the list pages again.
    for (const id of [...SITE_JOBS.filter((j) => !SITE_WITH_COMMENTS.includes(j)), 'category-page:guide', 'model-page:gpt-5', 'tag-page:a']) {
      assert.ok(plan.skip.some((s) => s.id === id), `${id} is skipped`);
    }
  });

  await t.test('should plan a view flush: the mirrors that carry view counts', () => {
    const model = site(SOURCES, { views: new Map([['three', 7]]) });
    const plan = planBuild(model, { kind: 'aggregates', comments: [], views: ['three'] }, built(site()));
    assert.deepEqual(emitted(plan), ['api-category:reviews (views changed)', 'api-model:claude (views changed)', 'api-post:three (views changed)', 'api-posts (views changed)', 'api-tag:c (views changed)', 'api-views (views changed)']);
    assert.deepEqual(plan.render, []);
  });

  await t.test('should give a job both reasons when a flush carries comments and views', () => {
    const plan = planBuild(site(), { kind: 'aggregates', comments: ['one'], views: ['two'] }, built(site()));
    const reason = (id: string) => plan.emit.find((e) => e.id === id)?.reason;
    assert.equal(reason('api-posts'), 'comments and views changed');
    assert.equal(reason('api-tag:b'), 'comments changed');
    assert.equal(reason('api-post:two'), 'views changed');
    assert.equal(reason('comments-page'), 'comments changed');
  });

  await t.test('should plan an edit of one post: its outputs, its lists and feeds, with the bodies they show', () => {
    const manifest = built(site());
    const plan = full(site({ ...SOURCES, two: SOURCES.two!.replace('comes first', 'comes first, edited') }), manifest);
    assert.deepEqual(reasons(plan), ['source changed']);
    assert.deepEqual(ids(plan), [
      ...SITE_JOBS, 'api-category:guide', 'api-model:gpt-5', 'api-post:two', 'api-tag:a', 'category-feed:guide', 'category-page:guide', 'model-page:gpt-5', 'post-comments-feed:two', 'post-md:two', 'post-page:two', 'site-feed', 'tag-feed:a', 'tag-page:a',
    ].sort());
    assert.deepEqual(rendered(plan), ['two (page emitted)', 'one (feed emitted)', 'three (feed emitted)']);
    assert.ok(plan.skip.some((s) => s.id === 'api-comments:two'), 'its comment list shows no source');
  });

  await t.test('should remove the files of a deleted post and of a tag no post has any more', () => {
    const manifest = built(site());
    const { three: _, ...rest } = SOURCES;
    const plan = full(site(rest), manifest);
    const gone = ['api-comments:three', 'api-post:three', 'post-comments-feed:three', 'post-md:three', 'post-page:three', 'api-category:reviews', 'category-page:reviews', 'category-feed:reviews', 'api-model:claude', 'model-page:claude', 'api-tag:c', 'tag-page:c', 'tag-feed:c'];
    // The category jobs stay (every category has its lists); the model and tag jobs go.
    const stays = new Set(['api-category:reviews', 'category-page:reviews', 'category-feed:reviews']);
    assert.deepEqual([...plan.gone].sort(), gone.filter((id) => !stays.has(id)).sort());
    assert.deepEqual(plan.remove.map((r) => `${r.path} (${r.reason})`).sort(), plan.gone.map((id) => `${id}.out (job gone)`).sort());
    assert.ok(plan.emit.some((e) => e.id === 'category-page:reviews' && e.reason === 'source changed'));
  });

  await t.test('should emit everything on a template change: the code or the site config', () => {
    const model = site();
    const manifest = built(model);
    const code = full(model, manifest, { fingerprint: 'code-v2' });
    assert.equal(code.emit.length, 70);
    assert.deepEqual(reasons(code), ['template changed']);
    assert.deepEqual(code.skip, []);
    const config = full(site(SOURCES, { config: { ...CONFIG, title: 'Renamed' } }), manifest);
    assert.equal(config.emit.length, 70);
    assert.deepEqual(reasons(config), ['template changed']);
  });

  await t.test('should emit everything once after a crash (a dirty marker next to the manifest)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agora-plan-'));
    t.after(() => rm(root, { recursive: true, force: true }));
    const cacheDir = join(root, '.cache');
    const distDir = join(root, 'dist');
    await Promise.all([mkdir(cacheDir), mkdir(distDir)]);
    const model = site();
    const saved = record(new Manifest(join(cacheDir, 'manifest.json'), distDir), full(model, new Manifest(null, distDir)));
    await saved.save();
    assert.deepEqual(full(model, await Manifest.open(cacheDir, distDir)).emit, [], 'a clean manifest is trusted');
    await saved.markDirty();
    const reopened = await Manifest.open(cacheDir, distDir);
    const plan = full(model, reopened);
    assert.equal(plan.emit.length, 70);
    assert.deepEqual(reasons(plan), ['crash marker']);
    record(reopened, plan);
    assert.deepEqual(full(model, reopened).emit, [], 'once');
    // Saved by the run that emitted everything (`agora build` after a writer's crash), the
    // manifest is trusted again: the marker went with the save. It stayed, and every later
    // build emitted the whole site (found by killing a writer under load, then building twice).
    await reopened.save();
    const next = await Manifest.open(cacheDir, distDir);
    assert.equal(next.lost, null, 'the crash marker is gone once the manifest is saved whole');
    assert.deepEqual(full(model, next).emit, [], 'once, also across builds');
  });

  await t.test('should emit a job whose file the manifest lost, and one a rebuild emitted without a key', () => {
    const model = site();
    const manifest = built(model);
    manifest.outputs.delete('home.out');
    manifest.jobs.set('api-post:one', { key: '', paths: ['api-post:one.out'] });
    assert.deepEqual(emitted(full(model, manifest)), ['api-post:one (key not recorded)', 'home (output missing)']);
  });

  await t.test('should render bodies whose style notes are unknown', () => {
    const model = site();
    const plan = full(model, built(model), { notesKnown: (hash) => hash !== model.bySlug.get('three')!.bodyHash });
    assert.deepEqual(plan.emit, []);
    assert.deepEqual(rendered(plan), ['three (style notes unknown)']);
  });

  await t.test('should remove files no job owns, and files a re-emitted job dropped, never files this build produced', () => {
    const model = site();
    const manifest = built(model);
    manifest.outputs.set('stray.html', 'hash');
    manifest.outputs.set('home.out.2', 'hash');
    const plan = full(model, manifest);
    assert.deepEqual(plan.remove, [{ path: 'stray.html', reason: 'no job' }, { path: 'home.out.2', reason: 'no job' }]);
    const settled = settleRemovals(plan, new Set(['home.out.2']), ['home/page/2/index.html', 'api-posts.out']);
    assert.deepEqual(settled, [{ path: 'stray.html', reason: 'no job' }, { path: 'home/page/2/index.html', reason: 'no longer produced' }]);
  });
});

test('kept group keys: a list key on a model whose comments and views change in place equals a fresh model\'s', async () => {
  // The writer changes one model in place (comment lists replaced, view counts set) and
  // plans each flush on it: the group parts kept from the last plan must never hide a change.
  const model = site();
  const keyOf = () => createJobKeyer(model, FINGERPRINT);
  const fresh = () => {
    const copy = site(SOURCES, { comments: [...model.comments.values()].flat(), views: new Map(model.views) });
    return createJobKeyer(copy, FINGERPRINT);
  };
  const lists: Job[] = [{ kind: 'api-category', category: 'guide' }, { kind: 'api-category', category: 'reviews' }, { kind: 'api-model', model: 'gpt-5' }, { kind: 'api-tag', tag: 'a' }, { kind: 'api-tag', tag: 'c' }];
  const keys = (k: (job: Job) => string) => lists.map((job) => k(job));
  const before = keys(keyOf());
  assert.deepEqual(before, keys(fresh()));
  // A comment on `one` (guide, gpt-5, tags a and b): its groups change, `reviews` and `c` do not.
  model.comments.set('one', [comment('one', 'c1')]);
  const afterComment = keys(keyOf());
  assert.deepEqual(afterComment, keys(fresh()));
  assert.deepEqual(afterComment.map((k, i) => k !== before[i]), [true, false, true, true, false]);
  // Another list for the same post (same length, other comment), then views on `three`.
  model.comments.set('one', [comment('one', 'c2')]);
  const afterReplace = keys(keyOf());
  assert.deepEqual(afterReplace, keys(fresh()));
  assert.notEqual(afterReplace[0], afterComment[0]);
  model.views.set('three', 7);
  const afterViews = keys(keyOf());
  assert.deepEqual(afterViews, keys(fresh()));
  assert.deepEqual(afterViews.map((k, i) => k !== afterReplace[i]), [false, true, false, false, true]);
});

test('kept group keys follow the model\'s change log, and compare every member once the log let go of what they need', async () => {
  const model = site();
  const keyOf = () => createJobKeyer(model, FINGERPRINT);
  const fresh = () => createJobKeyer(site(SOURCES, { comments: [...model.comments.values()].flat(), views: new Map(model.views) }), FINGERPRINT);
  const job: Job = { kind: 'api-category', category: 'guide' };
  const first = keyOf()(job);
  // A change made past the log (not through the map's own set) is not seen by the kept key:
  // the key takes in only the posts the log names, not a pass over every member.
  Map.prototype.set.call(model.views, 'one', 41);
  assert.equal(keyOf()(job), first, 'the kept key read the log, not every member');
  assert.notEqual(fresh()(job), first);
  // A logged change of that post brings it in, with the one made past the log.
  model.views.set('one', 42);
  assert.equal(keyOf()(job), fresh()(job));
  // The log lets go of its oldest entries: a key that fell behind compares every member.
  Map.prototype.set.call(model.views, 'one', 43);
  for (let i = 0; i < 60_000; i++) model.views.set('three', i);
  assert.equal(keyOf()(job), fresh()(job), 'behind the log: every member compared');
});

test('the change log numbers each change and says when it let go of some', () => {
  const log = new ChangeLog();
  log.note('a');
  log.note('b');
  assert.deepEqual(log.since(0), ['a', 'b']);
  assert.deepEqual(log.since(1), ['b']);
  assert.deepEqual(log.since(log.end), []);
  for (let i = 0; i < 60_000; i++) log.note(`s${i}`);
  assert.ok(log.start > 0 && log.slugs.length <= 50_000, `kept ${log.slugs.length}`);
  assert.equal(log.since(0), null);
  assert.equal(log.end, 60_002);
  assert.deepEqual(log.since(log.end - 1), ['s59999']);
});
