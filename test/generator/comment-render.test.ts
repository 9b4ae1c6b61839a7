/** Comment rendering off the main thread: the time budget, per-comment errors, and stored renderings in a build (issue 19: nothing is ever left out). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { build, commentHtmlKey, type Comment } from '@agora/generator';
import { CommentRenderPool } from '../../packages/generator/src/render/comment-pool.ts';
import { makeProject } from '../helpers/project.ts';

/** Passes no pre-check and takes seconds to render on the main thread (issue 9). */
const SLOW = '*_'.repeat(8000);
/** Overflows the stack of a recursive renderer. */
const DEEP = '>'.repeat(4000);
/**
 * Within every rule (maxWork included: a table of 20 columns and 75 rows of entities,
 * under 16 KiB), yet among the slowest bodies the rules accept: ~70 ms, past the tiny
 * budget below on any machine.
 */
const SLOW_TABLE = `|${'h|'.repeat(20)}\n|${'-|'.repeat(20)}\n` + `|${'&amp;&lt;|'.repeat(20)}\n`.repeat(75);

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
    assert.deepEqual(value.get('slow'), { error: 'rendering took longer than 1000 ms', timeout: true });
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
    assert.deepEqual(results.get('slower'), { error: 'rendering took longer than 20 ms', timeout: true });
  });
});

/** Threads of this process (Linux): a worker thread is one more. */
async function threadCount(): Promise<number> {
  return (await readdir('/proc/self/task')).length;
}

test('CommentRenderPool: a close while the worker loads stops that worker; a render meanwhile shares it', { skip: process.platform !== 'linux' && 'counts threads in /proc' }, async () => {
  const settle = () => new Promise((r) => setTimeout(r, 300));
  await settle();
  const before = await threadCount();
  const pool = new CommentRenderPool({ budgetMs: 1000 });
  // Before: the worker that was loading at the close loaded afterwards and stayed, for the
  // life of the process; and a render during the warm-up started a second worker.
  const warming = pool.warm();
  const rendered = pool.render([['a', 'while *warming*']]);
  await warming;
  assert.deepEqual(await rendered, new Map([['a', { html: '<p>while <em>warming</em></p>' }]]));
  const loaded = await threadCount();
  await pool.close();
  await settle();
  assert.equal(await threadCount(), before, 'every worker thread stopped at the close');

  const again = new CommentRenderPool({ budgetMs: 1000 });
  const loading = again.warm().catch((error: unknown) => error);
  await again.close();
  await loading;
  await settle();
  assert.equal(await threadCount(), before, `the worker still loading at the close stopped too (${loaded - before} thread(s) per worker)`);
});

test('stored comments in a build: stored HTML used, the rest rendered, nothing left out', async (t) => {
  const project = await makeProject({ samplePosts: true });
  t.after(() => project.remove());
  const A = '2025-07-29-sqlite-in-production-yes-or-no';
  const B = '2025-08-19-should-agents-write-tests-first';
  const comment = (id: string, slug: string, body: string, at: string, extra: Partial<Comment> = {}): Comment => ({
    id, slug, author: `author-${id}`, model: 'gpt-5', date: '2025-11-01', type: 'supplement', position: null, body, created_at: at, ...extra,
  });
  const GOOD_A = 'A good comment on A.';
  // Stored before the rules existed (or imported by hand): over the limits, no stored HTML.
  const stored = [
    comment('poison-deep', A, DEEP, '2025-11-01T00:00:00.000Z'),
    // Stored HTML for its body: used as it is, never rendered again (the marker proves it).
    comment('good-a', A, GOOD_A, '2025-11-01T00:00:01.000Z', { html: '<p>STORED-RENDERING</p>', html_key: commentHtmlKey(GOOD_A) }),
    // No stored HTML (older data): rendered by the build and handed over to be stored.
    comment('good-b', B, 'A good comment on *B*.', '2025-11-01T00:00:02.000Z'),
  ];
  const plain: [string, string][] = [];
  const rendered: [string, string, string][] = [];
  // A tiny budget, so a comment within every rule still overruns it.
  const { state } = await build(project.config, {
    store: { comments: stored, views: new Map() }, commentBudgetMs: 20,
    onCommentPlain: (c, reason) => plain.push([c.id, reason]),
    onCommentRendered: (c, html, key) => rendered.push([c.id, html, key]),
  });
  t.after(() => state.close());
  const dist = project.config.distDir;
  const page = (slug: string) => readFile(join(dist, decodeURIComponent(state.site.bySlug.get(slug)!.url.slice(1)), 'index.html'), 'utf8');
  const mirror = async (slug: string) => (JSON.parse(await readFile(join(dist, 'api', 'comments', slug), 'utf8')) as Comment[]).map((c) => c.id);

  await t.test('should use stored HTML as it is and render only comments without it', async () => {
    assert.match(await page(A), /<p>STORED-RENDERING<\/p>/);
    assert.deepEqual(rendered, [['good-b', '<p>A good comment on <em>B</em>.</p>', commentHtmlKey('A good comment on *B*.')]]);
    assert.match(await page(B), /A good comment on <em>B<\/em>\./);
  });

  await t.test('should show a stored comment over the limits as escaped text, report it once, and build everything else', async () => {
    assert.deepEqual(plain, [['poison-deep', 'body nests block quotes/lists 4000 deep (line 1); at most 16 levels: flatten the quoting or the list']]);
    assert.match(await page(A), /author-poison-deep/);
    assert.match(await page(A), /<div class="comment-plain">&gt;&gt;&gt;&gt;/);
    assert.deepEqual(await mirror(A), ['poison-deep', 'good-a']);
    const all = await readFile(join(dist, 'comments', 'index.html'), 'utf8');
    assert.match(all, /author-poison-deep/);
  });

  await t.test('should show a comment over the time budget as text without blocking, and keep showing the others', async () => {
    const list = [
      comment('poison-deep', A, DEEP, '2025-11-01T00:00:00.000Z'),
      comment('good-a', A, GOOD_A, '2025-11-01T00:00:01.000Z'),
      comment('slow-a', A, SLOW_TABLE, '2025-11-01T00:00:03.000Z'),
      comment('good-a2', A, 'Another good one on A.', '2025-11-01T00:00:04.000Z'),
    ];
    const { maxDelayMs } = await blockedWhile(async () => {
      await state.updateComments(new Map([[A, list]]));
      await state.flushAggregates();
    });
    assert.ok(maxDelayMs < 1000, `event loop blocked ${maxDelayMs} ms`);
    assert.deepEqual(plain.map(([id]) => id), ['poison-deep', 'slow-a']);
    assert.equal(plain[1]![1], 'rendering took longer than 20 ms');
    assert.match(await page(A), /author-good-a2/);
    assert.match(await page(A), /author-slow-a/);
    assert.deepEqual(await mirror(A), ['poison-deep', 'good-a', 'slow-a', 'good-a2']);
  });

  await t.test('should render a comment again when its body no longer matches its stored HTML (edited in data/)', async () => {
    const edited = comment('good-a', A, 'An edited body of A.', '2025-11-01T00:00:01.000Z', { html: '<p>STORED-RENDERING</p>', html_key: commentHtmlKey(GOOD_A) });
    await state.updateComments(new Map([[A, [edited]]]));
    assert.doesNotMatch(await page(A), /STORED-RENDERING/);
    assert.match(await page(A), /An edited body of A\./);
    assert.deepEqual(rendered.at(-1), ['good-a', '<p>An edited body of A.</p>', commentHtmlKey('An edited body of A.')]);
  });
});

test('plainTextHtml: a stored body shown as text never writes control characters, nor an empty card', async () => {
  const { plainTextHtml } = await import('../../packages/generator/src/render/comment-rendering.ts');
  // Edited in the store: an outside test saw ESC, BEL and SOH written raw into the page, and `   ` as an empty card.
  assert.equal(plainTextHtml('bell \u0007 esc \u001b soh \u0001 <b>'), '<div class="comment-plain">bell \uFFFD esc \uFFFD soh \uFFFD &lt;b&gt;</div>');
  for (const blank of ['   ', '\n\t\n', '\u3164\u200B']) assert.equal(plainTextHtml(blank), '<div class="comment-plain comment-empty">(This stored comment has no visible text.)</div>', JSON.stringify(blank));
  assert.equal(plainTextHtml('line one\nline two'), '<div class="comment-plain">line one\nline two</div>');
});
