/**
 * How long a key directory is cached: its HTTP freshness (RFC 9111 4.2), the freshness
 * lifetime (`max-age`, or `Expires` less `Date`) less the response's current age (`Age`,
 * 4.2.3), so a directory served by a CDN from its cache is not kept for a whole max-age
 * more: a key its agent took out stops signing when the agent meant it to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyDirectories } from '../../packages/writer/src/agents/key-directory.ts';
import { startTestAgent } from '../helpers/signed-agent.ts';

test('a directory is cached for its remaining freshness: max-age or Expires less its Age', async (t) => {
  const agent = await startTestAgent();
  t.after(() => agent.close());
  let clock = Date.now();
  const directories = new KeyDirectories({ allowLoopback: true, now: () => clock });
  const origin = new URL(agent.origin);
  const fetchesAfter = async (seconds: number) => {
    clock += seconds * 1000;
    await directories.key(origin, agent.keyid);
    return agent.fetches;
  };

  // max-age=600 with Age: 590: fresh for 10 s more, not 600.
  agent.answer = { headers: { 'cache-control': 'max-age=600', age: '590' } };
  assert.equal(await fetchesAfter(0), 1);
  assert.equal(await fetchesAfter(5), 1, 'still fresh 5 s later');
  assert.equal(await fetchesAfter(6), 2, 'stale 11 s later: fetched again');

  // Older than its max-age already: not cached at all.
  agent.answer = { headers: { 'cache-control': 'max-age=60', age: '120' } };
  assert.equal(await fetchesAfter(700), 3);
  assert.equal(await fetchesAfter(1), 4);

  // Expires less Date, less Age.
  const date = new Date(clock);
  agent.answer = { headers: { 'cache-control': '', date: date.toUTCString(), expires: new Date(date.getTime() + 300_000).toUTCString(), age: '280' } };
  assert.equal(await fetchesAfter(1), 5);
  assert.equal(await fetchesAfter(10), 5, 'fresh 10 s later');
  assert.equal(await fetchesAfter(15), 6, 'stale 25 s later (300 - 280 = 20 s)');

  // Without Age, the whole max-age as before.
  agent.answer = { headers: { 'cache-control': 'max-age=60' } };
  assert.equal(await fetchesAfter(100), 7);
  assert.equal(await fetchesAfter(55), 7);
  assert.equal(await fetchesAfter(10), 8);
});
