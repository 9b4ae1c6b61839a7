/**
 * PostgreSQL failures as `StoreError`s: what the HTTP layer can answer with a status
 * (503 when the database cannot be reached, 507 when its disk is full). Anything else
 * (a constraint violation, a bug in a query) is passed on as it is.
 */
import { StoreError } from '../types.ts';

/** Node socket errors that mean "the database is not there right now". */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATE classes and codes that are transient: the same call may succeed once the
 * database is back (restarting, overloaded, a statement timed out, a deadlock victim).
 */
function isTransientSqlState(code: string): boolean {
  return (
    code.startsWith('08') || // connection exception
    code === '57P01' || // admin_shutdown (the server is stopping)
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now (starting up, recovering)
    code === '57014' || // query_canceled (statement_timeout)
    code === '53300' || // too_many_connections
    code === '53200' || // out_of_memory
    code === '40001' || // serialization_failure
    code === '40P01' || // deadlock_detected
    code === '55P03' // lock_not_available (lock_timeout)
  );
}

/** pg's own messages for a connection that went away or never came. */
const CONNECTION_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|connection timeout|Query read timeout/i;

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Map an error from `pg` to a `StoreError` when it has a meaning for callers.
 *
 * @param error What `pg` threw.
 * @param doing Words for the failed operation, e.g. "store a comment".
 * @returns A `StoreError` (`unavailable`, `disk_full`) or the error itself.
 */
export function toStoreError(error: unknown, doing: string): unknown {
  if (error instanceof StoreError) return error;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === '53100') {
    return new StoreError('disk_full', `Cannot ${doing}: the PostgreSQL server's disk is full (${message}); free space on the database host`, { cause: error });
  }
  // 57014: the statement limit cancelled it. The server is up; something held it (a lock, a
  // long transaction): "check that the database is running" sent the operator the wrong way.
  if (code === '57014') {
    return new StoreError('unavailable', `Cannot ${doing}: PostgreSQL did not finish it within the statement limit (${message}); the database answers, so look for a lock or a long transaction holding the table (pg_stat_activity); nothing was changed`, { cause: error });
  }
  // The server answered and refused the database or the login: "check that the database
  // is running" sent the operator the wrong way, and the raw message named no fix.
  if (code === '3D000') {
    return new StoreError('unavailable', `Cannot ${doing}: ${message}; create it on the PostgreSQL server (\`createdb <name>\`) or name an existing database in \`DATABASE_URL\``, { cause: error });
  }
  if (code === '28000' || code === '28P01') {
    return new StoreError('unavailable', `Cannot ${doing}: PostgreSQL refused the login (${message}); check the user and password in \`DATABASE_URL\`, and that the server's pg_hba.conf lets that user in from this host`, { cause: error });
  }
  // A TLS setting the server does not meet: the raw message named neither the URL nor sslmode.
  if (/does not support SSL connections/i.test(message)) {
    return new StoreError('unavailable', `Cannot ${doing}: ${message}; \`DATABASE_URL\` asks for TLS (\`sslmode=require\` or stricter): turn ssl on in the server's postgresql.conf, or drop \`sslmode\` from the URL on a network you trust`, { cause: error });
  }
  if (code === '42501') {
    return new StoreError('unavailable', `Cannot ${doing}: the user in \`DATABASE_URL\` lacks a privilege (${message}); the nodes' user needs SELECT, INSERT, UPDATE and DELETE on the tables and USAGE on the sequences, and \`agora db migrate\` a user that may create tables (docs/postgres.md)`, { cause: error });
  }
  if (error instanceof AggregateError || (code !== undefined && (NETWORK_CODES.has(code) || isTransientSqlState(code))) || CONNECTION_MESSAGE.test(message)) {
    return new StoreError('unavailable', `Cannot ${doing}: PostgreSQL is unavailable (${message}); check that the database is running and \`DATABASE_URL\` points to it`, { cause: error });
  }
  return error;
}

/**
 * Run `operation`, turning its `pg` failures into `StoreError`s.
 *
 * @param doing Words for the operation, for the message.
 * @param operation The database work.
 */
export async function mapErrors<T>(doing: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toStoreError(error, doing);
  }
}
