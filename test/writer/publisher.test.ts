/**
 * The publisher (`rebuild/publisher.ts`) appends a comment this process stored to its
 * post's published list; a post changed elsewhere is read from the store. When that
 * read fails, the retry must still publish the appended comment: the store has it,
 * the publisher's own list of additions no longer does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { Comment, SiteBuild } from '@agora/generator';
import { Publisher } from '../../packages/writer/src/rebuild/publisher.ts';
import { HealthState } from '../../packages/writer/src/health.ts';
import type { Store } from '../../packages/writer/src/store/types.ts';

const comment = (id: string): Comment => ({
  id, slug: 'p', author: 'a', model: 'm', date: '2026-01-01', type: 'supplement', position: null, body: `Body ${id}.`, created_at: `2026-01-01T00:00:0${id.length}.000Z`, html: `<p>Body ${id}.</p>`,
});

test('a comment appended while its post waits for a store read that fails is published by the retry', async () => {
  const published = new Map<string, readonly Comment[]>();
  const state = {
    site: { comments: published, posts: [] },
    updateComments: async (lists: ReadonlyMap<string, readonly Comment[]>) => {
      for (const [slug, list] of lists) published.set(slug, list);
      return { written: [], unchanged: 0, removed: [] };
    },
    flushAggregates: async () => ({ written: [], unchanged: 0, removed: [] }),
    aggregatesPending: false,
  } as unknown as SiteBuild;
  const first = comment('c1');
  const added = comment('c22');
  let reads = 0;
  const store = {
    comments: {
      forSlug: async () => {
        if (++reads === 1) throw new Error('store unavailable');
        return [first, added];
      },
    },
  } as unknown as Store;
  const publisher = new Publisher({ state, store, health: new HealthState(), logger: pino({ level: 'silent' }), aggregateDelayMs: 60_000 });
  // A moderator's change (read the store) and this process's new comment, before the rebuild runs.
  const changed = publisher.commentsChanged(['p']);
  const appended = publisher.commentAdded(added);
  assert.equal(await changed, false, 'the first rebuild failed');
  // The retry (on the queue's own, unref'd timer) reads the store again, which has the appended comment.
  const deadline = Date.now() + 5000;
  while (reads < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(await appended, true, 'the appended comment is published by the retry');
  await publisher.close(2000);
  assert.deepEqual(published.get('p')?.map((c) => c.id), ['c1', 'c22']);
});

test('a comment that arrives while the calm release waits for the build lock keeps what its rebuild brought', async () => {
  // A build state whose lock is held (a long flush): the shrink asks again once it is free.
  let freeLock!: () => void;
  const lock = new Promise<void>((r) => (freeLock = r));
  const shrinks: boolean[] = [];
  const state = {
    site: { comments: new Map(), posts: [] },
    shrink: async (still: () => boolean) => {
      await lock;
      shrinks.push(still());
      return null;
    },
  } as unknown as SiteBuild;
  const publisher = new Publisher({ state, store: {} as Store, health: new HealthState(), logger: pino({ level: 'silent' }), releaseAfterMs: 30 });
  // The calm spell since the start ends; the shrink waits for the lock.
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(shrinks, [], 'waiting for the lock');
  publisher.commentArriving();
  freeLock();
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(shrinks, [false], 'asked again under the lock: a comment came, so no shrink');
  // The comment restarted the spell: after it, calm again, and this time it shrinks.
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(shrinks, [false, true]);
  await publisher.close(100);
});

test('on a small site a post\'s next rebuild runs while the site-wide flush its last comment waits for is under way', async () => {
  // A flush that holds until released: the comments answered before it ends wait for it.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const rebuilt: string[][] = [];
  let flushes = 0;
  const published = new Map<string, readonly Comment[]>();
  const state = {
    site: { comments: published, posts: [{ slug: 'p' }] },
    updateComments: async (lists: ReadonlyMap<string, readonly Comment[]>) => {
      for (const [slug, list] of lists) published.set(slug, list);
      rebuilt.push([...lists.values()].flat().map((c) => c.id));
      return { written: [], unchanged: 0, removed: [] };
    },
    flushAggregates: async () => {
      flushes++;
      await held;
      return { written: [], unchanged: 0, removed: [] };
    },
    aggregatesPending: false,
  } as unknown as SiteBuild;
  const publisher = new Publisher({ state, store: {} as Store, health: new HealthState(), logger: pino({ level: 'silent' }), aggregateInlinePosts: 500, releaseAfterMs: 0 });
  const first = publisher.commentAdded(comment('c1'));
  while (flushes === 0) await new Promise((r) => setTimeout(r, 5));
  // The first comment's page is rebuilt and its flush runs: the next comment on the same post is rebuilt now, not after the flush.
  const second = publisher.commentAdded(comment('c22'));
  const deadline = Date.now() + 2000;
  while (rebuilt.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(rebuilt, [['c1'], ['c1', 'c22']], 'the second rebuild ran while the flush was held');
  release();
  assert.deepEqual([await first, await second], [true, true]);
  assert.equal(flushes, 2, 'the second comment waited for a flush that began after it');
  await publisher.close(2000);
});

test('the site-wide outputs follow a rebuild that succeeded only on its retry', async () => {
  let updates = 0;
  let flushes = 0;
  const state = {
    site: { comments: new Map(), posts: Array.from({ length: 600 }, (_, i) => ({ slug: `p${i}` })) },
    updateComments: async () => {
      // A store or disk hiccup: the first rebuild fails, the queue retries it.
      if (++updates === 1) throw new Error('disk hiccup');
      return { written: [], unchanged: 0, removed: [] };
    },
    flushAggregates: async () => {
      flushes++;
      return { written: [], unchanged: 0, removed: [] };
    },
    aggregatesPending: false,
  } as unknown as SiteBuild;
  const publisher = new Publisher({ state, store: {} as Store, health: new HealthState(), logger: pino({ level: 'silent' }), aggregateDelayMs: 20, releaseAfterMs: 0 });
  assert.equal(await publisher.commentAdded(comment('c1')), false, 'its caller is told of the failure');
  const deadline = Date.now() + 5000;
  while ((updates < 2 || flushes === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(updates, 2, 'retried');
  assert.ok(flushes >= 1, 'the counts, feeds and lists follow the retried rebuild');
  await publisher.close(2000);
});

