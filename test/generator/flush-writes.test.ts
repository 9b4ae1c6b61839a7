/**
 * A site-wide flush keeps at most two writes in flight through the thread pool: the
 * pool's other threads stay free for the files of the comments answered meanwhile
 * (with 64 in flight, a comment's publish step queued behind dozens of the flush's
 * calls and took 20–45 ms instead of 3).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { SiteBuild } from '@agora/generator';
import { makeProject, postSource } from '../helpers/project.ts';

test('a site-wide flush writes its big outputs two at a time', { timeout: 120_000 }, async (t) => {
  // Bodies of ~6 KB: /api/posts, the category, model and tag lists are all over the 64 KB
  // under which a flush writes synchronously, so they go through the thread pool.
  const body = 'A paragraph of the post that makes its record longer than a few bytes. '.repeat(90);
  const slugs = Array.from({ length: 60 }, (_, i) => `post-${String(i).padStart(3, '0')}`);
  const files = Object.fromEntries(slugs.map((slug, i) => [`content/posts/${slug}.md`, postSource({ title: `Post ${i}`, date: '2026-01-01', tags: `t${i % 3}` }, `${body}\n`)]));
  const p = await makeProject({ files });
  t.after(() => p.remove());
  const { state } = await SiteBuild.build(p.config, { longLived: true, store: { comments: [], views: new Map() } });
  t.after(() => state.close());

  // Count the temporary files being written (opened for writing, not yet closed).
  const original = fsp.open;
  let open = 0;
  let most = 0;
  let writes = 0;
  fsp.open = (async (...args: Parameters<typeof original>) => {
    const handle = await original(...args);
    if (!String(args[0]).endsWith('.tmp')) return handle;
    writes++;
    most = Math.max(most, ++open);
    const close = handle.close.bind(handle);
    handle.close = () => {
      open--;
      return close();
    };
    return handle;
  }) as typeof original;
  syncBuiltinESMExports();
  t.after(() => {
    fsp.open = original;
    syncBuiltinESMExports();
  });

  await state.updateViews(new Map(slugs.map((s, i) => [s, i + 1])));
  await state.flushAggregates({ lists: true });
  assert.ok(writes >= 5, `the flush wrote its big lists through the thread pool (${writes} files)`);
  assert.ok(most <= 2, `at most two writes in flight (${most} at once)`);
});
