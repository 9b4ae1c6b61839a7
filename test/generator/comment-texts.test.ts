/**
 * Comment text in memory only where it is shown (`build/comment-texts.ts`): the posts
 * used longest ago keep their comments' fields and HTML key only, a run reads their text
 * back from the store before it shows them, and nothing shows a comment without it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Comment, SiteModel } from '../../packages/generator/src/types.ts';
import { CommentTexts, CommentTextGone } from '../../packages/generator/src/build/comment-texts.ts';
import { commentIdentity, toCommentRecord } from '../../packages/generator/src/model/records.ts';
import { isTextStripped } from '../../packages/generator/src/model/comment-identity.ts';
import { commentHtmlKey, storedHtml } from '../../packages/generator/src/render/comment-rendering.ts';

function comment(slug: string, n: number, rendering: 'current' | 'outdated' | 'none' = 'current'): Comment {
  const body = `Comment ${n} on ${slug}, with **enough** text.`;
  return {
    id: `${slug}-${n}`, slug, author: 'a', model: 'm', date: '2026-01-01', type: 'supplement', position: null, body, created_at: `2026-01-01T00:00:0${n}.000Z`,
    ...(rendering === 'none' ? {} : { html: `<p>${body}</p>`, html_key: rendering === 'current' ? commentHtmlKey(body) : `comment-0:${commentHtmlKey(body).split(':')[1]}` }),
  };
}

/** A site model with these posts' comments, and a store holding copies of them (as read from disk). */
function setup(lists: Record<string, Comment[]>) {
  const site = { comments: new Map(Object.entries(lists)) } as unknown as SiteModel;
  const stored = new Map(Object.entries(lists).map(([slug, list]) => [slug, list.map((c) => ({ ...c }))]));
  const reads: string[] = [];
  const load = async (slug: string) => {
    reads.push(slug);
    return (stored.get(slug) ?? []).map((c) => ({ ...c }));
  };
  return { site, stored, reads, load };
}

test('the comment text of the posts used longest ago is dropped, and read back before it is shown', async (t) => {
  const { site, reads, load } = setup({ p1: [comment('p1', 1), comment('p1', 2)], p2: [comment('p2', 1)], p3: [comment('p3', 1)] });
  const texts = new CommentTexts(load, 1);
  for (const slug of site.comments.keys()) texts.touch(slug);
  const p1 = site.comments.get('p1')!;
  const records = p1.map(toCommentRecord);
  const identities = p1.map(commentIdentity);

  await t.test('should keep the text of the last post used only', () => {
    texts.evict(site);
    assert.equal(texts.residentPosts, 1);
    assert.ok(p1.every(isTextStripped) && site.comments.get('p2')!.every(isTextStripped));
    assert.ok(!isTextStripped(site.comments.get('p3')![0]!));
    assert.ok(!p1[0]!.body.includes('Comment 1'), 'the body is gone from memory');
    assert.equal(p1[0]!.html, undefined);
  });

  await t.test('should keep what job keys compare (every field, the body by its hash)', () => {
    assert.deepEqual(p1.map(commentIdentity), identities);
  });

  await t.test('should refuse to show a comment without its text', () => {
    assert.throws(() => toCommentRecord(p1[0]!), /holds no text in memory/);
    assert.equal(storedHtml(p1[0]!), undefined);
  });

  await t.test('should read the text back from the store, keep it while held, and drop it after', async () => {
    const release = await texts.hold(site, ['p1']);
    assert.deepEqual(reads, ['p1']);
    assert.deepEqual(p1.map(toCommentRecord), records);
    assert.equal(storedHtml(p1[0]!), `<p>${records[0]!.body}</p>`);
    // Another post used meanwhile, over the capacity of one: p1 is held, so p2 goes.
    const releaseP2 = await texts.hold(site, ['p2']);
    assert.ok(!site.comments.get('p2')!.some(isTextStripped));
    releaseP2();
    assert.ok(!p1.some(isTextStripped), 'a held post keeps its text');
    assert.ok(site.comments.get('p2')!.every(isTextStripped), 'the post released is over the capacity while p1 is held');
    release();
    assert.ok(!p1.some(isTextStripped), 'p1, used last, is the one post kept');
    assert.equal(texts.residentPosts, 1);
    reads.length = 0;
    (await texts.hold(site, ['p3']))();
    assert.deepEqual(reads, ['p3']);
    assert.ok(p1.every(isTextStripped), 'dropped once another post was used after it');
  });

  await t.test('should not read a post whose comments hold their text', async () => {
    reads.length = 0;
    (await texts.hold(site, ['p3']))();
    assert.deepEqual(reads, []);
  });
});

test('a comment whose body is needed again keeps its text: no HTML, or HTML of an older renderer', () => {
  const { site, load } = setup({ p1: [comment('p1', 1, 'none'), comment('p1', 2, 'outdated'), comment('p1', 3)], p2: [comment('p2', 1)] });
  const texts = new CommentTexts(load, 1);
  for (const slug of site.comments.keys()) texts.touch(slug);
  texts.evict(site);
  assert.deepEqual(site.comments.get('p1')!.map(isTextStripped), [false, false, true]);
});

test('a comment changed in the store since the model read it is not shown with the wrong text', async () => {
  const { site, stored, load } = setup({ p1: [comment('p1', 1)], p2: [comment('p2', 1)] });
  const texts = new CommentTexts(load, 1);
  for (const slug of site.comments.keys()) texts.touch(slug);
  texts.evict(site);
  stored.get('p1')![0]!.body = 'Edited in the store meanwhile.';
  await assert.rejects(texts.hold(site, ['p1']), CommentTextGone);
  assert.ok(isTextStripped(site.comments.get('p1')![0]!), 'nothing restored');
  // Not held: the failed hold let go of it, so it can be dropped (and read again) later.
  stored.get('p1')!.length = 0;
  await assert.rejects(texts.hold(site, ['p1']), /no longer in the store/);
});

test('without a store to read from, nothing is dropped', () => {
  const { site } = setup({ p1: [comment('p1', 1)], p2: [comment('p2', 1)] });
  const texts = new CommentTexts(undefined, 1);
  for (const slug of site.comments.keys()) texts.touch(slug);
  texts.evict(site);
  assert.ok(![...site.comments.values()].flat().some(isTextStripped));
  assert.equal(texts.enabled, false);
});

test('two holds of a post whose text was dropped read it back once', async () => {
  const { site, reads, load } = setup({ p1: [comment('p1', 1)], p2: [comment('p2', 1)] });
  const texts = new CommentTexts(load, 1);
  for (const slug of site.comments.keys()) texts.touch(slug);
  texts.evict(site);
  assert.ok(isTextStripped(site.comments.get('p1')![0]!));
  const releases = await Promise.all([texts.hold(site, ['p1']), texts.hold(site, ['p1'])]);
  assert.deepEqual(reads, ['p1']);
  assert.ok(!isTextStripped(site.comments.get('p1')![0]!));
  for (const release of releases) release();
});
