/**
 * `agentIdentity`: the middleware of the routes that write (`POST /api/comments/{slug}`,
 * `POST /mcp`), before their rate budgets. A request without signature headers passes
 * as it is (unsigned: counted by its address). A signed one is verified
 * (`verify-signature.ts`); the verified agent is recorded on the request
 * (`http/client-key.ts`), so budgets, duplicate suppression and the renderer's
 * fairness follow the agent, and the comment stores it. A signature that fails answers
 * 401 (403 blocked, 503 resolver) before anything is read or stored, and costs a point
 * of the address's comment budget, so a flood of bad signatures is throttled (429).
 */
import type { Request, RequestHandler, Response } from 'express';
import { addressOf, setVerifiedAgent } from '../http/client-key.ts';
import { isAppError } from '../errors.ts';
import { verifyAgentRequest, type SignatureDeps } from './verify-signature.ts';

/** Options of `agentIdentity`. */
export interface IdentityOptions extends SignatureDeps {
  /** Count a failed signature against an address: its budget's headers go on `res` (throws 429 when the budget is spent). */
  countFailure?: (address: string, res: Response) => Promise<void>;
}

/**
 * Create the middleware.
 *
 * @param options Key directories, the store's agent part, this site's hosts, the failure counter.
 */
export function agentIdentity(options: IdentityOptions): RequestHandler {
  return async function verifySignature(req: Request, res, next) {
    try {
      const agent = await verifyAgentRequest({ method: req.method, url: req.originalUrl, protocol: req.protocol, host: req.host ?? req.get('host') ?? '', header: (name) => req.get(name), headers: () => req.headers }, options);
      if (agent) setVerifiedAgent(req, agent);
    } catch (error) {
      if (isAppError(error) && (error.code === 'signature_invalid' || error.code === 'agent_blocked')) await options.countFailure?.(addressOf(req), res);
      throw error;
    }
    next();
  };
}
