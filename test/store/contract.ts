/**
 * The store contract: what every engine (`store/embedded/`, `store/postgres/`) must do,
 * as one suite each engine's test file runs with its own `open`.
 *
 * @example storeContract('postgres store', async () => { … return { store, openAnother, cleanup }; });
 */
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Comment } from '@agora/generator';
import { StoreError, type Store } from '../../packages/writer/src/store/types.ts';

/** A fresh, empty store for one test, and what the test may do with it. */
export interface ContractTarget {
  store: Store;
  /** A second store on the same data, as another writer node or a CLI process opens it. */
  openAnother(): Promise<Store>;
  /**
   * Whether stores from `openAnother` may add views and take quotas while this one does
   * (several writer nodes). Without it those cases run their concurrency on one store.
   */
  multiNode: boolean;
  /** Close every store opened and delete the data. */
  cleanup(): Promise<void>;
  /** Restart the engine's server (database engines only; the case is skipped without it). */
  restart?(): Promise<void>;
}

let sequence = 0;

/** A valid comment; `created_at` increases with each call unless given. */
export function makeComment(fields: Partial<Comment> = {}): Comment {
  sequence += 1;
  return {
    id: `c_${randomUUID()}`,
    slug: 'a-post',
    author: 'agent',
    model: 'gpt-5',
    date: '2025-05-01',
    type: 'supplement',
    position: null,
    body: `Comment ${sequence}.`,
    created_at: new Date(Date.UTC(2025, 4, 1) + sequence * 1000).toISOString(),
    ...fields,
  };
}

/** Resolves with every slug `store` reported until `expected` are all in; rejects after `ms`. */
export function reported(store: Store, expected: Iterable<string>, ms: number): Promise<Set<string>> {
  const want = new Set(expected);
  const seen = new Set<string>();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`changes() reported ${JSON.stringify([...seen])} within ${ms} ms, expected ${JSON.stringify([...want])}`));
    }, ms);
    const stop = store.changes((slugs) => {
      for (const slug of slugs) seen.add(slug);
      if ([...want].every((s) => seen.has(s))) {
        clearTimeout(timer);
        stop();
        resolve(seen);
      }
    });
  });
}

/** Retry `operation` while the store answers `unavailable` (a database coming back), for at most `ms`. */
export async function whenAvailable<T>(operation: () => Promise<T>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof StoreError && error.code === 'unavailable') || Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Define the contract suite for one engine.
 *
 * @param name Suite name, e.g. `postgres store`.
 * @param open Makes a fresh empty store (and its helpers) for one test.
 */
export function storeContract(name: string, open: () => Promise<ContractTarget>): void {
  /** Run `body` with a fresh target, cleaned up whatever happens. */
  const withStore = (body: (target: ContractTarget) => Promise<void>) => async () => {
    const target = await open();
    try {
      await body(target);
    } finally {
      await target.cleanup();
    }
  };

  describe(`${name} (store contract)`, () => {
    test('should return a post\'s comments oldest first, then by id, without other posts', withStore(async ({ store }) => {
      const at = '2025-05-02T10:00:00.000Z';
      const late = makeComment({ created_at: '2025-05-03T00:00:00.000Z' });
      const b = makeComment({ id: 'c_b', created_at: at });
      const a = makeComment({ id: 'c_a', created_at: at, type: 'debate', position: 'pro' });
      const early = makeComment({ created_at: '2025-05-01T00:00:00.000Z' });
      const other = makeComment({ slug: 'another-post' });
      for (const c of [late, b, a, early, other]) await store.comments.add(c);
      assert.deepEqual(await store.comments.forSlug('a-post'), [early, a, b, late]);
      assert.deepEqual(await store.comments.forSlug('another-post'), [other]);
      assert.deepEqual(await store.comments.forSlug('no-such-post'), []);
    }));

    test('should store 200 concurrent adds, each once', withStore(async ({ store }) => {
      const comments = Array.from({ length: 200 }, (_, i) => makeComment({ slug: `post-${i % 3}` }));
      await Promise.all(comments.map((c) => store.comments.add(c)));
      assert.equal(await store.comments.count(), 200);
      const stored = [...(await store.comments.forSlug('post-0')), ...(await store.comments.forSlug('post-1')), ...(await store.comments.forSlug('post-2'))];
      assert.deepEqual(stored.map((c) => c.id).sort(), comments.map((c) => c.id).sort());
    }));

    test('should get one comment by id, or null', withStore(async ({ store }) => {
      const c = makeComment({ type: 'debate', position: 'con', body: 'Ünïcode and "quotes" and\nnew lines.' });
      await store.comments.add(c);
      assert.deepEqual(await store.comments.get(c.id), c);
      assert.equal(await store.comments.get('c_missing'), null);
    }));

    test('should scan every comment in more than one batch, each once', withStore(async ({ store }) => {
      const comments = Array.from({ length: 1203 }, (_, i) => makeComment({ slug: `post-${i % 7}` }));
      await store.comments.importMany(comments);
      const batches: Comment[][] = [];
      for await (const batch of store.comments.scan()) batches.push(batch);
      assert.ok(batches.length > 1, `expected several batches, got ${batches.length}`);
      const ids = batches.flat().map((c) => c.id);
      assert.equal(ids.length, 1203);
      assert.deepEqual(new Set(ids), new Set(comments.map((c) => c.id)));
      assert.equal(await store.comments.count(), 1203);
    }));

    test('should hide with a reason, unhide and delete, returning the comment as it was', withStore(async ({ store }) => {
      const c = makeComment();
      await store.comments.add(c);
      assert.deepEqual(await store.comments.change(c.id, { action: 'hide', reason: 'spam' }), c);
      const hidden = { ...c, hidden: true, hidden_reason: 'spam' };
      assert.deepEqual(await store.comments.get(c.id), hidden);
      assert.deepEqual(await store.comments.forSlug(c.slug), [hidden]);
      assert.deepEqual(await store.comments.change(c.id, { action: 'hide' }), hidden);
      assert.deepEqual(await store.comments.get(c.id), hidden);
      assert.deepEqual(await store.comments.change(c.id, { action: 'unhide' }), hidden);
      assert.deepEqual(await store.comments.get(c.id), c);
      assert.deepEqual(await store.comments.change(c.id, { action: 'delete' }), c);
      assert.equal(await store.comments.get(c.id), null);
      assert.equal(await store.comments.count(), 0);
      assert.equal(await store.comments.change(c.id, { action: 'hide' }), null);
    }));

    test('should import idempotently by id', withStore(async ({ store }) => {
      const first = [makeComment({ slug: 'p1' }), makeComment({ slug: 'p2' }), makeComment({ slug: 'p2', hidden: true, hidden_reason: 'did not render' })];
      assert.deepEqual(await store.comments.importMany(first), { added: 3, existing: 0, slugs: new Set(['p1', 'p2']) });
      assert.deepEqual(await store.comments.importMany(first), { added: 0, existing: 3, slugs: new Set() });
      const more = [first[0]!, makeComment({ slug: 'p3' })];
      assert.deepEqual(await store.comments.importMany(more), { added: 1, existing: 1, slugs: new Set(['p3']) });
      assert.equal(await store.comments.count(), 4);
      assert.deepEqual(await store.comments.get(first[2]!.id), first[2]);
    }));

    test('should import all or nothing', withStore(async ({ store }) => {
      const good = Array.from({ length: 1100 }, () => makeComment());
      await assert.rejects(store.comments.importMany([...good, makeComment({ id: '' })]));
      assert.equal(await store.comments.count(), 0);
      assert.equal(await store.comments.get(good[0]!.id), null);
    }));

    test('should add concurrent view counts exactly (two stores when several nodes may write)', withStore(async ({ store, openAnother, multiNode }) => {
      const other = multiNode ? await openAnother() : store;
      assert.deepEqual(await store.views.load(), new Map());
      assert.deepEqual(await store.views.add(new Map([['x', 3]])), new Map([['x', 3]]));
      const adds = Array.from({ length: 40 }, (_, i) => (i % 2 ? store : other).views.add(new Map([['x', 1], ['y', 2]])));
      const totals = await Promise.all(adds);
      assert.deepEqual(await store.views.load(), new Map([['x', 43], ['y', 80]]));
      assert.deepEqual(await other.views.load(), new Map([['x', 43], ['y', 80]]));
      // Each batch saw its own increment applied: the totals it got back are all different.
      assert.equal(new Set(totals.map((t) => t.get('x'))).size, 40);
    }));

    test('should insert, list, find and revoke tokens', withStore(async ({ store, openAnother }) => {
      const one = { id: 'tok_1', label: 'one', hash: 'a'.repeat(64), created_at: '2025-05-01T00:00:00.000Z', revoked_at: null };
      const two = { id: 'tok_2', label: 'two', hash: 'b'.repeat(64), created_at: '2025-05-02T00:00:00.000Z', revoked_at: null };
      await store.tokens.insert(two);
      await store.tokens.insert(one);
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
      assert.deepEqual((await store.tokens.list()).sort(byId), [one, two]);
      const other = await openAnother();
      assert.deepEqual(await other.tokens.findByHash('b'.repeat(64)), two);
      assert.equal(await other.tokens.findByHash('c'.repeat(64)), null);
      assert.equal(await other.tokens.revoke('tok_2', '2025-06-01T00:00:00.000Z'), true);
      assert.equal(await store.tokens.revoke('tok_2', '2025-07-01T00:00:00.000Z'), true);
      assert.equal(await store.tokens.revoke('tok_9', '2025-07-01T00:00:00.000Z'), false);
      assert.deepEqual(await store.tokens.findByHash('b'.repeat(64)), { ...two, revoked_at: '2025-06-01T00:00:00.000Z' });
    }));

    test('should never take more than a quota allows under concurrency (across two stores when several nodes may write)', withStore(async ({ store, openAnother, multiNode }) => {
      const other = multiNode ? await openAnother() : store;
      const service = { key: 'service:x', limit: 25 };
      const token = { key: 'token:t', limit: 1000 };
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? store : other).quotas.take('2025-05-01', [service, token])));
      assert.equal(results.filter((r) => r === null).length, 25);
      assert.ok(results.every((r) => r === null || r.key === 'service:x'));
      await Promise.all([store.quotas.flush(), other.quotas.flush()]);
      assert.equal(await store.quotas.used('2025-05-01', 'service:x'), 25);
      // Nothing is taken from the other buckets when one is spent.
      assert.equal(await other.quotas.used('2025-05-01', 'token:t'), 25);
      // The first spent bucket, in the caller's order, is the answer.
      assert.deepEqual(await store.quotas.take('2025-05-01', [token, { key: 'zero', limit: 0 }, service]), { key: 'zero', limit: 0 });
      assert.equal(await store.quotas.used('2025-05-01', 'token:t'), 25);
    }));

    test('should report another store\'s change within 3 s (the files engine polls its journal every 0.5 s), and not a store\'s own', withStore(async ({ store, openAnother, multiNode }) => {
      const other = await openAnother();
      const own: string[][] = [];
      const stopOwn = store.changes((slugs) => own.push([...slugs].sort()));
      try {
        const mine = makeComment({ slug: 'own-write' });
        await store.comments.add(mine);
        // What a CLI process does while the writer runs: import, moderate. The bound counts
        // from before the write (a synced write under the lock), so it leaves room for a slow disk.
        const imported = reported(store, ['imported'], 3000);
        await other.comments.importMany([makeComment({ slug: 'imported' })]);
        await imported;
        const moderated = reported(store, ['own-write'], 3000);
        await other.comments.change(mine.id, { action: 'hide' });
        await moderated;
        // The store's own add came first; had it been reported, it would be first here.
        assert.deepEqual(own[0], ['imported']);
        if (multiNode) {
          // Another writer node learns of this one's adds too.
          const seenByOther = reported(other, ['from-store'], 3000);
          await store.comments.add(makeComment({ slug: 'from-store' }));
          await seenByOther;
        }
      } finally {
        stopOwn();
      }
    }));

    test('should report a change made while the database restarted', withStore(async ({ store, openAnother, restart }, ) => {
      if (!restart) return;
      const other = await openAnother();
      const watching = reported(other, ['after-restart'], 15_000);
      await restart();
      await whenAvailable(() => store.comments.add(makeComment({ slug: 'after-restart' })));
      assert.deepEqual(await watching, new Set(['after-restart']));
    }));
  });
}
