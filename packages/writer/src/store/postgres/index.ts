/**
 * The PostgreSQL store engine: comments, views, tokens and quotas in one database that
 * several writer nodes share. Opening it applies pending migrations (see
 * `migrations.ts`) and takes the change feed's starting point; `changes()` then reports
 * comment writes of other nodes and of CLI commands (see `changes.ts`, `feed.ts`).
 *
 * @example
 * const store = await openPostgresStore(process.env.DATABASE_URL!, 'server');
 * const stop = store.changes((slugs) => rebuild(slugs));
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { StoreError, type Store, type StoreRole } from '../types.ts';
import { PostgresCommentStore } from './comments.ts';
import { mapErrors, toStoreError } from './errors.ts';
import { ChangeFeed, type FeedOptions } from './feed.ts';
import { applyMigrations, currentVersion, LATEST_VERSION, MIGRATIONS, newerSchemaError, type MigrationResult } from './migrations.ts';
import { clientConfig, createPool, type PoolOptions } from './pool.ts';
import { PostgresQuotaStore } from './quotas.ts';
import { PostgresTokenStore } from './tokens.ts';
import { PostgresViewStore } from './views.ts';
import { PostgresAgentStore } from './agents.ts';

/** Options of `openPostgresStore`. */
export interface PostgresStoreOptions extends PoolOptions {
  /** Apply pending migrations at open (default true); false refuses an outdated schema instead. */
  migrate?: boolean;
  /** Change feed timings. */
  feed?: FeedOptions;
  /** This store's name in the change feed (default host, pid and a random part). */
  node?: string;
  /** Told about failures the store recovers from by itself (a dropped connection); default: a warning on stderr. */
  onError?: (error: unknown) => void;
}

/** Connections of a CLI command: it does one thing at a time. */
const TOOL_MAX_CONNECTIONS = 2;

const warn = (error: unknown) => console.warn(`agora: postgres store: ${(error as Error)?.message ?? String(error)}`);

/**
 * Open the store on a PostgreSQL database.
 *
 * @param databaseUrl libpq URL, e.g. `postgres://agora:secret@127.0.0.1:5432/agora`.
 * @param role `server` (a writer node) or `tool` (a CLI command; fewer connections).
 * @param options Pool limits, migration and feed settings.
 * @throws StoreError `version` when the schema is newer than this code, `unavailable` when the database cannot be reached.
 */
/** The PostgreSQL store; its pool is also what the rate limiter of several nodes shares. */
export interface PostgresStore extends Store {
  readonly pool: ReturnType<typeof createPool>;
}

export async function openPostgresStore(databaseUrl: string, role: StoreRole, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const onError = options.onError ?? warn;
  const poolOptions: PoolOptions = { ...options, max: options.max ?? (role === 'tool' ? TOOL_MAX_CONNECTIONS : undefined) };
  const pool = createPool(databaseUrl, poolOptions, onError);
  try {
    if (options.migrate === false) await assertCurrentSchema(pool);
    else await applyMigrations(pool);
    const node = options.node ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const feed = new ChangeFeed(pool, clientConfig(databaseUrl, poolOptions), node, onError, options.feed);
    await mapErrors('read the change feed', () => feed.start());
    const comments = new PostgresCommentStore(pool, node);
    return {
      engine: 'postgres',
      pool,
      comments,
      views: new PostgresViewStore(pool),
      tokens: new PostgresTokenStore(pool),
      quotas: new PostgresQuotaStore(pool),
      agents: new PostgresAgentStore(pool),
      changes: (onChange) => feed.subscribe(onChange),
      async close() {
        await comments.drain();
        await feed.close();
        await pool.end();
      },
    };
  } catch (error) {
    await pool.end().catch(() => {});
    throw toStoreError(error, 'open the PostgreSQL store');
  }
}

async function assertCurrentSchema(pool: ReturnType<typeof createPool>): Promise<void> {
  const version = await mapErrors('read the schema version', () => currentVersion(pool));
  if (version > LATEST_VERSION) throw newerSchemaError(version);
  if (version < LATEST_VERSION) {
    throw new StoreError('version', `The database schema is at version ${version}, this agora needs version ${LATEST_VERSION}: run \`agora db migrate\``);
  }
}

/**
 * Bring a database's schema up to date (`agora db migrate`).
 *
 * @param databaseUrl libpq URL.
 * @returns The versions before and after, and the migrations applied.
 */
export async function migrate(databaseUrl: string): Promise<MigrationResult> {
  const pool = createPool(databaseUrl, { max: 1 }, () => {});
  try {
    return await mapErrors('migrate the schema', () => applyMigrations(pool));
  } finally {
    await pool.end();
  }
}

/** What `agora db status` reports. */
export interface SchemaStatus {
  /** Version the database is at (0: never migrated). */
  version: number;
  /** Version this code needs. */
  latest: number;
  /** Migrations not applied yet. */
  pending: { version: number; name: string }[];
}

/**
 * Read a database's schema version (`agora db status`); changes nothing.
 *
 * @param databaseUrl libpq URL.
 */
export async function schemaStatus(databaseUrl: string): Promise<SchemaStatus> {
  const pool = createPool(databaseUrl, { max: 1 }, () => {});
  try {
    const version = await mapErrors('read the schema version', () => currentVersion(pool));
    return { version, latest: LATEST_VERSION, pending: MIGRATIONS.filter((m) => m.version > version).map(({ version: v, name }) => ({ version: v, name })) };
  } finally {
    await pool.end();
  }
}

export { MIGRATIONS, LATEST_VERSION, type Migration, type MigrationResult } from './migrations.ts';
export type { FeedOptions } from './feed.ts';
export type { PoolOptions } from './pool.ts';
