/**
 * A node's view of the change feed (see `changes.ts`): one dedicated LISTEN connection,
 * reconnected with backoff when it drops, plus catch-up reads of `comment_changes`
 * after every connect and every `catchUpMs`. Reports only other nodes' writes, each
 * change once. Also prunes feed rows older than a day now and then.
 */
import pg from 'pg';
import { CHANNEL, parseNotice } from './changes.ts';

/** Settings of the change feed (defaults in `FEED_DEFAULTS`). */
export interface FeedOptions {
  /** Period of the safety-net catch-up read (default 3000 ms). */
  catchUpMs?: number;
  /** Longest time between a feed row's INSERT and its COMMIT that catch-up tolerates (default 30 s). */
  windowMs?: number;
  /** First and longest reconnect delay (default 100 ms, 5000 ms). */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Feed rows older than this are deleted (default one day). */
  keepMs?: number;
}

export const FEED_DEFAULTS: Required<FeedOptions> = { catchUpMs: 3000, windowMs: 30_000, retryMinMs: 100, retryMaxMs: 5000, keepMs: 24 * 3600_000 };

/** How often one node prunes old feed rows. */
const PRUNE_EVERY_MS = 10 * 60_000;

type Listener = (slugs: Set<string>) => void;
type Queryable = Pick<pg.Pool, 'query'> | pg.Client;

export class ChangeFeed {
  private readonly options: Required<FeedOptions>;
  private readonly listeners = new Set<Listener>();
  /** Highest seq read so far, and the server time of that read. */
  private cursor = { seq: 0, readAt: new Date(0) };
  /** Seqs already reported or skipped → local time seen (forgotten after a few windows). */
  private readonly seen = new Map<number, number>();
  private client: pg.Client | null = null;
  private connecting = false;
  private retryDelay: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private interval: NodeJS.Timeout | undefined;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private lastPrune = 0;
  private closed = false;

  /**
   * @param pool For catch-up reads while the LISTEN connection is down.
   * @param config Connection settings for the LISTEN connection.
   * @param node This process's node id: its own writes are not reported.
   * @param onError Told about connection losses and failed reads (the feed recovers by itself).
   * @param options Timings.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly config: pg.ClientConfig,
    private readonly node: string,
    private readonly onError: (error: unknown) => void,
    options: FeedOptions = {},
  ) {
    this.options = { ...FEED_DEFAULTS, ...options };
    this.retryDelay = this.options.retryMinMs;
  }

  /** Take the starting point: changes committed before now are not reported. Call at open, before the caller reads. */
  async start(): Promise<void> {
    const { rows } = await this.pool.query<{ read_at: Date; max_seq: string; recent: string[] }>(
      `SELECT now() AS read_at, (SELECT coalesce(max(seq), 0) FROM comment_changes) AS max_seq,
              ARRAY(SELECT seq FROM comment_changes WHERE at > now() - $1 * interval '1 millisecond') AS recent`,
      [this.options.windowMs],
    );
    const row = rows[0]!;
    this.cursor = { seq: Number(row.max_seq), readAt: row.read_at };
    const now = Date.now();
    for (const seq of row.recent) this.seen.set(Number(seq), now);
  }

  /** Add a listener; the first one opens the LISTEN connection and starts the catch-up timer. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1 && !this.closed) {
      void this.connect();
      this.interval = setInterval(() => void this.catchUp(), this.options.catchUpMs);
      this.interval.unref();
    }
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      this.stop();
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    while (this.reading) await this.reading;
  }

  private stop(): void {
    clearInterval(this.interval);
    clearTimeout(this.retryTimer);
    this.interval = undefined;
    this.retryTimer = undefined;
    const client = this.client;
    this.client = null;
    if (client) void client.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.connecting || this.client || this.closed || this.listeners.size === 0) return;
    this.connecting = true;
    const client = new pg.Client({ ...this.config, keepAliveInitialDelayMillis: 10_000, query_timeout: Number(this.config.statement_timeout) || 15_000 });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === CHANNEL) this.notified(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      this.connecting = false;
      this.lost(client, error);
      return;
    }
    this.connecting = false;
    if (this.closed || this.listeners.size === 0) {
      void client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.retryDelay = this.options.retryMinMs;
    // Whatever was committed while we were not listening.
    await this.catchUp();
  }

  /** The LISTEN connection failed or ended: drop it and reconnect after a growing delay. */
  private lost(client: pg.Client, error?: unknown): void {
    if (this.client === client) this.client = null;
    else if (this.client !== null || this.connecting) return;
    if (error !== undefined) this.onError(error);
    void client.end().catch(() => {});
    if (this.closed || this.listeners.size === 0 || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, this.retryDelay);
    this.retryTimer.unref();
    this.retryDelay = Math.min(this.retryDelay * 2, this.options.retryMaxMs);
  }

  private notified(payload: string | undefined): void {
    const notice = parseNotice(payload);
    if (!notice) return;
    const slugs = new Set<string>();
    for (const [seq, slug] of notice.changes) {
      if (this.seen.has(seq)) continue;
      this.seen.set(seq, Date.now());
      if (notice.node !== this.node) slugs.add(slug);
    }
    this.deliver(slugs);
  }

  /** Read every change not seen yet (single flight; a call during a read runs one more read after it). */
  catchUp(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        const db = this.client ?? this.pool;
        try {
          await this.readOnce(db);
        } catch (error) {
          // A read that fails on the LISTEN connection means that connection is bad too.
          if (db === this.client) this.lost(db, error);
          else this.onError(error);
          return;
        }
      } while (this.readAgain && !this.closed);
    })().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async readOnce(db: Queryable): Promise<void> {
    const { rows } = await db.query<{ read_at: Date; changes: [number, string][] }>(
      `SELECT now() AS read_at, coalesce((
         SELECT json_agg(json_build_array(seq, slug) ORDER BY seq) FROM comment_changes
          WHERE (seq > $1 OR at > $2::timestamptz - $3 * interval '1 millisecond') AND node <> $4
       ), '[]') AS changes`,
      [this.cursor.seq, this.cursor.readAt, this.options.windowMs, this.node],
    );
    const row = rows[0]!;
    const now = Date.now();
    const slugs = new Set<string>();
    let maxSeq = this.cursor.seq;
    for (const [seq, slug] of row.changes) {
      maxSeq = Math.max(maxSeq, seq);
      if (this.seen.has(seq)) continue;
      this.seen.set(seq, now);
      slugs.add(slug);
    }
    this.cursor = { seq: maxSeq, readAt: row.read_at };
    // Seqs older than the read window can no longer come back from a read.
    for (const [seq, at] of this.seen) if (at < now - 3 * this.options.windowMs) this.seen.delete(seq);
    this.deliver(slugs);
    if (now - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await db.query("DELETE FROM comment_changes WHERE at < now() - $1 * interval '1 millisecond'", [this.options.keepMs]);
    }
  }

  private deliver(slugs: Set<string>): void {
    if (slugs.size === 0) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(new Set(slugs));
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
