/**
 * The PostgreSQL store against a real server started for this file: the store
 * contract, then what only a database engine does (migrations, refusal of a newer
 * schema, outages, catch-up of the change feed).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '@agora/generator';
import { dbCommand } from '../../packages/writer/src/commands/db-command.ts';
import { StoreError, type Store } from '../../packages/writer/src/store/types.ts';
import { LATEST_VERSION, MIGRATIONS, migrate, openPostgresStore, schemaStatus, type PostgresStoreOptions } from '../../packages/writer/src/store/postgres/index.ts';
import { createPool } from '../../packages/writer/src/store/postgres/pool.ts';
import { createRateLimits } from '../../packages/writer/src/http/rate-limit.ts';
import { DEFAULT_LIMITS } from '../../packages/writer/src/http/limits-config.ts';
import { POSTGRES_MISSING, sql, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { makeComment, reported, storeContract, whenAvailable } from './contract.ts';

const server = await startPostgres();

/** Quiet stores with a short reconnect delay (tests restart the server). */
const OPTIONS: PostgresStoreOptions = { onError: () => {}, feed: { retryMaxMs: 200 } };


if (!server) {
  test('postgres store', { skip: POSTGRES_MISSING }, () => {});
} else {
  const pgServer: PostgresServer = server;
  after(() => pgServer.remove());

  storeContract('postgres store', async () => {
    const url = await pgServer.createDatabase();
    const stores: Store[] = [await openPostgresStore(url, 'server', OPTIONS)];
    return {
      store: stores[0]!,
      multiNode: true,
      async openAnother() {
        const store = await openPostgresStore(url, 'server', OPTIONS);
        stores.push(store);
        return store;
      },
      async cleanup() {
        await Promise.all(stores.map((s) => s.close()));
      },
      restart: () => pgServer.restart(),
    };
  });

  describe('postgres store (engine)', () => {
    const opened: Store[] = [];
    const open = async (url: string, options: PostgresStoreOptions = {}) => {
      const store = await openPostgresStore(url, 'server', { ...OPTIONS, ...options });
      opened.push(store);
      return store;
    };
    after(() => Promise.all(opened.map((s) => s.close())));

    test('should not crash when the server ends a connection checked out between two statements', async () => {
      // A fast shutdown of the server (57P01) reached a checked-out client outside any
      // query: without a listener, its 'error' event killed a writer node in CI.
      const url = await pgServer.createDatabase();
      const pool = createPool(url, {}, () => {});
      const client = await pool.connect();
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const ended = new Promise((resolve) => client.once('end', resolve));
      await sql(url, 'SELECT pg_terminate_backend($1)', [pid]);
      await ended;
      await assert.rejects(client.query('SELECT 1'));
      client.release(true);
      assert.deepEqual((await pool.query<{ one: number }>('SELECT 1 AS one')).rows, [{ one: 1 }]);
      await pool.end();
    });

    test('should apply the migrations once when two nodes open a new database together', async () => {
      const url = await pgServer.createDatabase();
      assert.deepEqual(await schemaStatus(url), { version: 0, latest: LATEST_VERSION, pending: MIGRATIONS.map(({ version, name }) => ({ version, name })) });
      await Promise.all([open(url), open(url), open(url)]);
      const rows = await sql<{ version: number }>(url, 'SELECT version FROM agora_schema_migrations ORDER BY version');
      assert.deepEqual(rows.map((r) => r.version), MIGRATIONS.map((m) => m.version));
      assert.deepEqual(await migrate(url), { from: LATEST_VERSION, to: LATEST_VERSION, applied: [] });
      assert.deepEqual(await schemaStatus(url), { version: LATEST_VERSION, latest: LATEST_VERSION, pending: [] });
    });

    test('should serve with a node user that may not create tables, once the owner migrated', async () => {
      // docs/postgres.md's split setup: `agora db migrate` as the owner, the nodes as a user
      // with SELECT, INSERT, UPDATE, DELETE and USAGE only. Before: every open ran CREATE TABLE
      // IF NOT EXISTS (PostgreSQL checks CREATE on the schema even when the table exists) and
      // the writer created the rate-limit table itself: `permission denied for schema public`.
      const url = await pgServer.createDatabase();
      const role = `agora_node_${process.pid}`;
      await sql(url, `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${role} LOGIN; END IF; END $$`);
      const asNode = url.replace('postgres://postgres@', `postgres://${role}@`);
      // Not migrated yet: refused, naming who may migrate and what the nodes need.
      await assert.rejects(openPostgresStore(asNode, 'server', OPTIONS), (error: unknown) => {
        assert.ok(error instanceof StoreError, String(error));
        assert.match(error.message, /may not create tables.*agora db migrate.*owner.*SELECT, INSERT, UPDATE and DELETE/s);
        return true;
      });
      await migrate(url);
      await sql(url, `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
      await sql(url, `GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
      const store = await openPostgresStore(asNode, 'server', OPTIONS);
      try {
        const comment = makeComment({ slug: 'a-post' });
        await store.comments.add(comment);
        assert.equal((await store.comments.forSlug('a-post')).length, 1);
        // The shared rate-limit counters: the schema's table, written by the node's user.
        const limits = createRateLimits(DEFAULT_LIMITS, { store: { postgresPool: store.pool } });
        await limits.guard.comment('203.0.113.9', 'a-post');
        assert.equal((await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM agora_rate_limits'))[0]!.n !== '0', true);
      } finally {
        await store.close();
      }
    });

    test('should refuse a database migrated by a newer agora', async () => {
      const url = await pgServer.createDatabase();
      await migrate(url);
      await sql(url, "INSERT INTO agora_schema_migrations (version, name) VALUES ($1, 'from the future')", [LATEST_VERSION + 1]);
      const refused = (error: unknown) => {
        assert.ok(error instanceof StoreError);
        assert.equal(error.code, 'version');
        assert.match(error.message, new RegExp(`version ${LATEST_VERSION + 1}.*version ${LATEST_VERSION}.*Upgrade agora`, 's'));
        return true;
      };
      await assert.rejects(openPostgresStore(url, 'server', OPTIONS), refused);
      await assert.rejects(openPostgresStore(url, 'tool', { ...OPTIONS, migrate: false }), refused);
      await assert.rejects(migrate(url), refused);
    });

    test('should refuse an outdated schema when told not to migrate, naming the command', async () => {
      const url = await pgServer.createDatabase();
      await assert.rejects(openPostgresStore(url, 'tool', { ...OPTIONS, migrate: false }), (error: unknown) => {
        assert.ok(error instanceof StoreError && error.code === 'version');
        assert.match(error.message, /agora db migrate/);
        return true;
      });
    });

    test('should answer unavailable while the database is down, and recover by itself', async () => {
      const url = await pgServer.createDatabase();
      const store = await open(url);
      const other = await open(url);
      const watching = reported(other, ['back'], 15_000);
      await store.comments.add(makeComment({ slug: 'before' }));
      await pgServer.stop();
      try {
        const unavailable = (error: unknown) => error instanceof StoreError && error.code === 'unavailable' && /DATABASE_URL/.test(error.message);
        await assert.rejects(store.comments.add(makeComment()), unavailable);
        await assert.rejects(store.comments.forSlug('before'), unavailable);
        await assert.rejects(store.views.add(new Map([['x', 1]])), unavailable);
        await assert.rejects(store.quotas.take('2025-05-01', [{ key: 'k', limit: 5 }]), unavailable);
        await assert.rejects(store.tokens.list(), unavailable);
        await assert.rejects(openPostgresStore(url, 'tool', OPTIONS), unavailable);
      } finally {
        await pgServer.start();
      }
      await whenAvailable(() => store.comments.add(makeComment({ slug: 'back' })));
      assert.equal((await store.comments.forSlug('before')).length, 1);
      await watching;
    });

    test('should keep every acknowledged comment when the database is killed mid-load', async () => {
      const url = await pgServer.createDatabase();
      const store = await open(url);
      const comments = Array.from({ length: 400 }, () => makeComment({ slug: 'load' }));
      const outcomes = comments.map((c, i) =>
        (i === 150 ? pgServer.kill() : Promise.resolve()).then(() => store.comments.add(c)).then(
          () => 'stored' as const,
          (error: unknown) => {
            assert.ok(error instanceof StoreError && error.code === 'unavailable', `expected unavailable, got ${String(error)}`);
            return 'refused' as const;
          },
        ),
      );
      const results = await Promise.all(outcomes);
      await pgServer.start();
      const stored = new Set((await whenAvailable(() => store.comments.forSlug('load'))).map((c) => c.id));
      comments.forEach((c, i) => {
        if (results[i] === 'stored') assert.ok(stored.has(c.id), `acknowledged comment ${i} is missing`);
      });
      assert.ok(results.includes('refused'), 'the kill should have refused some adds');
    });

    test('should catch up on a change committed while its LISTEN connection was gone', async () => {
      const url = await pgServer.createDatabase();
      const role = `node_b_${process.pid}`;
      await sql(url, `CREATE ROLE ${role} LOGIN SUPERUSER`);
      const writer = await open(url);
      // Catch-up only after a reconnect: the periodic read is off for this node.
      const urlB = url.replace('postgres@', `${role}@`);
      const reader = await open(urlB, { feed: { catchUpMs: 3_600_000, retryMinMs: 50, retryMaxMs: 100 } });
      const first = reported(reader, ['warm-up'], 2000);
      await writer.comments.add(makeComment({ slug: 'warm-up' }));
      await first;
      // Shut the reader out, cut its connections, and wait until they are gone.
      await sql(url, `ALTER ROLE ${role} NOLOGIN`);
      await sql(url, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
      while ((await sql(url, 'SELECT 1 FROM pg_stat_activity WHERE usename = $1', [role])).length > 0) await new Promise((r) => setTimeout(r, 20));
      const caughtUp = reported(reader, ['while-away'], 5000);
      await writer.comments.add(makeComment({ slug: 'while-away' }));
      await sql(url, `ALTER ROLE ${role} LOGIN`);
      assert.deepEqual(await caughtUp, new Set(['while-away']));
    });

    test('should report every slug of an import larger than one notification', async () => {
      const url = await pgServer.createDatabase();
      const writer = await open(url);
      const reader = await open(url);
      const slugs = Array.from({ length: 400 }, (_, i) => `a-rather-long-post-slug-that-takes-room-in-a-payload-${i}`);
      const seen = reported(reader, slugs, 2000);
      const result = await writer.comments.importMany(slugs.map((slug) => makeComment({ slug })));
      assert.equal(result.added, 400);
      assert.equal((await seen).size, 400);
    });

    test('should keep a failed comment from failing the rest of its batch', async () => {
      const url = await pgServer.createDatabase();
      const store = await open(url);
      const taken = makeComment();
      await store.comments.add(taken);
      const batch = [makeComment(), { ...makeComment(), id: taken.id }, makeComment()];
      const results = await Promise.allSettled(batch.map((c) => store.comments.add(c)));
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
      assert.equal(await store.comments.count(), 3);
    });
  });
}

if (server) {
  const pgServer: PostgresServer = server;

  /** Run `agora db <args>` in-process; returns what it printed and the exit code. */
  async function agoraDb(databaseUrl: string, ...args: string[]): Promise<{ out: string; code: number }> {
    const config = loadConfig({ root: process.cwd(), env: { AGORA_STORE: databaseUrl ? 'postgres' : 'files', DATABASE_URL: databaseUrl } });
    let out = '';
    const print = (text: string) => void (out += text);
    const before = process.exitCode;
    process.exitCode = 0;
    try {
      await dbCommand(() => config, { out: print, err: print }).exitOverride().parseAsync(args, { from: 'user' });
      return { out, code: Number(process.exitCode ?? 0) };
    } finally {
      process.exitCode = before;
    }
  }

  describe('agora db', () => {
    test('should show the status, migrate, then show nothing pending', async () => {
      const url = await pgServer.createDatabase();
      const first = await agoraDb(url, 'status');
      assert.match(first.out, /database schema: version 0; this agora: version \d+\npending 1: /);
      assert.match(first.out, /run `agora db migrate`/);
      assert.equal(first.code, 0);
      assert.match((await agoraDb(url, 'migrate')).out, new RegExp(`^applied 1: .*\\n(applied \\d+: .*\\n)*schema is at version ${LATEST_VERSION} \\(was 0\\)`));
      assert.equal((await agoraDb(url, 'migrate')).out, `schema is up to date (version ${LATEST_VERSION})\n`);
      assert.deepEqual(JSON.parse((await agoraDb(url, 'status', '--json')).out), { version: LATEST_VERSION, latest: LATEST_VERSION, pending: [] });
    });

    test('should say how to configure PostgreSQL when the store is the embedded one', async () => {
      const result = await agoraDb('', 'migrate');
      assert.equal(result.code, 1);
      assert.match(result.out, /set `AGORA_STORE=postgres` and `DATABASE_URL`/);
    });
  });
}
