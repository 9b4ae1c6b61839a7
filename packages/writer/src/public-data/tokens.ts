/**
 * Agent tokens for the catalog proxy. A token is shown once at creation; only its
 * SHA-256 hash is kept, in `tokens.json` of the data folder (written atomically).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../generator/src/emit/atomic-write.ts';

/** A stored token (never the token itself). */
export interface TokenRecord {
  id: string;
  label: string;
  /** SHA-256 of the token, hex. */
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

/** What `verifyToken` finds. */
export type TokenCheck = { status: 'valid'; id: string; label: string } | { status: 'revoked'; id: string } | { status: 'unknown' };

/** Name of the token file inside the data folder. */
export const TOKENS_FILE = 'tokens.json';

const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

function isRecord(value: unknown): value is TokenRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<TokenRecord>;
  return typeof r.id === 'string' && typeof r.hash === 'string' && typeof r.label === 'string' && typeof r.created_at === 'string' && (r.revoked_at === null || typeof r.revoked_at === 'string');
}

async function readTokens(dataDir: string): Promise<TokenRecord[]> {
  let text: string;
  try {
    text = await readFile(join(dataDir, TOKENS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = JSON.parse(text) as { tokens?: unknown };
  if (!Array.isArray(parsed.tokens)) throw new Error(`Cannot read \`${join(dataDir, TOKENS_FILE)}\`: expected {"tokens": [...]}`);
  return parsed.tokens.filter(isRecord);
}

const writeTokens = (dataDir: string, tokens: TokenRecord[]) => writeFileAtomic(join(dataDir, TOKENS_FILE), `${JSON.stringify({ tokens }, null, 2)}\n`);

/**
 * Issue a token.
 *
 * @param dataDir The data folder.
 * @param label Who or what the token is for.
 * @returns The id and the token; the token is not stored and cannot be shown again.
 * @example const { id, token } = await createToken('data', 'research agent');
 */
export async function createToken(dataDir: string, label: string): Promise<{ id: string; token: string }> {
  const tokens = await readTokens(dataDir);
  const token = `agt_${randomBytes(24).toString('base64url')}`;
  const id = `tok_${randomBytes(4).toString('hex')}`;
  tokens.push({ id, label: label.trim().slice(0, 200), hash: hashToken(token), created_at: new Date().toISOString(), revoked_at: null });
  await writeTokens(dataDir, tokens);
  return { id, token };
}

/**
 * Every token record, without hashes.
 *
 * @param dataDir The data folder.
 */
export async function listTokens(dataDir: string): Promise<Omit<TokenRecord, 'hash'>[]> {
  return (await readTokens(dataDir)).map(({ hash: _hash, ...rest }) => rest);
}

/**
 * Revoke a token by id.
 *
 * @param dataDir The data folder.
 * @param id The token's id.
 * @returns Whether a token with that id exists (revoking twice is fine).
 */
export async function revokeToken(dataDir: string, id: string): Promise<boolean> {
  const tokens = await readTokens(dataDir);
  const record = tokens.find((t) => t.id === id);
  if (!record) return false;
  record.revoked_at ??= new Date().toISOString();
  await writeTokens(dataDir, tokens);
  return true;
}

/**
 * Check a token presented by an agent.
 *
 * @param dataDir The data folder.
 * @param token The `X-Agent-Token` value.
 */
export async function verifyToken(dataDir: string, token: string): Promise<TokenCheck> {
  const hash = hashToken(token);
  const record = (await readTokens(dataDir)).find((t) => t.hash === hash);
  if (!record) return { status: 'unknown' };
  if (record.revoked_at !== null) return { status: 'revoked', id: record.id };
  return { status: 'valid', id: record.id, label: record.label };
}
