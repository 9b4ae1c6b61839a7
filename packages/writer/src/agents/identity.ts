/**
 * `agentIdentity`: the middleware of the routes that write (`POST /api/comments/{slug}`,
 * `POST /mcp`), before their rate budgets. A request without signature headers passes
 * as it is (unsigned: counted by its address). A signed one is verified
 * (`verify-signature.ts`); the verified agent is recorded on the request
 * (`http/client-key.ts`), so budgets, duplicate suppression and the renderer's
 * fairness follow the agent, and the comment stores it. A signature that fails answers
 * 401 (403 blocked, 503 resolver) before anything is read or stored, and costs a point
 * of the address's comment budget, so a flood of bad signatures is throttled (429). A
 * key-directory fetch (not a cached directory) costs the address a point of its own
 * budget before it is made, so a throttled client cannot make the writer fetch any origin.
 */
import type { Request, RequestHandler, Response } from 'express';
import { addressOf, setVerifiedAgent } from '../http/client-key.ts';
import { isAppError } from '../errors.ts';
import { verifyAgentRequest, type SignatureDeps } from './verify-signature.ts';

/** Options of `agentIdentity`. */
export interface IdentityOptions extends SignatureDeps {
  /** A point of an address's comment budget for a refused signature: its headers go on `res` (throws 429 when the budget is spent). */
  chargeAddress?: (address: string, res: Response) => Promise<void>;
  /** A point of an address's key-directory budget before a fetch (not for a cached directory): throws 429 when spent. */
  chargeFetch?: (address: string, res: Response) => Promise<void>;
  /** A point of an address's signed-request budget before a signature is read (its nonce is claimed): throws 429 when spent. */
  chargeSigned?: (address: string, res: Response) => Promise<void>;
}

/**
 * Create the middleware.
 *
 * @param options Key directories, the store's agent part, this site's hosts, the address budgets.
 */
export function agentIdentity(options: IdentityOptions): RequestHandler {
  return async function verifySignature(req: Request, res, next) {
    try {
      // A signed request claims a nonce that is kept until it expires: its address pays first.
      if (options.chargeSigned && (req.get('signature') !== undefined || req.get('signature-input') !== undefined)) await options.chargeSigned(addressOf(req), res);
      // A directory fetch is aimed by the sender: its address pays for it, before it is made.
      const chargeFetch = options.chargeFetch;
      const beforeFetch = chargeFetch && (() => chargeFetch(addressOf(req), res));
      const agent = await verifyAgentRequest({ method: req.method, url: req.originalUrl, protocol: req.protocol, host: req.host ?? req.get('host') ?? '', header: (name) => req.get(name), headers: () => req.headers }, { ...options, beforeFetch });
      if (agent) setVerifiedAgent(req, agent);
    } catch (error) {
      if (isAppError(error) && (error.code === 'signature_invalid' || error.code === 'agent_blocked')) await options.chargeAddress?.(addressOf(req), res);
      throw error;
    }
    next();
  };
}
