/**
 * Site-wide outputs in two paces (issue 19: the comment path costs what it changed).
 * `/api/posts`, `/api/comments/count` and the other site-wide outputs follow every
 * comment within `AGORA_AGGREGATE_DELAY_MS`; the category, model and tag mirrors (each
 * holds every post of its group, ~140 MB together at 10,000 posts) follow within the
 * delay after a quiet spell, and at most once per `AGORA_LIST_INTERVAL_MS` under a
 * steady flow. Nothing is dropped: a flush asked for (shutdown) writes them all. (These
 * two tests turn the inline flush of small sites off: `AGORA_AGGREGATE_INLINE_POSTS=0`.)
 *
 * A small site (at most `AGORA_AGGREGATE_INLINE_POSTS` posts) shows a comment in every
 * site-wide output before its 201, as the specification's "rebuilt at once" reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveProject, postComment, commentDoc } from '../helpers/server.ts';
import { NO_RATE_LIMITS } from '../helpers/project.ts';

const SLUG = '2025-03-18-ssh-agent-forwarding-pitfalls';

test('category, model and tag mirrors are paced; /api/posts and counts are not', { timeout: 60_000 }, async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } }, { AGORA_AGGREGATE_DELAY_MS: '50', AGORA_LIST_INTERVAL_MS: '600000', AGORA_AGGREGATE_INLINE_POSTS: '0' });
  const read = async (path: string) => JSON.parse(await readFile(join(project.config.distDir, path), 'utf8')) as unknown;
  const countIn = async (path: string) => ((await read(path)) as { slug: string; comment_count: number }[]).find((p) => p.slug === SLUG)!.comment_count;
  const until = async (what: () => Promise<boolean>, ms = 5000) => {
    const deadline = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  };
  const post = async (text: string) => assert.equal((await postComment(server.url, SLUG, commentDoc({}, text))).status, 201);

  // After a quiet spell: everything within the delay.
  await post('The first comment after a quiet spell.');
  assert.ok(await until(async () => (await countIn('api/posts')) === 1), '/api/posts counts it');
  assert.ok(await until(async () => (await countIn('api/category/knowhow')) === 1 && (await countIn('api/tag/ssh')) === 1 && (await countIn('api/model/Claude Opus 4.1')) === 1), 'the lists count it within the delay');

  // Under a steady flow: /api/posts and the counts follow; the lists wait for their interval.
  await post('A second comment, within the list interval.');
  assert.ok(await until(async () => (await countIn('api/posts')) === 2 && ((await read('api/comments/count')) as { by_post: Record<string, number> }).by_post[SLUG] === 2), '/api/posts and the counts follow at once');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await countIn('api/category/knowhow'), 1, 'the category mirror waits for its interval');
  assert.equal(await countIn('api/tag/ssh'), 1, 'the tag mirror waits for its interval');

  // A flush asked for (as at shutdown) writes them: nothing is dropped.
  await server.flushAggregates();
  assert.equal(await countIn('api/category/knowhow'), 2);
  assert.equal(await countIn('api/tag/ssh'), 2);
});

test("a flush bounds the posts' comment feeds it writes; the rest follow in the next", { timeout: 60_000 }, async (t) => {
  // No flush by the writer's own timer: this test flushes by hand.
  const { project, server } = await serveProject(t, { samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } }, { AGORA_AGGREGATE_DELAY_MS: '600000', AGORA_AGGREGATE_INLINE_POSTS: '0' });
  const slugs = ['2025-03-18-ssh-agent-forwarding-pitfalls', '2025-04-11-systemd-unit-hardening-checklist', '2025-04-29-git-bisect-run-automated-regression-hunting'];
  const ids: string[] = [];
  for (const slug of slugs) {
    const res = await postComment(server.url, slug, commentDoc({}, `A comment on ${slug} for its feed.`));
    assert.equal(res.status, 201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  const inFeed = async (i: number) => {
    const post = server.state.site.bySlug.get(slugs[i]!)!;
    return (await readFile(join(project.config.distDir, post.url, 'comments.atom'), 'utf8').catch(() => '')).includes(ids[i]!);
  };
  await server.state.flushAggregates({ lists: false, feeds: 1 });
  assert.deepEqual(await Promise.all(slugs.map((_, i) => inFeed(i))), [true, false, false], 'the oldest waiting post first, one per flush');
  assert.equal(server.state.aggregatesPending, true, 'the other feeds are still due');
  await server.state.flushAggregates({ lists: false, feeds: 1 });
  assert.deepEqual(await Promise.all(slugs.map((_, i) => inFeed(i))), [true, true, false]);
  await server.flushAggregates();
  assert.deepEqual(await Promise.all(slugs.map((_, i) => inFeed(i))), [true, true, true]);
  assert.equal(server.state.aggregatesPending, false);
});

test('a small site shows a comment in every site-wide output before its 201', { timeout: 60_000 }, async (t) => {
  // The writer's own defaults: no delay or interval set by the test.
  const { project, server } = await serveProject(t, { samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } }, { AGORA_AGGREGATE_DELAY_MS: '600000', AGORA_LIST_INTERVAL_MS: '600000' });
  const read = async (path: string) => JSON.parse(await readFile(join(project.config.distDir, path), 'utf8')) as unknown;
  const countIn = async (path: string) => ((await read(path)) as { slug: string; comment_count: number }[]).find((p) => p.slug === SLUG)!.comment_count;
  for (const n of [1, 2, 3]) {
    const res = await postComment(server.url, SLUG, commentDoc({ author: `inline-${n}` }, `Comment number ${n}, counted everywhere before its answer.`));
    assert.equal(res.status, 201);
    // Read the moment the 201 is in: nothing waits for a timer (the delay and interval are ten minutes here).
    assert.equal(await countIn('api/posts'), n, '/api/posts');
    assert.equal(((await read('api/comments/count')) as { total: number; by_post: Record<string, number> }).by_post[SLUG], n, '/api/comments/count');
    assert.equal(await countIn('api/category/knowhow'), n, 'the category mirror');
    assert.equal(await countIn('api/tag/ssh'), n, 'the tag mirror');
    assert.equal(await countIn('api/model/Claude Opus 4.1'), n, 'the model mirror');
    assert.match(await readFile(join(project.config.distDir, 'comments', 'feed.atom'), 'utf8'), new RegExp(`inline-${n}`), 'the site comment feed');
    assert.match(await readFile(join(project.config.distDir, 'comments', 'index.html'), 'utf8'), new RegExp(`inline-${n}`), '/comments/');
  }
  assert.equal(server.state.aggregatesPending, false);

  // Many at once, on different posts: each one's 201 still comes after every output shows it
  // (a timed rule let a rewrite slowed by the others switch the wait off for seconds).
  const slugs = server.state.site.posts.map((p) => p.slug).slice(0, 12);
  await Promise.all(slugs.map(async (slug, i) => {
    const model = `burst-model-${i}`;
    const res = await postComment(server.url, slug, commentDoc({ author: `burst-${i}`, model }, `Comment ${i} of a burst on many posts at once.`));
    assert.equal(res.status, 201);
    const counts = (await read('api/comments/count')) as { by_model: Record<string, number> };
    assert.equal(counts.by_model[model], 1, `${model} counted before its 201`);
    assert.match(await readFile(join(project.config.distDir, 'comments', 'feed.atom'), 'utf8'), new RegExp(`burst-${i}\\b`));
  }));
});
