/**
 * Signature nonces of the embedded store survive a restart (issue 22: a nonce is never
 * accepted twice within its window): they are journaled and synced before a nonce is
 * accepted, read back at start, expired ones dropped, a line torn by a crash skipped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournaledNonces } from '../../packages/writer/src/store/embedded/agents.ts';

test('JournaledNonces', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-nonces-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'agent-nonces.jsonl');
  let now = 1_000_000;
  const clock = () => now;

  await t.test('should refuse a replay, also after a restart', async () => {
    const first = new JournaledNonces(path, clock);
    assert.equal(await first.claim('agent:a|n1', new Date(now + 60_000)), true);
    assert.equal(await first.claim('agent:a|n1', new Date(now + 60_000)), false, 'a replay in the same process');
    await first.close();
    // Killed and started again: the journal is all that is left.
    const restarted = new JournaledNonces(path, clock);
    assert.equal(await restarted.claim('agent:a|n1', new Date(now + 60_000)), false, 'a replay after the restart');
    assert.equal(await restarted.claim('agent:a|n2', new Date(now + 60_000)), true);
    await restarted.close();
  });

  await t.test('should forget nonces whose signatures expired, and skip a line torn by a crash', async () => {
    await appendFile(path, '{"k":"agent:a|torn","un');
    now += 120_000;
    const later = new JournaledNonces(path, clock);
    assert.equal(await later.claim('agent:a|n1', new Date(now + 60_000)), true, 'expired: may be used again');
    assert.equal(await later.claim('agent:a|torn', new Date(now + 60_000)), true);
    await later.close();
    const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l.startsWith('{"k":"agent:a|n1"'));
    assert.equal(lines.length, 2, 'each acceptance was journaled');
  });

  await t.test('should rewrite a long journal with the live nonces only, and still refuse their replays', async () => {
    const small = join(dir, 'compact.jsonl');
    const nonces = new JournaledNonces(small, clock, 1000, 5);
    for (let i = 0; i < 5; i++) assert.equal(await nonces.claim(`old-${i}`, new Date(now + 1_000)), true);
    now += 2_000;
    for (let i = 0; i < 3; i++) assert.equal(await nonces.claim(`new-${i}`, new Date(now + 60_000)), true);
    await nonces.close();
    const kept = (await readFile(small, 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { k: string }).k);
    assert.ok(kept.length < 8 && kept.every((k) => k.startsWith('new-')), `only live nonces kept: ${kept.join(', ')}`);
    const again = new JournaledNonces(small, clock);
    for (let i = 0; i < 3; i++) assert.equal(await again.claim(`new-${i}`, new Date(now + 60_000)), false);
    await again.close();
  });
});
