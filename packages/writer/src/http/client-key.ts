/**
 * The address a per-client budget is counted by: `req.ip` (which honours the
 * `trust proxy` setting), with IPv4-mapped IPv6 written as IPv4 and other IPv6
 * addresses cut to their /64, because one subscriber usually holds a whole /64 and
 * could otherwise take a fresh budget per address. A request signed by a verified agent
 * (Web Bot Auth, `agents/`) is counted by the agent's origin instead.
 */
import type { Request } from 'express';
import { isIPv6 } from 'node:net';
import type { CommentAgent } from '@agora/generator';

/** Expand an IPv6 address to eight 4-digit groups. */
function expandIPv6(ip: string): string[] {
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => g.padStart(4, '0'));
}

/**
 * The budget key of an address.
 *
 * @param ip An address as Node reports it.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  const bare = ip.split('%')[0] ?? ip; // zone index, e.g. fe80::1%eth0
  if (!isIPv6(bare)) return ip;
  return `${expandIPv6(bare.toLowerCase()).slice(0, 4).join(':')}::/64`;
}

/**
 * The budget key of a request's client.
 *
 * @param req The request.
 */
export function clientKey(req: Request): string {
  const agent = verifiedAgent(req);
  return agent ? agentKey(agent) : addressOf(req);
}

/** How a verified agent's budget key begins (an address key never does). */
export const AGENT_KEY_PREFIX = 'agent:';

/**
 * The budget key of a verified agent: its origin (every key of one directory shares
 * one budget, so minting keys buys nothing).
 */
export function agentKey(agent: { origin: string }): string {
  return `${AGENT_KEY_PREFIX}${agent.origin}`;
}

/** The budget key of a request's address, whoever signed it. */
export function addressOf(req: Request): string {
  return addressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

const verified = new WeakMap<Request, CommentAgent>();

/** Record the verified agent of a request (`agents/identity.ts`). */
export function setVerifiedAgent(req: Request, agent: CommentAgent): void {
  verified.set(req, agent);
}

/** The verified agent of a request (Web Bot Auth), or null when it was not signed. */
export function verifiedAgent(req: Request): CommentAgent | null {
  return verified.get(req) ?? null;
}
