/**
 * Agent tokens for the catalog proxy. A token is shown once at creation; only its
 * SHA-256 hash is kept, in the store (`tokens.json` or a table).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { TokenRecord, TokenStore } from '../store/types.ts';

export type { TokenRecord };

/** What `verifyToken` finds. */
export type TokenCheck = { status: 'valid'; id: string; label: string } | { status: 'revoked'; id: string } | { status: 'unknown' };

const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Issue a token.
 *
 * @returns The id and the token; the token is not stored and cannot be shown again.
 * @example const { id, token } = await createToken(store.tokens, 'research agent');
 */
export async function createToken(tokens: TokenStore, label: string): Promise<{ id: string; token: string }> {
  // One line of printable text: `token list` prints a row per token, tab-separated.
  if (label.trim() === '' || /[\p{Cc}\p{Zl}\p{Zp}]/u.test(label)) throw new Error(`Unexpected token label ${JSON.stringify(label)}: one line of printable text, not empty (no tabs or line breaks)`);
  const token = `agt_${randomBytes(24).toString('base64url')}`;
  const id = `tok_${randomBytes(4).toString('hex')}`;
  await tokens.insert({ id, label: label.trim().slice(0, 200), hash: hashToken(token), created_at: new Date().toISOString(), revoked_at: null });
  return { id, token };
}

/** Every token record, without hashes. */
export async function listTokens(tokens: TokenStore): Promise<Omit<TokenRecord, 'hash'>[]> {
  return (await tokens.list()).map(({ hash: _hash, ...rest }) => rest);
}

/** Revoke a token by id; false when no token has that id (revoking twice is fine). */
export function revokeToken(tokens: TokenStore, id: string): Promise<boolean> {
  return tokens.revoke(id, new Date().toISOString());
}

/** Check a token presented by an agent. */
export async function verifyToken(tokens: TokenStore, token: string): Promise<TokenCheck> {
  const record = await tokens.findByHash(hashToken(token));
  if (!record) return { status: 'unknown' };
  if (record.revoked_at !== null) return { status: 'revoked', id: record.id };
  return { status: 'valid', id: record.id, label: record.label };
}
