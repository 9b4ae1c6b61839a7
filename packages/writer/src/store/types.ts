/**
 * The store interface: everything the writer keeps (comments, view counts, agent
 * tokens, daily quotas) behind one small typed surface, so the engine is a choice
 * (`store/embedded/`: lowdb files under `data/`; `store/postgres/`: PostgreSQL).
 *
 * Contract for every engine:
 * - A method that resolves after a write means the write is durable (fsync / COMMIT).
 * - A failure is a `StoreError` with a code the HTTP layer maps (`disk_full` → 507,
 *   `unavailable` → 503, …); a failed write changes nothing.
 * - `changes()` reports writes made by someone else (a moderation command in another
 *   process, another writer node), so the caller can rebuild what they touched.
 */
import type { Comment } from '@agora/generator';

/** Why a store operation failed. */
export type StoreErrorCode =
  /** No space left on the device (ENOSPC, EDQUOT, EFBIG, PostgreSQL 53100). */
  | 'disk_full'
  /** The engine cannot be reached right now (database down, lock wait timed out). */
  | 'unavailable'
  /** A stored file or table does not have the expected shape; the message names it and the fix. */
  | 'corrupt'
  /** Another writer already owns this embedded store. */
  | 'locked'
  /** The schema is newer than this code, or a migration failed. */
  | 'version';

export class StoreError extends Error {
  /** `unknown`: a write was sent and its answer lost, and whether it was stored could not be read back. */
  readonly outcome: 'none' | 'unknown';

  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options: { cause?: unknown; outcome?: 'none' | 'unknown' } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StoreError';
    this.outcome = options.outcome ?? 'none';
  }
}

/** A store failure that says the store is away or full (a database down, a full disk, a read-only folder): `/api/health` names the store. */
export function isStoreOutage(error: unknown): error is StoreError {
  return error instanceof StoreError && (error.code === 'unavailable' || error.code === 'disk_full');
}

/** A moderation change to one stored comment. */
export type CommentChange =
  | { action: 'hide'; reason?: string }
  | { action: 'unhide' }
  | { action: 'delete' };

/** A rendering to store with a comment, if its body is still `body`. */
export interface CommentRenderingUpdate {
  id: string;
  slug: string;
  body: string;
  html: string;
  html_key: string;
}

/** What an import did. */
export interface ImportResult {
  /** Comments stored now. */
  added: number;
  /** Comments whose id was already stored (left as they are: import is idempotent by id). */
  existing: number;
  /** Slugs that gained comments. */
  slugs: Set<string>;
}

export interface CommentStore {
  /**
   * Store one new comment durably. Concurrent calls are group-committed by the engine;
   * each promise resolves once its own comment is durable.
   */
  add(comment: Comment): Promise<void>;
  /** Every comment of one post, hidden ones included, oldest first (`created_at`, then `id`). */
  forSlug(slug: string): Promise<Comment[]>;
  /** One comment by id, or null. */
  get(id: string): Promise<Comment | null>;
  /**
   * Every stored comment, hidden ones included, in batches (one post's comments or a
   * page of rows at a time) so a caller never needs the whole store in memory.
   */
  scan(): AsyncIterable<Comment[]>;
  /** How many comments are stored (hidden included). */
  count(): Promise<number>;
  /** Apply a moderation change; returns the comment as it was before, or null when no such id. */
  change(id: string, change: CommentChange): Promise<Comment | null>;
  /** Store many comments at once (import, store copy); idempotent by id; all or nothing. */
  importMany(comments: readonly Comment[]): Promise<ImportResult>;
  /**
   * Store renderings made after the comments were stored (data older than stored
   * renderings, a renderer upgrade, a body edited in `data/`): each only where the
   * comment's body is still the one rendered. Not a change anyone else must rebuild
   * for. Returns how many were stored.
   */
  setRenderings(renderings: readonly CommentRenderingUpdate[]): Promise<number>;
}

export interface ViewStore {
  /** Every stored count (slug → views). */
  load(): Promise<Map<string, number>>;
  /**
   * Add increments atomically (another node may add at the same time) and return the
   * new totals of those slugs.
   */
  add(increments: ReadonlyMap<string, number>): Promise<Map<string, number>>;
}

/** A stored agent token (never the token itself). */
export interface TokenRecord {
  id: string;
  label: string;
  /** SHA-256 of the token, hex. */
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface TokenStore {
  /** Store a new record (the caller made the token and its hash). */
  insert(record: TokenRecord): Promise<void>;
  list(): Promise<TokenRecord[]>;
  findByHash(hash: string): Promise<TokenRecord | null>;
  /** Set `revoked_at` if not set yet; false when no such id. */
  revoke(id: string, at: string): Promise<boolean>;
}

/** One daily counter to spend from. */
export interface QuotaBucket {
  /** Stable key, e.g. `service:weather-forecast` or `token:tok_1a2b3c4d`. */
  key: string;
  /** Calls allowed per day. */
  limit: number;
}

/** One stored quota count. */
export interface QuotaCount {
  day: string;
  key: string;
  used: number;
}

export interface QuotaStore {
  /**
   * Spend one call from every bucket for `day` (a KST day, YYYY-MM-DD), or none.
   * Returns the first bucket that is already spent (nothing was taken then), or null.
   */
  take(day: string, buckets: readonly QuotaBucket[]): Promise<QuotaBucket | null>;
  /** Calls spent on `day` from a bucket. */
  used(day: string, key: string): Promise<number>;
  /** Every stored count (the days the engine keeps), for `agora store copy`. */
  counts(): Promise<QuotaCount[]>;
  /** Make a count at least `used` (copying between stores; counts never go down). */
  raise(day: string, key: string, used: number): Promise<void>;
  /** Write what is only in memory (engines that batch). */
  flush(): Promise<void>;
}

/** A block of a signing agent (`agora agents block`): every key of an origin, or one key. */
export interface AgentBlock {
  /** `origin` (an https origin, every key of its directory) or `key` (one JWK thumbprint). */
  kind: 'origin' | 'key';
  value: string;
  created_at: string;
}

/**
 * What Web Bot Auth verification keeps: nonces already accepted (so a signature is
 * accepted once, on any node of the store) and the operator's blocks.
 */
export interface AgentStore {
  /**
   * Record a nonce until `expiresAt`; false when it was already recorded and has not
   * expired (a replay). On PostgreSQL every node sees the same nonces.
   */
  claimNonce(key: string, expiresAt: Date): Promise<boolean>;
  /** Every block, oldest first (read from the store each time: CLI changes apply at once). */
  blocks(): Promise<AgentBlock[]>;
  /** Add a block; false when it already exists. */
  block(block: AgentBlock): Promise<boolean>;
  /** Remove a block; false when there was none. */
  unblock(kind: AgentBlock['kind'], value: string): Promise<boolean>;
}

/** The store: one engine behind five parts. */
export interface Store {
  /** `files` or `postgres`. */
  readonly engine: string;
  readonly comments: CommentStore;
  readonly views: ViewStore;
  readonly tokens: TokenStore;
  readonly quotas: QuotaStore;
  readonly agents: AgentStore;
  /**
   * Subscribe to changes made outside this process (moderation commands, other writer
   * nodes): `onChange` gets the slugs whose comments changed. The engine catches up
   * after a reconnect, so a missed notification never leaves the caller stale.
   * Returns the unsubscribe function.
   */
  changes(onChange: (slugs: Set<string>) => void): () => void;
  /** Release locks, connections and timers. */
  close(): Promise<void>;
}

/** Who opens the store. */
export type StoreRole =
  /** The writer (`agora start`): exclusive on an embedded store, one of many nodes on PostgreSQL. */
  | 'server'
  /** A CLI command (moderation, tokens, export/import, build): shares the store with a running server. */
  | 'tool';
