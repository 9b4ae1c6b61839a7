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

test('a budget the database refuses for a missing privilege says so, not that the database cannot be reached', async () => {
  // Before: a node user without rights on agora_rate_limits (the schema's table since
  // migration 4) got 503 "the database cannot be reached" on every comment, /api/health
  // said the same, and the log named no cause, though the database answered
  // "permission denied for table agora_rate_limits".
  const refused = Object.assign(new Error('permission denied for table agora_rate_limits'), { code: '42501' });
  const pool = { query: async () => Promise.reject(refused) } as unknown as pg.Pool;
  const down: unknown[] = [];
  const limits = createRateLimits(DEFAULT_LIMITS, { store: { postgresPool: pool }, onStoreDown: (error) => down.push(error) });
  await assert.rejects(limits.guard.comment('203.0.113.7', 'a-post'), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 503);
    assert.doesNotMatch(error.message, /cannot be reached/);
    // The operator's words (logged as the cause, and /api/health's reason): the privilege and the table.
    assert.match((error.cause as Error).message, /lacks a privilege \(permission denied for table agora_rate_limits\)/);
    return true;
  });
  assert.match((down[0] as Error).message, /agora_rate_limits.*lacks a privilege/);
});
