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

/** Tokens given as configuration (`AGORA_AGENT_TOKENS`), by hash. */
export type ConfiguredTokens = ReadonlyMap<string, TokenRecord>;

/** The shortest configured token: a guessable one would open the proxy's quota to anyone. */
const MIN_CONFIGURED_TOKEN = 16;
/** The fewest different characters in one: `aaaaaaaaaaaaaaaa` is long and guessable. */
const MIN_DISTINCT_CHARACTERS = 6;

/**
 * Agent tokens from the environment (`AGORA_AGENT_TOKENS`, comma-separated), beside the
 * ones `agora token create` stores: DESIGN names agent tokens among the configuration,
 * for deployments whose secrets come from the environment (a secrets manager, CI). Each
 * is valid with the id `env_<first 8 hex of its SHA-256>` (its quota's key); it is never
 * stored or listed, and is revoked by taking it out of the variable and restarting.
 * A token shorter than 16 characters, of fewer than 6 different characters, with spaces
 * or control characters, or given twice (a pasting slip) stops the start, naming the
 * variable and the position (never the token).
 */
export function configuredTokens(value: string | undefined): ConfiguredTokens {
  const tokens = new Map<string, TokenRecord>();
  const given = (value ?? '').split(',').map((t) => t.trim());
  if (given.every((t) => t === '')) return tokens;
  given.forEach((token, i) => {
    const weakness = token === '' ? 'is empty'
      : token.length < MIN_CONFIGURED_TOKEN || /[\s\p{Cc}]/u.test(token) ? 'is not at least 16 characters without spaces'
      : new Set(token).size < MIN_DISTINCT_CHARACTERS ? 'has fewer than 6 different characters'
      : undefined;
    const first = given.indexOf(token);
    const problem = weakness ?? (first < i ? `repeats token ${first + 1}` : undefined);
    if (problem) {
      throw new Error(`Unexpected AGORA_AGENT_TOKENS: token ${i + 1} of ${given.length} ${problem}; give comma-separated tokens (\`agora token create\` makes one to copy), or unset it`);
    }
    const hash = hashToken(token);
    tokens.set(hash, { id: `env_${hash.slice(0, 8)}`, label: `AGORA_AGENT_TOKENS #${i + 1}`, hash, created_at: '', revoked_at: null });
  });
  return tokens;
}

/** Check a token presented by an agent (the configured ones first). */
export async function verifyToken(tokens: TokenStore, token: string, configured: ConfiguredTokens = new Map()): Promise<TokenCheck> {
  const hash = hashToken(token);
  const record = configured.get(hash) ?? (await tokens.findByHash(hash));
  if (!record) return { status: 'unknown' };
  if (record.revoked_at !== null) return { status: 'revoked', id: record.id };
  return { status: 'valid', id: record.id, label: record.label };
}
