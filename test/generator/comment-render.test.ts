/** Comment rendering off the main thread: the time budget, per-comment errors, and quarantine in a build. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { build, type Comment } from '@agora/generator';
import { CommentRenderPool } from '../../packages/generator/src/render/comment-pool.ts';
import { makeProject } from '../helpers/project.ts';

/** Passes no pre-check and takes seconds to render on the main thread (issue 9). */
const SLOW = '*_'.repeat(8000);
/** Overflows the stack of a recursive renderer. */
const DEEP = '>'.repeat(4000);
/** Within every rule (a table of 2,000 columns, under 16 KiB), yet a few hundred ms to render. */
const WIDE_TABLE = ['|a'.repeat(2000), '|-'.repeat(2000), '|b'.repeat(2000)].map((row) => `${row}|`).join('\n');

/** Run `fn` and report the longest the event loop was blocked meanwhile (ms). */
async function blockedWhile<T>(fn: () => Promise<T>): Promise<{ value: T; maxDelayMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const value = await fn();
    return { value, maxDelayMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

test('CommentRenderPool', async (t) => {
  const pool = new CommentRenderPool({ budgetMs: 1000 });
  t.after(() => pool.close());
  // Start the worker outside the measurements.
  assert.deepEqual(await pool.render([['warm', 'Hello *there*']]), new Map([['warm', { html: '<p>Hello <em>there</em></p>' }]]));

  await t.test('should stop a slow comment at the budget without blocking the event loop', async () => {
    const { value, maxDelayMs } = await blockedWhile(() => pool.render([['slow', SLOW], ['ok', 'Still *rendered* after it']]));
    assert.deepEqual(value.get('slow'), { error: 'rendering took longer than 1000 ms' });
    assert.deepEqual(value.get('ok'), { html: '<p>Still <em>rendered</em> after it</p>' });
    assert.ok(maxDelayMs < 1000, `event loop blocked ${maxDelayMs} ms`);
  });

  await t.test('should report a renderer error per comment and render the others', async () => {
    const results = await pool.render([['a', 'first **fine** one'], ['deep', DEEP], ['b', 'second fine one']]);
    assert.ok('html' in results.get('a')!);
    assert.ok('error' in results.get('deep')!, 'the deep comment fails');
    assert.ok('html' in results.get('b')!);
  });

  await t.test('should apply a tiny budget to any slow comment', async () => {
    const tiny = new CommentRenderPool({ budgetMs: 20 });
    t.after(() => tiny.close());
    const results = await tiny.render([['warm', 'short text here'], ['slower', '*a'.repeat(6000)]]);
    assert.ok('html' in results.get('warm')!);
    assert.deepEqual(results.get('slower'), { error: 'rendering took longer than 20 ms' });
  });
});

test('quarantine of comments that cannot be rendered', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const A = '2025-07-29-sqlite-in-production-yes-or-no';
  const B = '2025-08-19-should-agents-write-tests-first';
  const comment = (id: string, slug: string, body: string, at: string): Comment => ({
    id, slug, author: `author-${id}`, model: 'gpt-5', date: '2025-11-01', type: 'supplement', position: null, body, created_at: at,
  });
  // Stored before the rules existed (or imported by hand): the store holds a poison comment.
  const stored = [
    comment('poison-deep', A, DEEP, '2025-11-01T00:00:00.000Z'),
    comment('good-a', A, 'A good comment on A.', '2025-11-01T00:00:01.000Z'),
    comment('good-b', B, 'A good comment on B.', '2025-11-01T00:00:02.000Z'),
  ];
  const failures: [string, string][] = [];
  // A tiny budget, so a comment within every rule still overruns it.
  const { state } = await build(project.config, { store: { comments: stored, views: new Map() }, commentBudgetMs: 50, onCommentFailed: (c, reason) => failures.push([c.id, reason]) });
  t.after(() => state.close());
  const dist = project.config.distDir;
  const page = (slug: string) => readFile(join(dist, decodeURIComponent(state.site.bySlug.get(slug)!.url.slice(1)), 'index.html'), 'utf8');
  const mirror = async (slug: string) => (JSON.parse(await readFile(join(dist, 'api', 'comments', slug), 'utf8')) as Comment[]).map((c) => c.id);

  await t.test('should report the failing comment once, with the rule it breaks, and build everything else', async () => {
    assert.deepEqual(failures, [['poison-deep', 'body nests block quotes/lists 4000 deep (line 1); at most 16 levels: flatten the quoting or the list']]);
    assert.match(await page(A), /author-good-a/);
    assert.match(await page(B), /author-good-b/);
    assert.doesNotMatch(await page(A), /author-poison-deep/);
    assert.deepEqual(await mirror(A), ['good-a']);
    const all = await readFile(join(dist, 'comments', 'index.html'), 'utf8');
    assert.match(all, /author-good-a/);
    assert.doesNotMatch(all, /author-poison-deep/);
  });

  await t.test('should quarantine a comment over the time budget without blocking, and keep showing the others', async () => {
    const list = [
      comment('poison-deep', A, DEEP, '2025-11-01T00:00:00.000Z'),
      comment('good-a', A, 'A good comment on A.', '2025-11-01T00:00:01.000Z'),
      comment('slow-a', A, WIDE_TABLE, '2025-11-01T00:00:03.000Z'),
      comment('good-a2', A, 'Another good one on A.', '2025-11-01T00:00:04.000Z'),
    ];
    const { maxDelayMs } = await blockedWhile(async () => {
      await state.updateComments(new Map([[A, list]]));
      await state.flushAggregates();
    });
    assert.ok(maxDelayMs < 1000, `event loop blocked ${maxDelayMs} ms`);
    assert.deepEqual(failures.map(([id]) => id), ['poison-deep', 'slow-a']);
    assert.equal(failures[1]![1], 'rendering took longer than 50 ms');
    assert.match(await page(A), /author-good-a2/);
    assert.doesNotMatch(await page(A), /author-poison-deep|author-slow-a/);
    assert.deepEqual(await mirror(A), ['good-a', 'good-a2']);
    const all = await readFile(join(dist, 'comments', 'index.html'), 'utf8');
    assert.match(all, /author-good-a2/);
    assert.doesNotMatch(all, /author-slow-a/);
  });

  await t.test('should not try a quarantined comment again', async () => {
    await state.updateComments(new Map([[A, [comment('slow-a', A, WIDE_TABLE, '2025-11-01T00:00:03.000Z'), comment('good-a3', A, 'A third good one on A.', '2025-11-01T00:00:05.000Z')]]]));
    assert.deepEqual(await mirror(A), ['good-a3']);
    assert.equal(failures.length, 2);
  });
});
