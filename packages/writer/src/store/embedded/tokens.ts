/**
 * Agent tokens of the embedded store: `data/tokens.json` (`{"tokens": [...]}`), only
 * hashes. CLI commands write it under the store lock; the writer re-reads it when its
 * stamp changes, so a token created or revoked by the CLI works at once.
 */
import { stat } from 'node:fs/promises';
import type { TokenRecord, TokenStore } from '../types.ts';
import { isPlainObject, readDataFile, writeDataFile } from './data-file.ts';
import type { FileMutex } from './os-lock.ts';

interface TokensFile {
  tokens: TokenRecord[];
}

const FIX = 'Restore it from a backup, or move it away and issue new tokens with `agora token create`';

const check = (value: unknown): string | null => {
  if (!isPlainObject(value) || !Array.isArray(value.tokens)) return 'expected {"tokens": [...]}';
  for (const t of value.tokens) {
    if (!isPlainObject(t) || typeof t.id !== 'string' || typeof t.hash !== 'string' || typeof t.label !== 'string' || typeof t.created_at !== 'string' || (t.revoked_at !== null && typeof t.revoked_at !== 'string')) {
      return 'a token record lacks `id`, `label`, `hash`, `created_at` or `revoked_at`';
    }
  }
  return null;
};

export class EmbeddedTokens implements TokenStore {
  private cached: { stamp: string; tokens: TokenRecord[] } | null = null;

  constructor(
    readonly path: string,
    private readonly mutex: FileMutex,
  ) {}

  private async stamp(): Promise<string> {
    return stat(this.path).then((s) => `${s.ino}:${s.size}:${s.mtimeMs}`, () => 'missing');
  }

  /** The records as on disk (read again only when the file changed). */
  async list(): Promise<TokenRecord[]> {
    const stamp = await this.stamp();
    if (this.cached?.stamp !== stamp) {
      const file = await readDataFile<TokensFile>(this.path, check, FIX);
      this.cached = { stamp, tokens: file?.tokens ?? [] };
    }
    return this.cached.tokens.map((t) => ({ ...t }));
  }

  async findByHash(hash: string): Promise<TokenRecord | null> {
    return (await this.list()).find((t) => t.hash === hash) ?? null;
  }

  insert(record: TokenRecord): Promise<void> {
    return this.mutex.run(async () => {
      const tokens = await this.list();
      await writeDataFile(this.path, { tokens: [...tokens, record] }, true);
    });
  }

  revoke(id: string, at: string): Promise<boolean> {
    return this.mutex.run(async () => {
      const tokens = await this.list();
      const record = tokens.find((t) => t.id === id);
      if (!record) return false;
      if (record.revoked_at === null) {
        record.revoked_at = at;
        await writeDataFile(this.path, { tokens }, true);
      }
      return true;
    });
  }
}
