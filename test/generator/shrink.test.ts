/**
 * A long-lived build state lets go of what it keeps only to make the next comment on a
 * post cheaper (`SiteBuild.shrink`: the posts' body renderings, their comments' text,
 * the kept card and record lists), and what it writes afterwards, with all of that
 * read back or made again, is what a fresh build writes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SiteBuild, type Comment } from '@agora/generator';
import { commentHtmlKey } from '../../packages/generator/src/render/comment-rendering.ts';
import { makeProject, postSource } from '../helpers/project.ts';

const POSTS = ['alpha', 'beta', 'gamma'];
const files = Object.fromEntries(POSTS.map((slug, i) => [`content/posts/${slug}.md`, postSource({ title: slug, date: `2026-01-0${i + 1}`, category: 'guide', tags: 'a' }, `The conclusion of ${slug}.\n\nA second paragraph with *emphasis*.\n`)]));

/** A stored comment with its current rendering (so its text may be dropped from memory). */
function comment(slug: string, n: number): Comment {
  const body = `Comment ${n} on ${slug}, with **enough** text.`;
  return { id: `${slug}-${n}`, slug, author: 'a', model: 'm', date: '2026-01-05', type: 'supplement', position: null, body, created_at: `2026-01-05T00:00:${String(n).padStart(2, '0')}.000Z`, html: `<p>${body}</p>`, html_key: commentHtmlKey(body) };
}

/** Each post's page and comment mirror, and the site-wide outputs that show comments. */
const OUTPUTS = [...POSTS.flatMap((slug) => [`guide/${slug}/index.html`, `api/comments/${slug}`, `api/post/${slug}`]), 'api/posts', 'comments/index.html', 'comments/feed.json', 'api/comments/count'];

test('a shrunk build state lets go of renderings, comment text and kept lists, and still writes what a fresh build writes', async (t) => {
  const p = await makeProject({ files });
  t.after(() => p.remove());
  // The store: copies, as read from disk.
  const stored = new Map(POSTS.map((slug) => [slug, [1, 2].map((n) => comment(slug, n))]));
  const loadComments = async (slug: string) => (stored.get(slug) ?? []).map((c) => ({ ...c }));
  const { state } = await SiteBuild.build(p.config, { longLived: true, store: { comments: [...stored.values()].flat().map((c) => ({ ...c })), views: new Map(), loadComments } });
  t.after(() => state.close());
  const apply = (slugs: string[]) => Promise.all(slugs.map(async (slug) => state.updateComments(new Map([[slug, await loadComments(slug)]]))));

  for (const slug of POSTS) stored.get(slug)!.push(comment(slug, 3));
  await apply(POSTS);
  const before = state.held;
  assert.equal(before.renderings, POSTS.length, 'each rebuilt page brought its body rendering into memory');
  assert.equal(before.textPosts, POSTS.length);
  assert.ok(before.keptListBytes > 0, 'the rebuilt pages and mirrors kept their lists');

  await t.test('should let go of nothing when asked again under the lock and told no', async () => {
    assert.equal(await state.shrink(() => false), null);
    assert.deepEqual(state.held, before);
  });

  await t.test('should let go of them all, and say what it held', async () => {
    assert.deepEqual(await state.shrink(), before);
    assert.deepEqual(state.held, { ...before, renderings: 0, textPosts: 0, keptListBytes: 0 });
    assert.equal(state.held.records, POSTS.length, 'post records stay: /api/posts is made of them');
  });

  await t.test('should keep the comment text a request holds (MCP, a comment arriving)', async () => {
    const release = await state.holdCommentTexts(['gamma']);
    await state.shrink();
    assert.equal(state.held.textPosts, 1, 'the held post stays resident');
    const bodies = () => state.site.comments.get('gamma')!.map((c) => c.body.startsWith('Comment '));
    assert.ok(bodies().every(Boolean), 'the held text is still in memory');
    release();
    await state.shrink();
    assert.equal(state.held.textPosts, 0);
    assert.ok(!bodies().some(Boolean), 'let go once released');
  });

  await t.test('should wait for an update that is running, and neither breaks', async () => {
    stored.get('alpha')!.push(comment('alpha', 4));
    const [write] = await Promise.all([state.updateComments(new Map([['alpha', await loadComments('alpha')]])), state.shrink()]);
    assert.ok(write.written.includes('guide/alpha/index.html'));
    assert.equal(state.held.renderings, 0, 'the shrink ran after the rebuild');
  });

  await t.test('should write, after it, what a fresh build writes', async () => {
    // Appended on every post: their text, rendering and lists are read back or made again.
    for (const slug of POSTS) stored.get(slug)!.push(comment(slug, 5));
    await apply(POSTS);
    await state.flushAggregates();
    const page = await readFile(join(p.config.distDir, 'guide/beta/index.html'), 'utf8');
    assert.ok(page.includes('Comment 1 on beta') && page.includes('Comment 5 on beta') && page.includes('second paragraph'), 'the page shows the body and every comment');
    const kept = await Promise.all(OUTPUTS.map((path) => readFile(join(p.config.distDir, path), 'utf8')));
    const again = await makeProject({ files });
    t.after(() => again.remove());
    const { state: fresh } = await SiteBuild.build(again.config, { store: { comments: [...stored.values()].flat(), views: new Map() } });
    await fresh.close();
    assert.deepEqual(kept, await Promise.all(OUTPUTS.map((path) => readFile(join(again.config.distDir, path), 'utf8'))));
  });
});
