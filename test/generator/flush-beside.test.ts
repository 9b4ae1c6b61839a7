/**
 * Post rebuilds run beside a site-wide flush (`SiteBuild.updateComments`), not between its
 * slices. Two things a review found that this must not break:
 * - a rebuild changes the site model (its post's comments) before their text is read
 *   back: the flush's next job may show that post (`/debates/`) and must still find the
 *   text, not fail;
 * - a views update queued while a flush runs must not put the post rebuilds after it
 *   behind the whole flush.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SiteBuild, commentHtmlKey, type Comment } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';

test('a rebuild beside a flush does not make the flush show stripped comments', { timeout: 120_000 }, async (t) => {
  // 101 debate topics: /debates/ shows 100 of them.
  const slugs = Array.from({ length: 101 }, (_, i) => `2026-01-01-d${String(i).padStart(3, '0')}`);
  const files = Object.fromEntries(slugs.map((slug, i) => [`content/posts/${slug}.md`, postSource({ title: `Debate ${i}`, date: slug.slice(0, 10), category: 'debates' })]));
  const p = await makeProject({ files });
  t.after(() => p.remove());
  const stored = new Map<string, Comment[]>();
  const comment = (i: number, slug: string): Comment => {
    const body = `Answer number ${i}.`;
    return { id: `c${i}`, slug, author: 'a', model: 'm', date: '2026-01-05', type: 'debate', position: 'pro', body, created_at: new Date(Date.UTC(2026, 0, 5, 0, 0, i)).toISOString(), html: `<p>${body}</p>`, html_key: commentHtmlKey(body) };
  };
  const store = (c: Comment) => stored.set(c.slug, [...(stored.get(c.slug) ?? []), c]);
  // d000's answer is the oldest: its topic is the 101st, not shown on /debates/.
  slugs.forEach((slug, i) => store(comment(i, slug)));
  let slow = false;
  const loadComments = async (slug: string) => {
    if (slow && slug === slugs[0]) await new Promise((r) => setTimeout(r, 3000));
    return (stored.get(slug) ?? []).map((c) => ({ ...c }));
  };
  const { state } = await SiteBuild.build(p.config, { longLived: true, commentTextPosts: 1, store: { comments: [...stored.values()].flat().map((c) => ({ ...c })), views: new Map(), loadComments } });
  t.after(() => state.close());
  // A comment on d050: a flush is pending.
  const pending = comment(500, slugs[50]!);
  store(pending);
  await state.updateComments(new Map([[pending.slug, await loadComments(pending.slug)]]));
  const old = state.site.comments.get(slugs[0]!)![0]!;
  assert.equal(old.html, undefined, "d000's answer has its text on disk only");
  slow = true;
  let rebuild: Promise<unknown> | null = null;
  const giveWay = async () => {
    if (!rebuild) {
      // The publisher's list: what is shown (stripped objects) plus the new answer.
      const fresh = comment(600, slugs[0]!);
      store(fresh);
      rebuild = state.updateComments(new Map([[fresh.slug, [...state.site.comments.get(fresh.slug)!, fresh]]]));
    }
    await new Promise((r) => setTimeout(r, 5));
  };
  // It failed with "Cannot `commentHtml` of comment `c0` without `prepare`" before.
  await state.flushAggregates({ giveWay, lists: false, sliceMs: 0 });
  await rebuild;
  // The next flush shows the new answer on /debates/.
  await state.flushAggregates({ lists: false });
  assert.match(await readFile(join(p.config.distDir, 'debates', 'index.html'), 'utf8'), /Answer number 600\./);
});

test("a views update during a flush does not hold a post's rebuild behind the flush", { timeout: 120_000 }, async (t) => {
  const slugs = ['2026-01-01-a', '2026-01-02-b', '2026-01-03-c'];
  const files = Object.fromEntries(slugs.map((slug, i) => [`content/posts/${slug}.md`, postSource({ title: `Post ${i}`, date: slug.slice(0, 10) })]));
  const p = await makeProject({ files });
  t.after(() => p.remove());
  const comment = (i: number, slug: string): Comment => {
    const body = `Comment number ${i}.`;
    return { id: `c${i}`, slug, author: 'a', model: 'm', date: '2026-01-05', type: 'supplement', position: null, body, created_at: new Date(Date.UTC(2026, 0, 5, 0, 0, i)).toISOString(), html: `<p>${body}</p>`, html_key: commentHtmlKey(body) };
  };
  const { state } = await SiteBuild.build(p.config, { longLived: true, store: { comments: [], views: new Map() } });
  t.after(() => state.close());
  await state.updateComments(new Map([[slugs[0]!, [comment(1, slugs[0]!)]]]));
  let rebuilt: Promise<number> | null = null;
  const giveWay = async () => {
    if (!rebuilt) {
      // The view counter publishes (every viewsFlushMs), then a comment's rebuild comes.
      void state.updateViews(new Map([[slugs[2]!, 7]]));
      const started = performance.now();
      rebuilt = state.updateComments(new Map([[slugs[1]!, [comment(2, slugs[1]!)]]])).then(() => performance.now() - started);
      // A comment being answered: the flush gives way for 2 s.
      await new Promise((r) => setTimeout(r, 2000));
    }
  };
  await state.flushAggregates({ giveWay, lists: false, sliceMs: 0 });
  const ms = await rebuilt!;
  assert.ok(ms < 1500, `the rebuild waited ${Math.round(ms)} ms: behind the whole flush`);
});
