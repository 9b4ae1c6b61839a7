/**
 * Daily quotas in PostgreSQL, shared by every node. `take` increments every bucket's
 * row in one upsert inside a transaction; the row locks it takes make another node's
 * `take` on the same buckets wait for our COMMIT or ROLLBACK, and when any bucket went
 * over its limit we roll back, so no count ever passes a limit and nothing is taken
 * from the other buckets.
 */
import type pg from 'pg';
import type { QuotaBucket, QuotaCount, QuotaStore } from '../types.ts';
import { query, transaction } from './pool.ts';

/** Days of counts kept (older rows are deleted when a new day starts). */
const KEEP_DAYS = 2;

/** Sentinel thrown inside the transaction to roll it back. */
class Spent {
  constructor(readonly bucket: QuotaBucket) {}
}

export class PostgresQuotaStore implements QuotaStore {
  private prunedFor = '';

  constructor(private readonly pool: pg.Pool) {}

  async take(day: string, buckets: readonly QuotaBucket[]): Promise<QuotaBucket | null> {
    if (buckets.length === 0) return null;
    await this.pruneBefore(day);
    // Sorted keys: every node locks rows in the same order, so two takes never deadlock.
    const keys = [...new Set(buckets.map((b) => b.key))].sort();
    try {
      await transaction(this.pool, 'spend from a quota', async (client) => {
        const { rows } = await client.query<{ key: string; used: number }>(
          `INSERT INTO quotas (day, key, used) SELECT $1, key, 1 FROM unnest($2::text[]) AS key ORDER BY key
           ON CONFLICT (day, key) DO UPDATE SET used = quotas.used + 1
           RETURNING key, used`,
          [day, keys],
        );
        const used = new Map(rows.map((r) => [r.key, r.used]));
        const spent = buckets.find((b) => (used.get(b.key) ?? 0) > b.limit);
        if (spent) throw new Spent(spent);
      });
      return null;
    } catch (error) {
      if (error instanceof Spent) return error.bucket;
      throw error;
    }
  }

  async used(day: string, key: string): Promise<number> {
    const { rows } = await query<{ used: number }>(this.pool, 'read a quota', 'SELECT used FROM quotas WHERE day = $1 AND key = $2', [day, key]);
    return rows[0]?.used ?? 0;
  }

  async counts(): Promise<QuotaCount[]> {
    const { rows } = await query<QuotaCount>(this.pool, 'read quotas', 'SELECT day, key, used FROM quotas ORDER BY day, key');
    return rows;
  }

  async raise(day: string, key: string, used: number): Promise<void> {
    await query(this.pool, 'copy a quota', 'INSERT INTO quotas (day, key, used) VALUES ($1, $2, $3) ON CONFLICT (day, key) DO UPDATE SET used = GREATEST(quotas.used, EXCLUDED.used)', [day, key, used]);
  }

  /** Nothing to do: every `take` is committed before it returns. */
  async flush(): Promise<void> {}

  /** Once per day seen by this node: drop counts of days long past. */
  private async pruneBefore(day: string): Promise<void> {
    if (this.prunedFor === day) return;
    this.prunedFor = day;
    await query(this.pool, 'prune old quotas', `DELETE FROM quotas WHERE day < to_char($1::date - ${KEEP_DAYS}, 'YYYY-MM-DD')`, [day]).catch(() => {
      this.prunedFor = '';
    });
  }
}
