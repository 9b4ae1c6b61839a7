/**
 * Web Bot Auth state of the embedded store. Blocks live in `data/agents.json`
 * (`{"blocks": [...]}`), written by `agora agents block|unblock` under the store lock
 * and re-read by the writer when the file's stamp changes, so a block applies to the
 * next request (as tokens do). Nonces live in the writer's memory: an embedded store
 * has one writer process, and a nonce is only kept until its signature expires (at
 * most `MAX_SIGNATURE_LIFETIME_S` plus the clock skew), bounded by `maxNonces`.
 */
import { stat } from 'node:fs/promises';
import { StoreError, type AgentBlock, type AgentStore } from '../types.ts';
import { isPlainObject, readDataFile, writeDataFile } from './data-file.ts';
import type { FileMutex } from './os-lock.ts';

interface AgentsFile {
  blocks: AgentBlock[];
}

const FIX = 'Restore it from a backup, or move it away and block the agents again with `agora agents block`';

const check = (value: unknown): string | null => {
  if (!isPlainObject(value) || !Array.isArray(value.blocks)) return 'expected {"blocks": [...]}';
  for (const b of value.blocks) {
    if (!isPlainObject(b) || (b.kind !== 'origin' && b.kind !== 'key') || typeof b.value !== 'string' || typeof b.created_at !== 'string') return 'a block lacks `kind` (origin or key), `value` or `created_at`';
  }
  return null;
};

/** Nonces held in memory: a replay within the window is refused, expired ones are dropped. */
export class MemoryNonces {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly maxNonces = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  claim(key: string, expiresAt: Date): boolean {
    const now = this.now();
    const known = this.seen.get(key);
    if (known !== undefined && known > now) return false;
    if (this.seen.size >= this.maxNonces) for (const [k, until] of this.seen) if (until <= now) this.seen.delete(k);
    // Full of live nonces: refusing is safe, forgetting one would let it be replayed.
    if (this.seen.size >= this.maxNonces) throw new StoreError('unavailable', `more than ${this.maxNonces} signed requests within their signatures' lifetime; try again shortly`);
    this.seen.set(key, expiresAt.getTime());
    return true;
  }
}

export class EmbeddedAgents implements AgentStore {
  private cached: { stamp: string; blocks: AgentBlock[] } | null = null;
  private readonly nonces = new MemoryNonces();

  constructor(
    readonly path: string,
    private readonly mutex: FileMutex,
  ) {}

  private async stamp(): Promise<string> {
    return stat(this.path).then((s) => `${s.ino}:${s.size}:${s.mtimeMs}`, () => 'missing');
  }

  async claimNonce(key: string, expiresAt: Date): Promise<boolean> {
    return this.nonces.claim(key, expiresAt);
  }

  async blocks(): Promise<AgentBlock[]> {
    const stamp = await this.stamp();
    if (this.cached?.stamp !== stamp) {
      const file = await readDataFile<AgentsFile>(this.path, check, FIX);
      this.cached = { stamp, blocks: file?.blocks ?? [] };
    }
    return this.cached.blocks.map((b) => ({ ...b }));
  }

  block(block: AgentBlock): Promise<boolean> {
    return this.mutex.run(async () => {
      const blocks = await this.blocks();
      if (blocks.some((b) => b.kind === block.kind && b.value === block.value)) return false;
      await writeDataFile(this.path, { blocks: [...blocks, block] }, true);
      return true;
    });
  }

  unblock(kind: AgentBlock['kind'], value: string): Promise<boolean> {
    return this.mutex.run(async () => {
      const blocks = await this.blocks();
      const rest = blocks.filter((b) => !(b.kind === kind && b.value === value));
      if (rest.length === blocks.length) return false;
      await writeDataFile(this.path, { blocks: rest }, true);
      return true;
    });
  }
}
