/**
 * The connection pool and the two ways the store uses it: one query, or one
 * transaction on a checked-out client. Every client that can emit `error` has a
 * handler, so a dropped connection rejects the work in flight and never crashes the
 * process (an `error` event without a listener would).
 */
import pg from 'pg';
import { mapErrors } from './errors.ts';

/** Connection settings of `createPool` (defaults in `POOL_DEFAULTS`). */
export interface PoolOptions {
  /** Most connections one store opens (default 10). */
  max?: number;
  /** How long to wait for a connection before failing with `unavailable` (default 5000 ms). */
  connectionTimeoutMs?: number;
  /** Server-side limit of one statement (default 15000 ms). */
  statementTimeoutMs?: number;
}

export const POOL_DEFAULTS: Required<PoolOptions> = { max: 10, connectionTimeoutMs: 5000, statementTimeoutMs: 15_000 };

/**
 * How much longer than the server's statement limit a query waits for its answer before
 * the connection counts as dead. A live server answers within `statementTimeoutMs` (or
 * cancels): past that, the network is gone. Without this a query on an open connection
 * waited until the network came back (35–95 s in an outside test), its request unanswered.
 */
export const QUERY_TIMEOUT_MARGIN_MS = 5000;

/** The error pg gives when `query_timeout` passes. */
const isQueryTimeout = (error: unknown) => (error as Error)?.message === 'Query read timeout';

/**
 * Drop a dead connection's socket at once, with what it still holds to send (a TCP
 * reset, not a close): a closed socket still delivers its queued bytes once the network
 * is back, and a write answered 503 was then stored after all.
 */
function resetSocket(client: pg.PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: { resetAndDestroy?: () => void; destroy?: () => void } } }).connection?.stream;
  if (stream?.resetAndDestroy) stream.resetAndDestroy();
  else stream?.destroy?.();
}

/** Give a client back: to the pool when it is fine; destroyed, its socket reset first, when its connection `broken`. */
function release(client: pg.PoolClient, broken?: Error): void {
  if (broken) resetSocket(client);
  client.release(broken);
}

/** Client settings shared by the pool and the LISTEN connection. */
export function clientConfig(databaseUrl: string, options: PoolOptions = {}): pg.ClientConfig {
  const o = { ...POOL_DEFAULTS, ...options };
  return {
    connectionString: databaseUrl,
    application_name: 'agora',
    connectionTimeoutMillis: o.connectionTimeoutMs,
    statement_timeout: o.statementTimeoutMs,
    query_timeout: o.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
    // A node that dies inside a transaction must not keep its row locks for long.
    idle_in_transaction_session_timeout: o.statementTimeoutMs * 2,
    keepAlive: true,
    // Idle connections cut off by the network are found in seconds, not the system's two hours.
    keepAliveInitialDelayMillis: 10_000,
  };
}

/**
 * Open a pool (connections are made on first use).
 *
 * @param databaseUrl libpq URL.
 * @param options Limits.
 * @param onError Told about errors of idle connections (logged by the caller; the pool replaces them).
 */
export function createPool(databaseUrl: string, options: PoolOptions, onError: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({ ...clientConfig(databaseUrl, options), max: options.max ?? POOL_DEFAULTS.max, idleTimeoutMillis: 30_000 });
  pool.on('error', onError);
  // pg-pool listens for errors of idle clients and of clients running a query, but not
  // of a client checked out between two statements (a transaction, or rate-limiter
  // and pool internals): a server shutting down (57P01) then emitted an unhandled
  // 'error' and killed the writer. One listener per connection, for its life; the next
  // statement on that client fails and is answered as `unavailable`.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * Run `work` in one transaction on a checked-out client: COMMIT when it resolves,
 * ROLLBACK when it throws. Failures come back as `StoreError`s where they have a meaning.
 *
 * @param pool The pool.
 * @param doing Words for the operation, for error messages.
 * @param work The statements; may return a value.
 */
export async function transaction<T>(pool: pg.Pool, doing: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return mapErrors(doing, async () => {
    const client = await pool.connect();
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken = error;
    };
    client.on('error', onError);
    let committing = false;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      committing = true;
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // Failed after the COMMIT was sent: the server may have committed (`duringCommit`).
      if (committing && typeof error === 'object' && error !== null) Object.assign(error, { duringCommit: true });
      // No answer in time: the connection is dead, and a ROLLBACK on it would wait as long again.
      if (isQueryTimeout(error)) broken = error as Error;
      broken ??= await client.query('ROLLBACK').then(
        () => undefined,
        (rollbackError: Error) => rollbackError,
      );
      throw error;
    } finally {
      client.removeListener('error', onError);
      // A client whose connection failed is destroyed instead of going back to the pool.
      release(client, broken);
    }
  });
}

/**
 * Run one statement on the pool.
 *
 * @param pool The pool.
 * @param doing Words for the operation, for error messages.
 * @param text SQL.
 * @param values Parameters.
 */
export function query<R extends pg.QueryResultRow>(pool: pg.Pool, doing: string, text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
  return mapErrors(doing, async () => {
    const client = await pool.connect();
    try {
      const result = await client.query<R>(text, values);
      release(client);
      return result;
    } catch (error) {
      // A dead connection (no answer in time, or dropped) goes, with what it still holds to send.
      const dead = isQueryTimeout(error) || !(error as { code?: unknown }).code;
      release(client, dead ? (error as Error) : undefined);
      throw error;
    }
  });
}
