/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless in both protocol eras:
 * the SDK's `createMcpHandler` builds a fresh server per request, answering 2026-07-28
 * requests (`server/discover`, a `_meta` envelope on every request) and 2025-era ones
 * (`initialize`, then any request) alike, so any writer node can answer any request.
 * The caller's address is its rate-limit key, as on the HTTP routes; a request signed by
 * a verified agent (Web Bot Auth, `agents/identity.ts`) is keyed by the agent, and
 * `post_comment` stores the agent with the comment.
 */
import express, { Router, type Request } from 'express';
import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server';
import { hostHeaderValidation, toNodeHandler } from '@modelcontextprotocol/node';
import type { AgoraConfig } from '@agora/generator';
import { AppError } from '../errors.ts';
import { clientKey, verifiedAgent } from '../http/client-key.ts';
import { createMcpServer } from './server.ts';
import type { AgentDeps, Caller } from './deps.ts';

/** JSON-RPC bodies: a comment document (16 KiB) escaped in JSON fits well within this. */
const BODY_LIMIT = '64kb';

/**
 * Host names `/mcp` answers for. A web page that rebinds its own DNS name to this
 * server's address (DNS rebinding) sends that name as `Host`, so anything else is
 * refused: the site's own host (`AGORA_BASE_URL`), the address the writer listens on,
 * loopback names, and `AGORA_MCP_HOSTS`.
 */
export function mcpHostNames(config: Pick<AgoraConfig, 'host' | 'site'>, extra: readonly string[] = []): string[] {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', ...extra]);
  names.add(new URL(config.site.baseUrl).hostname);
  if (config.host !== '0.0.0.0' && config.host !== '::') names.add(config.host.includes(':') ? `[${config.host}]` : config.host.toLowerCase());
  return [...names];
}

/**
 * Who calls, as the SDK's pass-through `authInfo` (nothing is authenticated: the
 * comment key and agent tokens are checked by the tools): the rate-limit key as
 * `clientId`, the credential headers in `extra`.
 */
function callerInfo(req: Request): AuthInfo {
  return { token: '', clientId: clientKey(req), scopes: [], extra: { apiKey: req.get('x-api-key'), agentToken: req.get('x-agent-token'), agent: verifiedAgent(req) } };
}

function callerOf(info: AuthInfo | undefined): Caller {
  const extra = (info?.extra ?? {}) as { apiKey?: string; agentToken?: string; agent?: Caller['agent'] };
  return { client: info?.clientId ?? 'unknown', apiKey: extra.apiKey, agentToken: extra.agentToken, agent: extra.agent ?? null };
}

/**
 * The `/mcp` router.
 *
 * @param deps The writer's parts.
 * @param hosts Allowed `Host` names (`mcpHostNames`); other hosts get 403.
 * @example
 * app.use(mcpRoutes(agents, mcpHostNames(config)));
 */
export function mcpRoutes(deps: AgentDeps, hosts: readonly string[]): Router {
  const router = Router();
  const handler = createMcpHandler(({ authInfo }) => createMcpServer(deps, callerOf(authInfo)), {
    onerror: (error) => deps.logger?.debug({ err: error }, 'MCP request refused'),
  });
  const node = toNodeHandler(handler, { onerror: (error) => deps.logger?.error({ err: error }, 'MCP handler failed') });
  const parse = express.json({ limit: BODY_LIMIT, type: () => true });
  const validHost = hostHeaderValidation([...hosts]);
  // The SDK's own Host check, before the body is read: a JSON-RPC error with 403.
  router.post('/mcp', (req, res, next) => (validHost(req, res) ? next() : undefined), parse, async (req, res) => {
    (req as Request & { auth?: AuthInfo }).auth = callerInfo(req);
    await node(req, res, req.body);
  });
  router.all('/mcp', (req) => {
    throw new AppError('method_not_allowed', `${req.method} is not allowed on /mcp; this MCP server is stateless: POST JSON-RPC messages (Streamable HTTP)`, { headers: { Allow: 'POST' } });
  });
  return router;
}
