/**
 * The category, model and tag mirrors of a site-wide flush come last, as a round that
 * may end early (`stopLists`): what it has not written waits for the next flush with
 * `lists`, after that flush's `/api/posts`, so ~140 MB of mirrors at 10,000 posts never
 * hold `/api/posts` back. A round is finished before the next begins, and a flush that
 * may not stop (shutdown) writes everything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SiteBuild } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';

test('a round of list mirrors stops when told, and the next flushes finish it', { timeout: 60_000 }, async (t) => {
  const slugs = Array.from({ length: 12 }, (_, i) => `post-${String(i).padStart(2, '0')}`);
  const files = Object.fromEntries(slugs.map((slug, i) => [`content/posts/${slug}.md`, postSource({ title: `Post ${i}`, date: '2026-01-01', tags: `t${i % 3}` })]));
  const p = await makeProject({ files });
  t.after(() => p.remove());
  const { state } = await SiteBuild.build(p.config, { longLived: true, store: { comments: [], views: new Map() } });
  t.after(() => state.close());
  const views = async (path: string) => {
    const list = JSON.parse(await readFile(join(p.config.distDir, path), 'utf8')) as { slug: string; views: number }[];
    return list.reduce((sum, r) => sum + r.views, 0);
  };
  // One category, one model and three tags list these posts: five mirrors.
  const mirrors = ['api/category/guide', 'api/model/gpt-5', 'api/tag/t0', 'api/tag/t1', 'api/tag/t2'];
  const updated = async () => (await Promise.all(mirrors.map(views))).filter((n) => n > 0).length;

  await state.updateViews(new Map(slugs.map((s) => [s, 1])));
  let asked = 0;
  await state.flushAggregates({ lists: true, stopLists: () => (asked++, true) });
  assert.equal(await views('api/posts'), 12, '/api/posts is written before any mirror');
  assert.equal(await updated(), 1, 'the round stopped after its first mirror');
  assert.equal(asked, 1);
  assert.equal(state.listsUnderWay, true);
  assert.equal(state.aggregatesPending, true, 'the rest is still due');

  // Newer changes wait for the next round: the round under way is finished first.
  await state.updateViews(new Map([[slugs[0]!, 5]]));
  await state.flushAggregates({ lists: true, stopLists: () => true });
  assert.equal(await views('api/posts'), 16, 'the newer views are in /api/posts at once');
  assert.equal(await updated(), 2, 'one more mirror of the round');
  await state.flushAggregates({ lists: true, stopLists: () => false });
  assert.equal(await updated(), 5, 'the round finished');
  assert.equal(state.listsUnderWay, false);
  assert.equal(await views('api/category/guide'), 12, 'the round carried the views it began with');

  // The next round carries the newer views; a flush that may not stop writes everything.
  assert.equal(state.aggregatesPending, true, 'the newer change still waits for its mirrors');
  await state.flushAggregates({ lists: true });
  assert.deepEqual(await Promise.all(mirrors.map(views)), [16, 16, 8, 4, 4]);
  assert.equal(state.aggregatesPending, false);
});
