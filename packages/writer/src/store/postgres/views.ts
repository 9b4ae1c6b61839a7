/**
 * View counts in PostgreSQL. A batch of increments is one upsert that adds to the
 * stored count, so the increments of several nodes add up exactly.
 */
import type pg from 'pg';
import type { ViewStore } from '../types.ts';
import { query } from './pool.ts';

export class PostgresViewStore implements ViewStore {
  constructor(private readonly pool: pg.Pool) {}

  async load(): Promise<Map<string, number>> {
    const { rows } = await query<{ slug: string; views: string }>(this.pool, 'read view counts', 'SELECT slug, views FROM views');
    return new Map(rows.map((r) => [r.slug, Number(r.views)]));
  }

  async add(increments: ReadonlyMap<string, number>): Promise<Map<string, number>> {
    // Sorted, so two nodes updating the same slugs lock their rows in the same order (no deadlock).
    const entries = [...increments].filter(([, n]) => n > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length === 0) return new Map();
    const { rows } = await query<{ slug: string; views: string }>(
      this.pool,
      'add view counts',
      `INSERT INTO views (slug, views)
       SELECT slug, n FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS i(slug, n, o) ORDER BY o
       ON CONFLICT (slug) DO UPDATE SET views = views.views + EXCLUDED.views
       RETURNING slug, views`,
      [entries.map(([slug]) => slug), entries.map(([, n]) => n)],
    );
    return new Map(rows.map((r) => [r.slug, Number(r.views)]));
  }
}
