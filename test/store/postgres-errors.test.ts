/**
 * PostgreSQL failures in words that send the operator the right way: a statement the
 * limit cancelled (57014) said "PostgreSQL is unavailable; check that the database is
 * running", while the database answered and a lock held the table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toStoreError } from '../../packages/writer/src/store/postgres/errors.ts';
import { StoreError } from '../../packages/writer/src/store/types.ts';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

test('a cancelled statement names the lock, a lost connection the database', () => {
  const cancelled = toStoreError(pgError('57014', 'canceling statement due to statement timeout'), 'unhide comment `x`') as StoreError;
  assert.equal(cancelled.code, 'unavailable');
  assert.match(cancelled.message, /^Cannot unhide comment `x`: PostgreSQL did not finish it within the statement limit .*look for a lock or a long transaction.*nothing was changed$/);
  assert.doesNotMatch(cancelled.message, /check that the database is running/);
  const refused = toStoreError(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'store a comment') as StoreError;
  assert.match(refused.message, /PostgreSQL is unavailable .*check that the database is running/);
});

test('a missing database or a refused login names the fix in DATABASE_URL, not a server that is down', () => {
  const noDb = toStoreError(pgError('3D000', 'database "nodb" does not exist'), 'open the store') as StoreError;
  assert.equal(noDb.code, 'unavailable');
  assert.match(noDb.message, /^Cannot open the store: database "nodb" does not exist; create it on the PostgreSQL server \(`createdb <name>`\) or name an existing database in `DATABASE_URL`$/);
  for (const [code, message] of [['28000', 'role "nouser" does not exist'], ['28P01', 'password authentication failed for user "agora"']]) {
    const login = toStoreError(pgError(code!, message!), 'open the store') as StoreError;
    assert.equal(login.code, 'unavailable', code);
    assert.match(login.message, /PostgreSQL refused the login .*check the user and password in `DATABASE_URL`/, code);
    assert.doesNotMatch(login.message, /check that the database is running/, code);
  }
});

test('a missing privilege and a refused TLS request name the setting to change', () => {
  // Before: the raw `permission denied for schema public` and `The server does not support SSL connections`.
  const denied = toStoreError(pgError('42501', 'permission denied for table comments'), 'store a comment') as StoreError;
  assert.equal(denied.code, 'unavailable');
  assert.match(denied.message, /lacks a privilege \(permission denied for table comments\); the nodes' user needs SELECT, INSERT, UPDATE and DELETE on the tables/);
  const tls = toStoreError(new Error('The server does not support SSL connections'), 'open the store') as StoreError;
  assert.equal(tls.code, 'unavailable');
  assert.match(tls.message, /`DATABASE_URL` asks for TLS \(`sslmode=require` or stricter\)/);
  assert.doesNotMatch(tls.message, /check that the database is running/);
});
