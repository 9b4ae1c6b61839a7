/**
 * Budgets kept in PostgreSQL: when the database is away, a comment POST is refused by
 * its budget before it reaches the store, so the store's own failure path never ran and
 * `/api/health` said `ok` through an outage (seen once in CI, in
 * postgres-nodes.test.ts). The limiter now reports it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createRateLimits } from '../../packages/writer/src/http/rate-limit.ts';
import { AppError } from '../../packages/writer/src/errors.ts';
import { DEFAULT_LIMITS } from '../../packages/writer/src/http/limits-config.ts';

test('a budget whose database is away answers 503 store_unavailable and reports the store down', { timeout: 30_000 }, async (t) => {
  // Nothing listens on port 1: every connection is refused at once.
  const pool = new pg.Pool({ connectionString: 'postgres://agora@127.0.0.1:1/agora', connectionTimeoutMillis: 2000 });
  t.after(() => pool.end());
  const down: unknown[] = [];
  const limits = createRateLimits(
    DEFAULT_LIMITS,
    { store: { postgresPool: pool }, onStoreDown: (error) => down.push(error) },
  );
  await assert.rejects(limits.guard.comment('203.0.113.7', 'a-post'), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 503);
    assert.equal(error.code, 'store_unavailable');
    return true;
  });
  assert.ok(down.length >= 1, 'reported');
});
