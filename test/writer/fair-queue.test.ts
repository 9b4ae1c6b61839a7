/** The fair scheduler in front of the comment renderer (issue 19: one client never slows another). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FairQueue } from '../../packages/writer/src/comments/fair-queue.ts';

/** A task that records when it starts and finishes after `ms`. */
const task = (log: string[], name: string, ms = 5) => async () => {
  log.push(`start ${name}`);
  await new Promise((r) => setTimeout(r, ms));
  log.push(`end ${name}`);
  return name;
};

test('FairQueue', async (t) => {
  await t.test('should serve clients in turn, so a late client waits for one task, not the whole queue', async () => {
    const queue = new FairQueue(1);
    const log: string[] = [];
    const heavy = [1, 2, 3, 4].map((i) => queue.run('heavy', task(log, `h${i}`)));
    const other = queue.run('other', task(log, 'o1'));
    assert.deepEqual(await Promise.all([...heavy, other]), ['h1', 'h2', 'h3', 'h4', 'o1']);
    assert.deepEqual(log.filter((l) => l.startsWith('start')), ['start h1', 'start o1', 'start h2', 'start h3', 'start h4']);
  });

  await t.test('should run at most one task per client at a time, leaving the other slots to other clients', async () => {
    const queue = new FairQueue(2);
    const log: string[] = [];
    // The heavy client's tasks finish only when released: no timing in this test.
    const gates: (() => void)[] = [];
    const gated = (name: string) => async () => {
      log.push(`start ${name}`);
      await new Promise<void>((r) => gates.push(r));
      log.push(`end ${name}`);
    };
    const heavy = [1, 2, 3].map((i) => queue.run('heavy', gated(`h${i}`)));
    await new Promise((r) => setImmediate(r));
    assert.equal(queue.size, 3);
    assert.deepEqual(log, ['start h1'], 'one task of the heavy client at a time; the second slot stays free');
    await queue.run('other', task(log, 'o1', 0));
    assert.deepEqual(log, ['start h1', 'start o1', 'end o1'], 'the other client is done while the heavy one is still on its first task');
    while (gates.length > 0 || log.filter((l) => l.startsWith('end h')).length < 3) {
      gates.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(heavy);
    assert.equal(queue.size, 0);
  });

  await t.test('should pass a failure to its own caller and go on with the others', async () => {
    const queue = new FairQueue(1);
    const failing = queue.run('a', async () => {
      throw new Error('boom');
    });
    const fine = queue.run('b', async () => 'ok');
    await assert.rejects(failing, /boom/);
    assert.equal(await fine, 'ok');
  });
});
