/**
 * The comment renderer keeps light and heavy bodies apart (issue 19, point 3): light
 * bodies on their own worker, heavy ones on a worker at a lower CPU priority.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { COMMENT_RULES, COMMENT_WORK_LIMITS, CommentRenderPool, isLightBody } from '@agora/generator';
import { CommentRenderer } from '../../packages/writer/src/comments/comment-renderer.ts';
import type { AppError } from '../../packages/writer/src/errors.ts';
import { WORST_CASES } from '../../bench/comment-limits.ts';

const ORDINARY = 'Confirmed on Debian 12: after `systemctl reload caddy` the certificate renewed.\n\n- step one\n- step two\n\nSee [the docs](https://caddyserver.com/docs/).';

test('isLightBody', async (t) => {
  await t.test('should call an ordinary comment light and every worst case the limits accept heavy', () => {
    assert.equal(isLightBody(ORDINARY), true);
    for (const [name, body] of Object.entries(WORST_CASES)) assert.equal(isLightBody(body), false, name);
  });

  await t.test('should draw the line at a tenth of each work limit and at 2,048 characters', () => {
    const items = COMMENT_WORK_LIMITS.find((l) => l.limit === 'maxListItems')!.max / 10;
    assert.equal(isLightBody('- a\n'.repeat(items)), true);
    assert.equal(isLightBody('- a\n'.repeat(items + 1)), false);
    assert.equal(isLightBody('a'.repeat(2048)), true);
    assert.equal(isLightBody('a'.repeat(2049)), false);
    assert.equal(isLightBody('> '.repeat(Math.floor(COMMENT_RULES.maxDepth / 5)) + 'deep'), true);
    assert.equal(isLightBody('> '.repeat(Math.floor(COMMENT_RULES.maxDepth / 5) + 1) + 'deep'), false);
  });
});

/** Nice values of this process's threads (Linux: field 19 of /proc/self/task/{tid}/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

test('a render pool with niceness lowers its worker thread only (Linux)', { skip: process.platform !== 'linux' }, async (t) => {
  const pool = new CommentRenderPool({ maxWorkers: 1, niceness: 7 });
  t.after(() => pool.close());
  // Relative to the process's own priority: a runner may itself run niced.
  const base = getPriority();
  const lowered = Math.min(19, base + 7);
  const before = threadNiceValues();
  assert.deepEqual([...new Set(before)], [base], 'every thread starts at the process priority');
  await pool.warm();
  const after = threadNiceValues();
  assert.equal(after.filter((n) => n === lowered).length, base === lowered ? after.length : 1, `one thread at nice ${lowered}: ${after.join(' ')}`);
  assert.equal(after.filter((n) => n !== lowered && n !== base).length, 0);
  assert.equal((await pool.render([['a', ORDINARY]])).has('a'), true, 'and it renders');
});

test('CommentRenderer: a light comment never waits behind heavy renders', async (t) => {
  const renderer = new CommentRenderer();
  t.after(() => renderer.close());
  await renderer.warm();
  const done: string[] = [];
  const heaviest = Object.values(WORST_CASES);
  // Two heavy clients: before the split they took both workers and the light comment waited for one.
  const heavy = ['203.0.113.1', '203.0.113.2'].flatMap((client) =>
    heaviest.slice(0, 4).map((body, i) => renderer.render(client, body).then(() => void done.push(`heavy ${client} ${i}`))),
  );
  await new Promise((r) => setTimeout(r, 5));
  const light = renderer.render('198.51.100.1', ORDINARY).then((r) => {
    done.push('light');
    return r;
  });
  assert.match((await light).html, /<a href="https:\/\/caddyserver.com\/docs\/" rel="nofollow ugc noopener">the docs<\/a>/);
  await Promise.all(heavy);
  assert.equal(done[0], 'light', `finished in this order: ${done.join(', ')}`);
});

test('CommentRenderer: the heavy worker runs only while heavy bodies come', async (t) => {
  const renderer = new CommentRenderer({ heavyIdleMs: 100 });
  t.after(() => renderer.close());
  await renderer.warm();
  assert.equal(renderer.heavyWorkerRunning, false, 'not started with the writer');
  await renderer.render('198.51.100.1', ORDINARY);
  assert.equal(renderer.heavyWorkerRunning, false, 'light bodies do not start it');
  const heavy = Object.values(WORST_CASES)[0]!;
  await renderer.render('203.0.113.1', heavy);
  assert.equal(renderer.heavyWorkerRunning, true, 'a heavy body starts it');
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(renderer.heavyWorkerRunning, false, 'stopped after heavyIdleMs without a heavy body');
  assert.match((await renderer.render('203.0.113.1', heavy)).html, /<h4>/, 'and started again for the next');
});

test('CommentRenderer: a worker that cannot start answers 503 render_unavailable with Retry-After, not a 500', async (t) => {
  const renderer = new CommentRenderer();
  t.after(() => renderer.close());
  // As when the process is out of file descriptors: the pool cannot make its worker.
  (renderer as unknown as { light: { pool: { render: () => Promise<never> } } }).light.pool.render = () => Promise.reject(new Error('Cannot start the comment renderer: EMFILE: too many open files'));
  await assert.rejects(renderer.render('client', 'A plain comment with enough text.'), (error: AppError) => {
    assert.equal(error.code, 'render_unavailable');
    assert.equal(error.status, 503);
    assert.match(error.message, /could not start \(Cannot start the comment renderer: EMFILE.*nothing was stored/);
    assert.equal(error.headers['Retry-After'], '5');
    return true;
  });
});
