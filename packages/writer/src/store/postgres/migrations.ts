/**
 * The schema, as an ordered list of versioned migrations. Each runs once, in order,
 * inside one transaction under an advisory lock, so nodes starting together never race
 * and a failed migration leaves the schema as it was. A database whose schema is newer
 * than this code is refused: old code must not write into a shape it does not know.
 *
 * Timestamps and dates are kept as the text the writer made (ISO 8601) so every engine
 * returns exactly what it was given; ordering columns use the "C" collation so they sort
 * by code point, as JavaScript compares strings.
 */
import type pg from 'pg';
import { StoreError } from '../types.ts';
import { transaction } from './pool.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Append only: never edit a released migration, add the next version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'comments, views, tokens, quotas, change feed',
    sql: `
      CREATE TABLE comments (
        id            text COLLATE "C" PRIMARY KEY,
        slug          text COLLATE "C" NOT NULL,
        author        text NOT NULL,
        model         text NOT NULL,
        date          text NOT NULL,
        type          text NOT NULL,
        position      text,
        body          text NOT NULL,
        created_at    text COLLATE "C" NOT NULL,
        hidden        boolean NOT NULL DEFAULT false,
        hidden_reason text,
        CHECK (id <> '' AND slug <> '')
      );
      -- forSlug (one post, oldest first) and scan (keyset pages in the same order).
      CREATE INDEX comments_by_slug ON comments (slug, created_at, id);

      CREATE TABLE views (
        slug  text COLLATE "C" PRIMARY KEY,
        views bigint NOT NULL CHECK (views >= 0)
      );

      CREATE TABLE tokens (
        id         text PRIMARY KEY,
        label      text NOT NULL,
        hash       text NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        revoked_at text
      );
      CREATE UNIQUE INDEX tokens_by_hash ON tokens (hash);

      CREATE TABLE quotas (
        day  text NOT NULL,
        key  text NOT NULL,
        used integer NOT NULL CHECK (used >= 0),
        PRIMARY KEY (day, key)
      );

      -- One row per slug touched by a committed comment write, for nodes catching up.
      CREATE TABLE comment_changes (
        seq  bigserial PRIMARY KEY,
        slug text NOT NULL,
        node text NOT NULL,
        at   timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX comment_changes_by_time ON comment_changes (at);
    `,
  },
  {
    version: 2,
    name: 'stored comment renderings',
    sql: `
      -- The sanitized HTML of each comment, rendered once when it was accepted, and what
      -- it was rendered from (renderer version and body digest): no node renders it again.
      ALTER TABLE comments ADD COLUMN html text, ADD COLUMN html_key text;
    `,
  },
  {
    version: 3,
    name: 'signed agents (Web Bot Auth)',
    sql: `
      -- The verified agent of a signed comment (Signature-Agent origin, JWK thumbprint); null for unsigned ones.
      ALTER TABLE comments ADD COLUMN agent_origin text, ADD COLUMN agent_keyid text,
        ADD CHECK ((agent_origin IS NULL) = (agent_keyid IS NULL));

      -- Nonces of accepted signatures until they expire: a replay is refused on every node.
      CREATE TABLE agent_nonces (
        key        text COLLATE "C" PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX agent_nonces_by_expiry ON agent_nonces (expires_at);

      -- Blocked agent origins and keys (agora agents block).
      CREATE TABLE agent_blocks (
        kind       text NOT NULL CHECK (kind IN ('origin', 'key')),
        value      text COLLATE "C" NOT NULL,
        created_at text NOT NULL,
        PRIMARY KEY (kind, value)
      );
    `,
  },
  {
    version: 4,
    name: 'shared rate-limit counters',
    sql: `
      -- rate-limiter-flexible's own table (http/rate-limit.ts), made by the schema's owner: the
      -- writers created it at start, which a node user without CREATE could not (IF NOT EXISTS:
      -- a database those writers served has it already).
      CREATE TABLE IF NOT EXISTS agora_rate_limits (
        key    varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      );
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** Key of the advisory lock that serialises migrations (any fixed number; "agora" in ASCII). */
const MIGRATION_LOCK = 0x61676f7261;

const CREATE_VERSIONS = `
  CREATE TABLE IF NOT EXISTS agora_schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

/** What `migrate` did. */
export interface MigrationResult {
  /** Schema version before. */
  from: number;
  /** Schema version now. */
  to: number;
  applied: Migration[];
}

/** PostgreSQL's SQLSTATE for a missing privilege. */
const INSUFFICIENT_PRIVILEGE = '42501';

/** The user in `DATABASE_URL` may not change the schema: who may, and what the nodes' user then needs. */
function cannotMigrate(from: number, error: unknown): StoreError {
  return new StoreError(
    'version',
    `Cannot bring the database schema from version ${from} to ${LATEST_VERSION}: the user in \`DATABASE_URL\` may not create tables (${(error as Error).message}). Run \`agora db migrate\` once as a user that may (the database's owner), then give the nodes' user SELECT, INSERT, UPDATE and DELETE on the tables and USAGE on the sequences (docs/postgres.md); nothing was changed`,
    { cause: error },
  );
}

export function newerSchemaError(found: number): StoreError {
  return new StoreError(
    'version',
    `The database schema is at version ${found}, newer than this agora knows (version ${LATEST_VERSION}): a newer agora migrated it. Upgrade agora on this machine to the version the other nodes run; never point older code at a newer schema`,
  );
}

/**
 * Bring the schema to `LATEST_VERSION`. Safe to call from several processes at once.
 *
 * @param pool A pool on the database.
 * @returns The versions before and after, and what was applied.
 */
export async function applyMigrations(pool: pg.Pool): Promise<MigrationResult> {
  return transaction(pool, 'open the PostgreSQL store (its schema check)', async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const from = await currentVersion(client);
    if (from > LATEST_VERSION) throw newerSchemaError(from);
    if (from === LATEST_VERSION) return { from, to: from, applied: [] };
    // Only a schema to change needs CREATE: PostgreSQL checks it for CREATE TABLE IF NOT EXISTS
    // even where the table exists, so a node user with only SELECT, INSERT, UPDATE and DELETE
    // could not open a database its owner had migrated.
    if (from === 0) {
      await client.query(CREATE_VERSIONS).catch((error: unknown) => {
        throw (error as { code?: unknown }).code === INSUFFICIENT_PRIVILEGE ? cannotMigrate(from, error) : error;
      });
    }
    const applied: Migration[] = [];
    for (const migration of MIGRATIONS.filter((m) => m.version > from).sort((a, b) => a.version - b.version)) {
      try {
        await client.query(migration.sql);
      } catch (error) {
        if ((error as { code?: unknown }).code === INSUFFICIENT_PRIVILEGE) throw cannotMigrate(from, error);
        throw new StoreError('version', `Cannot apply migration ${migration.version} (${migration.name}): ${(error as Error).message}; nothing was changed, fix the database or report this`, { cause: error });
      }
      await client.query('INSERT INTO agora_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration);
    }
    return { from, to: Math.max(from, LATEST_VERSION), applied };
  });
}

/** The schema version a database is at (0 when agora never migrated it). */
export async function currentVersion(client: pg.Pool | pg.PoolClient): Promise<number> {
  const exists = await client.query<{ found: boolean }>("SELECT to_regclass('agora_schema_migrations') IS NOT NULL AS found");
  if (!exists.rows[0]?.found) return 0;
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM agora_schema_migrations');
  return rows[0]?.version ?? 0;
}
