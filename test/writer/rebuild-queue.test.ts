/**
 * The rebuild queue of the posts' own outputs (`rebuild/queue.ts`): a post's rebuild
 * does not wait behind another post's (lanes), one post is never rebuilt twice at once,
 * requests made while a post's rebuild runs join its next one, and a failed rebuild is
 * retried until it succeeds, its callers told `false` meanwhile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RebuildQueue } from '../../packages/writer/src/rebuild/queue.ts';

/** A run function whose calls the test finishes by hand. */
function controlledRuns() {
  const calls: { slugs: string[]; finish: (error?: Error) => void }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const run = (slugs: Set<string>) =>
    new Promise<void>((resolve, reject) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      calls.push({ slugs: [...slugs].sort(), finish: (error) => { running--; if (error) reject(error); else resolve(); } });
    });
  return { calls, run, mostAtOnce: () => mostAtOnce };
}

const tick = () => new Promise((r) => setImmediate(r));

test('a post rebuild starts beside another post\'s; the same post waits for its own', async () => {
  const r = controlledRuns();
  const queue = new RebuildQueue({ run: r.run, lanes: 4 });
  const heavy = queue.schedule(['heavy']);
  await tick();
  assert.deepEqual(r.calls.map((c) => c.slugs), [['heavy']]);
  // Another post while the heavy one runs: a lane of its own, at once.
  const light = queue.schedule(['light']);
  await tick();
  assert.deepEqual(r.calls.map((c) => c.slugs), [['heavy'], ['light']]);
  r.calls[1]!.finish();
  assert.equal(await light, true, 'answered while the heavy rebuild still runs');
  // The heavy post again, twice, while its rebuild runs: one next rebuild, after this one.
  const again = [queue.schedule(['heavy']), queue.schedule(['heavy', 'other'])];
  await tick();
  assert.deepEqual(r.calls.map((c) => c.slugs), [['heavy'], ['light'], ['other']], '`other` starts; `heavy` waits for its own rebuild');
  r.calls[0]!.finish();
  assert.equal(await heavy, true);
  await tick();
  assert.deepEqual(r.calls[3]!.slugs, ['heavy'], 'the waiting requests of `heavy` share one rebuild');
  r.calls[2]!.finish();
  r.calls[3]!.finish();
  assert.deepEqual(await Promise.all(again), [true, true]);
  await queue.idle(1000);
});

test('lanes bound the rebuilds running at once; waiting posts are batched into the next free lane', async () => {
  const r = controlledRuns();
  const queue = new RebuildQueue({ run: r.run, lanes: 2 });
  const answers = ['a', 'b', 'c', 'd', 'e'].map((s) => queue.schedule([s]));
  await tick();
  // a and b take the two lanes; c, d and e wait.
  assert.deepEqual(r.calls.map((c) => c.slugs), [['a'], ['b']]);
  const more = queue.schedule(['f']);
  await tick();
  assert.equal(r.calls.length, 2, 'no third lane');
  r.calls[0]!.finish();
  await tick();
  assert.deepEqual(r.calls[2]!.slugs, ['c', 'd', 'e', 'f'], 'the waiting posts share the next free lane');
  r.calls[1]!.finish();
  r.calls[2]!.finish();
  assert.deepEqual(await Promise.all([...answers, more]), [true, true, true, true, true, true]);
  assert.equal(r.mostAtOnce(), 2);
});

test('a failed rebuild answers false, is retried with its slugs, and recovers', async () => {
  const r = controlledRuns();
  const errors: number[] = [];
  let recovered = 0;
  const queue = new RebuildQueue({ run: r.run, retryMs: 5, onError: (_e, attempt) => errors.push(attempt), onRecovered: () => recovered++ });
  const first = queue.schedule(['p']);
  await tick();
  r.calls[0]!.finish(new Error('disk full'));
  assert.equal(await first, false);
  assert.deepEqual(errors, [1]);
  // The retry comes by itself, with the slug that failed.
  while (r.calls.length < 2) await new Promise((res) => setTimeout(res, 5));
  assert.deepEqual(r.calls[1]!.slugs, ['p']);
  const later = queue.schedule(['p']);
  r.calls[1]!.finish();
  await tick();
  // `later` was asked during the retry: it gets a rebuild of its own after it.
  while (r.calls.length < 3) await tick();
  r.calls[2]!.finish();
  assert.equal(await later, true);
  assert.equal(recovered, 1);
  queue.close();
});
