/**
 * The network between a node and PostgreSQL cut, the connections left open (a
 * partition, not a stopped server): a query on an open connection waited until the
 * network came back (35–95 s in an outside test), its request unanswered, and the write
 * was stored when it did, after the client had given up. Now a query with no answer past
 * the statement limit and a margin fails as `unavailable` (a 503), its connection is
 * dropped (reset: queued bytes are not sent later), nothing sent during the cut is
 * stored after it, and the store works again once the network is back. A proxy between store and server freezes the traffic as a cut does:
 * bytes sent meanwhile are delivered after it unless their connection was reset.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { StoreError } from '../../packages/writer/src/store/types.ts';
import { openPostgresStore } from '../../packages/writer/src/store/postgres/index.ts';
import { QUERY_TIMEOUT_MARGIN_MS } from '../../packages/writer/src/store/postgres/pool.ts';
import { POSTGRES_MISSING, sql, startPostgres } from '../helpers/postgres.ts';
import { makeComment } from './contract.ts';

/** A TCP proxy to `port` that can freeze: while frozen, bytes wait in it (both ways); a connection reset meanwhile drops its bytes, as TCP drops a reset socket's send queue. */
async function freezableProxy(port: number) {
  let frozen = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const pipe = (from: Socket, to: Socket) => {
    let reset = false;
    from.on('error', () => (reset = true));
    from.on('data', (chunk) => {
      if (!frozen) return void to.write(chunk);
      held.push(() => reset || to.destroyed || to.write(chunk));
    });
    from.on('end', () => (frozen ? held.push(() => reset || to.end()) : to.end()));
    from.on('close', () => {
      if (reset) to.destroy();
    });
  };
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A TCP proxy to `port` that, once armed, lets the next COMMIT through and loses its answer: the connection is closed without it. */
async function commitCuttingProxy(port: number) {
  let armed = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    let cut = false;
    client.on('data', (chunk) => {
      upstream.write(chunk);
      // A simple-protocol Query message holding COMMIT.
      if (armed && chunk.includes('COMMIT\0')) {
        armed = false;
        cut = true;
        setTimeout(() => (client.destroy(), upstream.destroy()), 100);
      }
    });
    upstream.on('data', (chunk) => cut || client.write(chunk));
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    arm: () => void (armed = true),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const pg = await startPostgres();

if (!pg) {
  test('postgres partition', { skip: POSTGRES_MISSING }, () => {});
} else {
  after(() => pg.remove());
  test('a cut network: 503 in bounded time, nothing stored behind it, working again after', async (t) => {
    const url = await pg.createDatabase();
    // Migrated directly, then used through the proxy.
    await (await openPostgresStore(url, 'server', { onError: () => {} })).close();
    const proxy = await freezableProxy(pg.port);
    t.after(() => proxy.close());
    const statementTimeoutMs = 300;
    const store = await openPostgresStore(url.replace(`:${pg.port}/`, `:${proxy.port}/`), 'server', { onError: () => {}, statementTimeoutMs, feed: { retryMaxMs: 200 } });
    t.after(() => store.close());
    const stored = async () => (await sql<{ id: string }>(url, 'SELECT id FROM comments ORDER BY id')).map((r) => r.id);

    await store.comments.add(makeComment({ id: 'before-the-cut', body: 'Stored before the cut.' }));
    proxy.freeze();
    const started = Date.now();
    // Before: no answer until the network came back.
    await assert.rejects(store.comments.add(makeComment({ id: 'during-the-cut', body: 'Sent during the cut.' })), (e: unknown) => e instanceof StoreError && e.code === 'unavailable');
    const ms = Date.now() - started;
    // The margin, then at most 2 s to read back whether it was stored (nor does that answer).
    assert.ok(ms < statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS + 2000 + 3000, `refused after ${ms} ms`);
    const views = store.views.add(new Map([['some-post', 1]]));
    await assert.rejects(views, (e: unknown) => e instanceof StoreError && e.code === 'unavailable');
    proxy.thaw();
    // Nothing sent during the cut is stored once the network is back.
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(await stored(), ['before-the-cut']);
    assert.deepEqual(await sql(url, "SELECT slug FROM views WHERE slug = 'some-post'"), []);
    // And the store works again.
    await store.comments.add(makeComment({ id: 'after-the-cut', body: 'Stored after the cut.' }));
    assert.deepEqual(await stored(), ['after-the-cut', 'before-the-cut']);
  });

  test('a COMMIT whose answer is lost: stored is answered as stored, not 503 "nothing was stored"', async (t) => {
    // The server took the COMMIT and the connection failed before its answer: the client was
    // told nothing was stored and sent a second copy, and the node never showed the first.
    const url = await pg.createDatabase();
    await (await openPostgresStore(url, 'server', { onError: () => {} })).close();
    const proxy = await commitCuttingProxy(pg.port);
    t.after(() => proxy.close());
    const store = await openPostgresStore(url.replace(`:${pg.port}/`, `:${proxy.port}/`), 'server', { onError: () => {}, feed: { retryMaxMs: 200 } });
    t.after(() => store.close());
    await store.comments.add(makeComment({ id: 'warm', body: 'Warms the pool.' }));
    proxy.arm();
    await store.comments.add(makeComment({ id: 'answer-lost', body: 'Its COMMIT answer is lost.' }));
    assert.deepEqual((await sql<{ id: string }>(url, 'SELECT id FROM comments ORDER BY id')).map((r) => r.id), ['answer-lost', 'warm']);
    // And one that was not stored is still refused as such (the read-back finds nothing).
    await sql(url, 'ALTER TABLE comments ADD CONSTRAINT no_refused CHECK (id <> \'refused\')');
    await assert.rejects(store.comments.add(makeComment({ id: 'refused', body: 'Refused by the database.' })));
  });
}
