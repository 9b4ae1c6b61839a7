/**
 * `CommentsInFlight`: the site-wide flush gives way to comments being answered between
 * its slices, for at most `maxMs` at a time, and not at all under a flood; a post's
 * rebuild queued meanwhile runs at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SiteBuild, commentHtmlKey, type Comment } from '@agora/generator';
import { CommentsInFlight } from '../../packages/writer/src/rebuild/comments-in-flight.ts';
import { makeProject, postSource } from '../helpers/project.ts';

const settledWithin = async (p: Promise<void>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

test('the flush waits while a comment is answered, and goes on when it is done', async () => {
  const gate = new CommentsInFlight(10_000, 4);
  assert.equal(await settledWithin(gate.giveWay(), 50), true, 'none under way: no wait');
  const done = gate.begin();
  const waiting = gate.giveWay();
  assert.equal(await settledWithin(waiting, 50), false, 'waits while one is under way');
  done();
  done(); // twice is harmless
  assert.equal(gate.size, 0);
  assert.equal(await settledWithin(waiting, 50), true, 'goes on once it is answered');
});

test('the flush waits at most maxMs, and not at all under a flood', async () => {
  const gate = new CommentsInFlight(30, 2);
  const one = gate.begin();
  const started = performance.now();
  await gate.giveWay();
  const waited = performance.now() - started;
  assert.ok(waited >= 20 && waited < 1000, `waited ${Math.round(waited)} ms, at most about 30`);
  const more = [gate.begin(), gate.begin()];
  assert.equal(gate.size, 3);
  assert.equal(await settledWithin(gate.giveWay(), 10), true, 'more than upTo under way: no wait');
  for (const d of [one, ...more]) d();
});

/** A long-lived build of `count` posts whose views all changed: a flush of it runs for more than one slice. */
async function siteWithPendingFlush(t: { after: (fn: () => unknown) => void }, count = 400, body = '') {
  const slugs = Array.from({ length: count }, (_, i) => `post-${String(i).padStart(4, '0')}`);
  const files = Object.fromEntries(slugs.map((slug, i) => [`content/posts/${slug}.md`, postSource({ title: `Post ${i}`, date: '2026-01-01', tags: `t${i % 7}` }, `Body of post ${i}.\n${body}`)]));
  const p = await makeProject({ files });
  t.after(() => p.remove());
  const { state } = await SiteBuild.build(p.config, { longLived: true, store: { comments: [], views: new Map() } });
  t.after(() => state.close());
  await state.updateViews(new Map(slugs.map((s) => [s, 5])));
  const comment = (i: number): Comment => ({
    id: `c${i}`, slug: slugs[i % slugs.length]!, author: 'a', model: 'm', date: '2026-01-02', type: 'supplement', position: null,
    body: `Comment ${i}.`, created_at: new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString(), html: `<p>Comment ${i}.</p>`,
  });
  return { p, state, comment };
}

test("a post's rebuild queued while the flush gives way runs at once, not after the wait", { timeout: 120_000 }, async (t) => {
  const { p, state, comment } = await siteWithPendingFlush(t);
  const one = comment(1);
  // The flush would wait up to 30 s for a comment being answered.
  const gate = new CommentsInFlight(30_000, 4);
  let gaveWay = 0;
  let rebuilt: Promise<number> | null = null;
  const giveWay = () => {
    if (gaveWay++ === 0) {
      // A comment is being answered; its post's rebuild is queued a little later, while the flush waits for it.
      const answered = gate.begin();
      const started = performance.now();
      rebuilt = new Promise<number>((resolve, reject) => setTimeout(() => state.updateComments(new Map([[one.slug, [one]]])).then(() => {
        answered();
        resolve(performance.now() - started);
      }, reject), 20));
    }
    return gate.giveWay();
  };
  await state.flushAggregates({ giveWay });
  assert.ok(gaveWay >= 1 && rebuilt, 'the flush gave way at least once');
  const ms = await rebuilt!;
  // Its own work takes a few ms (up to seconds on a loaded machine running tests side by side).
  assert.ok(ms < 10_000, `the queued rebuild ran while the flush waited: ${Math.round(ms)} ms (it waited the whole 30 s before)`);
  assert.match(await readFile(join(p.config.distDir, 'api', 'comments', one.slug), 'utf8'), /Comment 1\./);
});

test('rebuilds that keep coming while the flush gives way do not hold it past the wait', { timeout: 120_000 }, async (t) => {
  const { state, comment } = await siteWithPendingFlush(t);
  // One comment always under way: each time the flush gives way, it waits its 30 ms.
  const gate = new CommentsInFlight(30, 4);
  const answered = gate.begin();
  t.after(answered);
  // Each rebuild queues the next as it finishes: there is always one waiting.
  let flushed = false;
  let rebuilds = 0;
  const next = (i: number): Promise<void> => state.updateComments(new Map([[comment(i).slug, [comment(i)]]])).then(() => {
    rebuilds++;
    if (!flushed) void next(i + 1);
  });
  let gaveWay = 0;
  const giveWay = () => {
    if (gaveWay++ === 0) void next(1);
    return gate.giveWay();
  };
  const started = performance.now();
  const flush = state.flushAggregates({ giveWay }).then(() => (flushed = true));
  const outcome = await Promise.race([flush.then(() => 'flushed'), new Promise((r) => setTimeout(() => r('held'), 20_000))]);
  flushed = true;
  assert.equal(outcome, 'flushed', `the flush finished (${Math.round(performance.now() - started)} ms) while ${rebuilds} rebuilds kept coming`);
  assert.ok(gaveWay >= 1, `it gave way (${gaveWay})`);
  // The rebuilds run beside the flush, not after it: the first is done within seconds whatever the flush does.
  const deadline = Date.now() + 10_000;
  while (rebuilds === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(rebuilds >= 1, `the rebuilds ran (${rebuilds})`);
});

test('warming after a start gives way to comments being answered', { timeout: 120_000 }, async (t) => {
  // Enough posts that warming takes more than one of its 5 ms steps.
  const { state } = await siteWithPendingFlush(t, 1000, `${'A sentence of the body. '.repeat(80)}\n`);
  // A build that wrote everything made the records already: drop them so warming makes them again.
  (state as unknown as { state: { records: Map<string, unknown> } }).state.records.clear();
  const gate = new CommentsInFlight(30_000, 4);
  const answered = gate.begin();
  let gaveWay = 0;
  let warmed = false;
  const warming = state.warm(() => (gaveWay++, gate.giveWay())).then(() => (warmed = true));
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(gaveWay >= 1, 'warming paused for the comment');
  assert.equal(warmed, false, 'and waits while it is answered');
  answered();
  await warming;
  assert.equal(state.held.records, 1000, 'then makes every record');
});

test("post rebuilds run beside a flush keep their comment text until the flush has shown them", { timeout: 120_000 }, async (t) => {
  const slugs = ['2026-01-01-a', '2026-01-02-b', '2026-01-03-c', '2026-01-04-d'];
  const files = Object.fromEntries(slugs.map((slug, i) => [`content/posts/${slug}.md`, postSource({ title: `Post ${i}`, date: slug.slice(0, 10) })]));
  const p = await makeProject({ files });
  t.after(() => p.remove());
  const stored = new Map<string, Comment[]>();
  const comment = (i: number, slug: string): Comment => {
    const body = `Comment number ${i}.`;
    return { id: `c${i}`, slug, author: 'a', model: 'm', date: '2026-01-05', type: 'supplement', position: null, body, created_at: new Date(Date.UTC(2026, 0, 5, 0, 0, i)).toISOString(), html: `<p>${body}</p>`, html_key: commentHtmlKey(body) };
  };
  const store = (c: Comment) => stored.set(c.slug, [...(stored.get(c.slug) ?? []), c]);
  // A store gives fresh objects on every read (the build strips text from its own).
  const loadComments = async (slug: string) => (stored.get(slug) ?? []).map((c) => ({ ...c }));
  store(comment(1, slugs[0]!));
  // The comment text of one post kept in memory (`AGORA_COMMENT_TEXT_POSTS=1`).
  const { state } = await SiteBuild.build(p.config, { longLived: true, commentTextPosts: 1, store: { comments: [...stored.values()].flat().map((c) => ({ ...c })), views: new Map(), loadComments } });
  t.after(() => state.close());
  const first = comment(2, slugs[1]!);
  store(first);
  await state.updateComments(new Map([[first.slug, await loadComments(first.slug)]]));
  // Comments on two more posts arrive while the flush runs: their rebuilds run at the
  // end of its first slice (here one job: `/api/posts`), before `/comments/` and the
  // site's comment feed show them.
  const later = [comment(3, slugs[2]!), comment(4, slugs[3]!)];
  let rebuilds: Promise<unknown> | null = null;
  const giveWay = async () => {
    if (!rebuilds) {
      for (const c of later) store(c);
      rebuilds = Promise.all(later.map(async (c) => state.updateComments(new Map([[c.slug, await loadComments(c.slug)]]))));
    }
    await rebuilds;
  };
  await state.flushAggregates({ giveWay, lists: false, sliceMs: 0 });
  assert.ok(rebuilds, 'the flush gave way after a slice');
  const newest = await readFile(join(p.config.distDir, 'comments', 'index.html'), 'utf8');
  for (const c of [first, ...later]) assert.ok(newest.includes(c.body), `/comments/ shows ${c.id}`);
});
