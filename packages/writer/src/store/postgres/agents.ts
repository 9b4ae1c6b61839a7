/**
 * Web Bot Auth state in PostgreSQL, shared by every node: accepted nonces
 * (`agent_nonces`: a nonce INSERTed by one node is a replay on every other) and the
 * operator's blocks (`agent_blocks`, read on each signed request, so `agora agents
 * block` applies to the next request on every node). Expired nonces are deleted now
 * and then by whichever node claims one.
 */
import type pg from 'pg';
import type { AgentBlock, AgentStore } from '../types.ts';
import { query } from './pool.ts';

/** How often (at most) a node deletes expired nonces (ms). */
const PRUNE_EVERY_MS = 60_000;

export class PostgresAgentStore implements AgentStore {
  private prunedAt = 0;

  constructor(private readonly pool: pg.Pool) {}

  async claimNonce(key: string, expiresAt: Date): Promise<boolean> {
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await query(this.pool, 'delete expired nonces', 'DELETE FROM agent_nonces WHERE expires_at < now()');
    }
    // An expired row with the same key is taken over (its window is over); a live one is a replay.
    const { rowCount } = await query(
      this.pool,
      'record a signature nonce',
      `INSERT INTO agent_nonces (key, expires_at) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE agent_nonces.expires_at < now()`,
      [key, expiresAt.toISOString()],
    );
    return (rowCount ?? 0) === 1;
  }

  async blocks(): Promise<AgentBlock[]> {
    const { rows } = await query<AgentBlock>(this.pool, 'list agent blocks', 'SELECT kind, value, created_at FROM agent_blocks ORDER BY created_at, kind, value');
    return rows;
  }

  async block(block: AgentBlock): Promise<boolean> {
    const { rowCount } = await query(this.pool, 'block an agent', 'INSERT INTO agent_blocks (kind, value, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [block.kind, block.value, block.created_at]);
    return (rowCount ?? 0) === 1;
  }

  async unblock(kind: AgentBlock['kind'], value: string): Promise<boolean> {
    const { rowCount } = await query(this.pool, 'unblock an agent', 'DELETE FROM agent_blocks WHERE kind = $1 AND value = $2', [kind, value]);
    return (rowCount ?? 0) > 0;
  }
}
