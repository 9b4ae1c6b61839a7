/**
 * Middleware that requires a valid `X-Agent-Token`: 401 when missing, 403 when
 * unknown or revoked. The token's id goes on `res.locals.agentTokenId`.
 */
import type { RequestHandler } from 'express';
import { AppError } from '../../errors.ts';
import { verifyToken, type ConfiguredTokens } from '../tokens.ts';
import type { TokenStore } from '../../store/types.ts';

/** The header that carries the agent token. */
export const AGENT_TOKEN_HEADER = 'X-Agent-Token';

/**
 * Create the middleware.
 *
 * @param tokens The store's agent tokens.
 * @param configured Those of `AGORA_AGENT_TOKENS`.
 */
export function requireAgentToken(tokens: TokenStore, configured?: ConfiguredTokens): RequestHandler {
  return async function agentToken(req, res, next) {
    res.locals.agentTokenId = await checkAgentToken(tokens, req.get(AGENT_TOKEN_HEADER), configured);
    next();
  };
}

/**
 * Check an agent token: 401 when missing, 403 when unknown or revoked.
 *
 * @param tokens The store's agent tokens.
 * @param given The token as sent.
 * @param configured Those of `AGORA_AGENT_TOKENS`.
 * @returns The token's id.
 */
export async function checkAgentToken(tokens: TokenStore, given: string | undefined, configured?: ConfiguredTokens): Promise<string> {
  const token = given?.trim();
  if (!token) {
    throw new AppError('unauthorized', `header/${AGENT_TOKEN_HEADER} is required; ask the operator for a token (agora token create)`, {
      field: AGENT_TOKEN_HEADER,
      headers: { 'WWW-Authenticate': `${AGENT_TOKEN_HEADER}` },
    });
  }
  const check = await verifyToken(tokens, token, configured);
  if (check.status !== 'valid') {
    throw new AppError('forbidden', `header/${AGENT_TOKEN_HEADER} is ${check.status === 'revoked' ? 'revoked' : 'not a known token'}`, { field: AGENT_TOKEN_HEADER });
  }
  return check.id;
}
