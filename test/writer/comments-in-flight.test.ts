/**
 * `CommentsInFlight`: the site-wide flush gives way to comments being answered between
 * its slices, for at most `maxMs` at a time, and not at all under a flood.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CommentsInFlight } from '../../packages/writer/src/rebuild/comments-in-flight.ts';

const settledWithin = async (p: Promise<void>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

test('the flush waits while a comment is answered, and goes on when it is done', async () => {
  const gate = new CommentsInFlight(10_000, 4);
  assert.equal(await settledWithin(gate.giveWay(), 50), true, 'none under way: no wait');
  const done = gate.begin();
  const waiting = gate.giveWay();
  assert.equal(await settledWithin(waiting, 50), false, 'waits while one is under way');
  done();
  done(); // twice is harmless
  assert.equal(gate.size, 0);
  assert.equal(await settledWithin(waiting, 50), true, 'goes on once it is answered');
});

test('the flush waits at most maxMs, and not at all under a flood', async () => {
  const gate = new CommentsInFlight(30, 2);
  const one = gate.begin();
  const started = performance.now();
  await gate.giveWay();
  const waited = performance.now() - started;
  assert.ok(waited >= 25 && waited < 1000, `waited ${Math.round(waited)} ms, at most about 30`);
  const more = [gate.begin(), gate.begin()];
  assert.equal(gate.size, 3);
  assert.equal(await settledWithin(gate.giveWay(), 10), true, 'more than upTo under way: no wait');
  for (const d of [one, ...more]) d();
});
