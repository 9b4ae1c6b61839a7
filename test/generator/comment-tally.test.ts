/**
 * The site-wide comment tally (`model/comment-views.ts`: `/comments/`, `/debates/`, the
 * site-wide comment feed, `/api/comments/count`) is kept up to date as comments are
 * appended, so a comment costs itself, not the site. After any sequence of appends,
 * hides, edits and out-of-order arrivals through `SiteBuild.updateComments`, every
 * view of it must equal what a model made from scratch shows; and the outputs a
 * rebuild writes must equal those of a fresh build.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SiteBuild, type Comment } from '@agora/generator';
import { buildSiteModel } from '../../packages/generator/src/model/site.ts';
import { commentGroups, debateSelection, newestComments, recentlyCommented } from '../../packages/generator/src/model/comment-views.ts';
import { feedComments } from '../../packages/generator/src/model/feeds.ts';
import { commentCountsJson } from '../../packages/generator/src/model/records.ts';
import type { SiteModel } from '../../packages/generator/src/types.ts';
import { CommentCards } from '../../packages/generator/src/render/pages/comment-card.ts';
import { makeProject, postSource } from '../helpers/project.ts';

const POSTS = ['alpha', 'beta', 'gamma', 'delta'];
const MODELS = ['claude', 'gpt', 'gemini'];
/**
 * Site-wide outputs the tally feeds, and each post's page and comment mirror (their
 * comments are kept as bytes and appended to: `render/kept-list-bytes.ts`).
 */
const SITE_WIDE = ['api/comments/count', 'comments/index.html', 'debates/index.html', 'comments/feed.json', 'comments/feed.atom', 'comments/index.md', 'api/views',
  ...POSTS.flatMap((slug, i) => [`api/comments/${slug}`, `${i === 3 ? 'debates' : 'guide'}/${slug}/index.html`])];

/** A deterministic stream of comments: ordinary and debate, over four posts and three models. */
function commentAt(i: number, createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()): Comment {
  const debate = i % 3 === 0;
  return {
    id: `c${String(i).padStart(4, '0')}`, slug: POSTS[i % POSTS.length]!, author: `agent ${i % 5}`, model: MODELS[i % MODELS.length]!,
    date: createdAt.slice(0, 10), type: debate ? 'debate' : 'supplement', position: debate ? (['pro', 'con', 'neutral'] as const)[i % 3 === 0 ? (i / 3) % 3 : 0]! : null,
    body: `Comment number ${i}.`, created_at: createdAt, html: `<p>Comment number ${i}.</p>`,
  };
}

/** Everything the tally feeds, as plain values. */
function shown(site: SiteModel) {
  const ids = (list: readonly Comment[]) => list.map((c) => c.id);
  return {
    groups: commentGroups(site).map((g) => ({ model: g.model, total: g.total, newest: ids(g.newest) })),
    debates: (({ topics, total }) => ({ total, topics: topics.map((t) => ({ post: t.post.slug, sides: Object.fromEntries(Object.entries(t.sides).map(([p, s]) => [p, { total: s.total, newest: ids(s.newest) }])) })) }))(debateSelection(site)),
    feed: ids(feedComments(site)),
    newest: ids(newestComments(site, 7)),
    counts: commentCountsJson(site),
    recent: (({ posts, commented }) => ({ commented, posts: posts.map((p) => p.slug) }))(recentlyCommented(site)),
  };
}

test('the kept comment tally equals a fresh one after appends, hides, edits and late arrivals', async (t) => {
  const files: Record<string, string> = {};
  POSTS.forEach((slug, i) => (files[`content/posts/${slug}.md`] = postSource({ title: slug, date: `2026-01-0${i + 1}`, category: i === 3 ? 'debates' : 'guide', tags: 'a' }, `The conclusion of ${slug}.\n`)));
  const p = await makeProject({ files });
  t.after(() => p.remove());
  const { state } = await SiteBuild.build(p.config, { longLived: true, store: { comments: [], views: new Map() } });
  const stored = new Map<string, Comment[]>(POSTS.map((s) => [s, []]));
  // What the state was given so far (a copy: `stored` runs ahead of it).
  const applied = new Map<string, Comment[]>();
  const fresh = () => buildSiteModel({ config: state.site.config, posts: state.site.posts, comments: [...applied.values()].flat(), views: state.site.views, catalog: state.site.catalog });
  const apply = async (slugs: string[]) => {
    for (const s of slugs) applied.set(s, stored.get(s)!.map((c) => ({ ...c })));
    await state.updateComments(new Map(slugs.map((s) => [s, applied.get(s)!.map((c) => ({ ...c }))])));
    assert.deepEqual(shown(state.site), shown(fresh()));
  };

  // Appends, one post at a time and several at once (the tally is kept from the first read on).
  assert.deepEqual(shown(state.site), shown(fresh()));
  for (let i = 0; i < 120; i++) {
    const c = commentAt(i);
    stored.get(c.slug)!.push(c);
    if (i % 10 === 9) await apply(POSTS);
    else if (i % 4 === 0) await apply([c.slug]);
  }
  await apply(POSTS);
  // A moderator hides one of the newest (the feed and the model's group must drop it).
  const newestOfAlpha = stored.get('alpha')!.at(-1)!;
  newestOfAlpha.hidden = true;
  await apply(['alpha']);
  // An edited comment (same id, other model) and a late arrival sorting before existing ones.
  const beta = stored.get('beta')!;
  beta[3] = { ...beta[3]!, model: 'mistral', body: 'Edited.', html: '<p>Edited.</p>' };
  stored.get('gamma')!.push({ ...commentAt(500, '2025-12-31T23:59:59.000Z'), slug: 'gamma' });
  await apply(['beta', 'gamma']);
  // A debate answer on a non-debate post makes it a topic; more appends after all that.
  stored.get('beta')!.push({ ...commentAt(600), slug: 'beta', type: 'debate', position: 'con' });
  for (let i = 601; i < 640; i++) stored.get(POSTS[i % 4]!)!.push(commentAt(i));
  await apply(POSTS);
  assert.ok(shown(state.site).debates.topics.some((t) => t.post === 'beta'), 'beta became a debate topic');

  // The site-wide outputs a rebuild writes are the bytes a fresh build writes.
  await state.flushAggregates();
  const read = (path: string) => readFile(join(p.config.distDir, path), 'utf8');
  const kept = await Promise.all(SITE_WIDE.map(read));
  await state.close();
  const again = await makeProject({ files });
  t.after(() => again.remove());
  const { state: rebuilt } = await SiteBuild.build(again.config, { store: { comments: [...stored.values()].flat(), views: new Map() } });
  await rebuilt.close();
  const readAgain = (path: string) => readFile(join(again.config.distDir, path), 'utf8');
  assert.deepEqual(kept, await Promise.all(SITE_WIDE.map(readAgain)));
});

/** A kept list's bytes as text. */
const joined = (chunks: readonly Uint8Array[]) => Buffer.concat(chunks).toString();

test("a new comment's card is appended to the post's kept card list; other changes join the list again", () => {
  let rendered = 0;
  const bodyHtml = (c: Comment) => {
    rendered++;
    return c.html!;
  };
  const post = { slug: 'alpha' } as unknown as Parameters<CommentCards['list']>[0];
  const cards = new CommentCards(bodyHtml);
  const fresh = (list: Comment[]) => joined(new CommentCards((c) => c.html!).list(post, list));
  const all = Array.from({ length: 5 }, (_, i) => ({ ...commentAt(i * 4), slug: 'alpha' }));
  assert.equal(joined(cards.list(post, all.slice(0, 3))), fresh(all.slice(0, 3)));
  assert.equal(rendered, 3);
  // Appended: only the new cards are made.
  assert.equal(joined(cards.list(post, all.slice(0, 5))), fresh(all.slice(0, 5)));
  assert.equal(rendered, 5, 'two new cards, the first three kept');
  // The same list again: nothing made.
  const same = all.slice(0, 5);
  cards.list(post, same);
  rendered = 0;
  cards.list(post, same);
  assert.equal(rendered, 0);
  // A hidden comment (not an append): joined again, and equal to a fresh join.
  const hidden = [all[0]!, all[2]!, all[3]!, all[4]!];
  assert.equal(joined(cards.list(post, hidden)), fresh(hidden));
  assert.equal(rendered, 4);
  assert.ok(!joined(cards.list(post, hidden)).includes(`id="comment-${all[1]!.id}"`));
});

test('kept card lists are bounded: the least recently shown go first and are joined again when shown', () => {
  let rendered = 0;
  const bodyHtml = (c: Comment) => {
    rendered++;
    return c.html!;
  };
  const postOf = (slug: string) => ({ slug }) as unknown as Parameters<CommentCards['list']>[0];
  const [alpha, beta, gamma] = ['alpha', 'beta', 'gamma'].map(postOf) as [ReturnType<typeof postOf>, ReturnType<typeof postOf>, ReturnType<typeof postOf>];
  const listOf = (slug: string) => Array.from({ length: 3 }, (_, i) => ({ ...commentAt(i * 4), slug, id: `${slug}-${i}` }));
  const lists = { alpha: listOf('alpha'), beta: listOf('beta'), gamma: listOf('gamma') };
  const oneList = joined(new CommentCards(bodyHtml).list(alpha, lists.alpha)).length;
  // Room for two posts' lists.
  const cards = new CommentCards(bodyHtml, oneList * 2 + 10);
  const fresh = (post: ReturnType<typeof postOf>, list: Comment[]) => joined(new CommentCards((c) => c.html!).list(post, list));
  cards.list(alpha, lists.alpha);
  cards.list(beta, lists.beta);
  rendered = 0;
  cards.list(alpha, lists.alpha);
  cards.list(beta, lists.beta);
  assert.equal(rendered, 0, 'both kept');
  // A third post: the least recently shown (alpha) goes, beta stays.
  assert.equal(joined(cards.list(gamma, lists.gamma)), fresh(gamma, lists.gamma));
  assert.equal(rendered, 3);
  rendered = 0;
  cards.list(beta, lists.beta);
  assert.equal(rendered, 0, 'beta kept');
  assert.equal(joined(cards.list(alpha, lists.alpha)), fresh(alpha, lists.alpha), 'alpha joined again, the same HTML');
  assert.equal(rendered, 3, 'alpha was let go');
});

test('warm makes every post\'s record ahead of the first site-wide flush', async (t) => {
  const files: Record<string, string> = {};
  POSTS.forEach((slug, i) => (files[`content/posts/${slug}.md`] = postSource({ title: slug, date: `2026-01-0${i + 1}`, tags: 'a' }, `The conclusion of ${slug}.\n`)));
  const p = await makeProject({ files });
  t.after(() => p.remove());
  const { state } = await SiteBuild.build(p.config, { longLived: true, store: { comments: [commentAt(1), commentAt(2)], views: new Map() } });
  t.after(() => state.close());
  // A build that wrote everything made them already: drop them to see warm make them again.
  (state as unknown as { state: { records: Map<string, unknown> } }).state.records.clear();
  assert.equal(state.held.records, 0);
  await state.warm();
  assert.equal(state.held.records, POSTS.length);
  const fresh = buildSiteModel({ config: state.site.config, posts: state.site.posts, comments: [commentAt(1), commentAt(2)], views: new Map(), catalog: null });
  assert.deepEqual(shown(state.site), shown(fresh), 'the tally warm made is the one a fresh model makes');
});

