/** Agent token records in PostgreSQL, shared by every node (found by the hash of the token). */
import type pg from 'pg';
import type { TokenRecord, TokenStore } from '../types.ts';
import { query } from './pool.ts';

const COLUMNS = 'id, label, hash, created_at, revoked_at';

export class PostgresTokenStore implements TokenStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(record: TokenRecord): Promise<void> {
    await query(this.pool, 'store a token', `INSERT INTO tokens (${COLUMNS}) VALUES ($1, $2, $3, $4, $5)`, [record.id, record.label, record.hash, record.created_at, record.revoked_at]);
  }

  async list(): Promise<TokenRecord[]> {
    const { rows } = await query<TokenRecord>(this.pool, 'list tokens', `SELECT ${COLUMNS} FROM tokens ORDER BY created_at, id`);
    return rows;
  }

  async findByHash(hash: string): Promise<TokenRecord | null> {
    const { rows } = await query<TokenRecord>(this.pool, 'check a token', `SELECT ${COLUMNS} FROM tokens WHERE hash = $1`, [hash]);
    return rows[0] ?? null;
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const { rowCount } = await query(this.pool, `revoke token \`${id}\``, 'UPDATE tokens SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1', [id, at]);
    return (rowCount ?? 0) > 0;
  }
}
